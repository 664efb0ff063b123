import { expect, type Page } from "@playwright/test";
import { visit } from "./fixtures";

type MailboxMessage = { to: string; subject: string | null; text: string; channel: "email" | "sms" };

/** The newest message to `to` whose subject matches, once the mail job has delivered it. */
export async function latestEmail(page: Page, to: string, subject: RegExp) {
  let found: MailboxMessage | undefined;
  await expect
    .poll(
      async () => {
        const response = await page.request.get("/dev/mailbox.json");
        const messages = (await response.json()) as MailboxMessage[];
        found = messages.find(
          (message) => message.channel === "email" && message.to === to && subject.test(message.subject ?? ""),
        );
        return Boolean(found);
      },
      { message: `an email to ${to} matching ${subject}`, timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}

/** The confirmation link in an account email. */
export function verifyLink(text: string) {
  const link = /https?:\/\/\S+\/api\/auth\/verify-email\?\S+/.exec(text)?.[0];
  if (!link) throw new Error(`No confirmation link in:\n${text}`);
  return link;
}

/**
 * Creates an account through /createAnAccount and opens the confirmation link from the mailbox,
 * which signs the new member in and lands on /newProfile.
 */
export async function signUpAndVerify(
  page: Page,
  { name, email, password }: { name: string; email: string; password: string },
) {
  await visit(page, "/createAnAccount");
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel(/I accept/).check();
  await page.getByRole("button", { name: "Create my account" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

  const message = await latestEmail(page, email, /Confirm your email/);
  await visit(page, verifyLink(message.text));
  await expect(page).toHaveURL(/\/newProfile/);
}

/**
 * Fills the onboarding form (on /newProfile) and goes on: to the members' area, or back to the
 * page that sent the member to finish their profile.
 */
export async function completeProfile(page: Page, { handle }: { handle: string }) {
  await page.getByLabel("Handle").fill(handle);
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page).not.toHaveURL(/\/newProfile/);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}
