import { expect, type Page } from "@playwright/test";
import { visit } from "./fixtures";

/** A message as the local mailbox lists it at /dev/mailbox.json (newest first). */
export type MailboxMessage = {
  to: string;
  subject: string | null;
  text: string;
  html: string | null;
  channel: "email" | "sms";
};

export async function readMailbox(page: Page): Promise<MailboxMessage[]> {
  const response = await page.request.get("/dev/mailbox.json");
  expect(response.ok(), "the local mailbox answers").toBe(true);
  return response.json();
}

/**
 * Waits until the mailbox holds a message to `to` on `channel` whose text matches `pattern`
 * (messages are sent by a background job), and returns the newest match.
 */
export async function waitForMessage(
  page: Page,
  { to, channel, pattern }: { to: string; channel: MailboxMessage["channel"]; pattern: RegExp },
): Promise<RegExpMatchArray> {
  let match: RegExpMatchArray | null = null;
  await expect
    .poll(
      async () => {
        const messages = await readMailbox(page);
        const found = messages.find((message) => message.to === to && message.channel === channel);
        match = found?.text.match(pattern) ?? null;
        return match !== null;
      },
      { message: `a ${channel} message to ${to} matching ${pattern}`, timeout: 15_000 },
    )
    .toBe(true);
  return match!;
}

/**
 * Creates an account through /createAnAccount and opens the confirmation link from its email,
 * which signs the new member in (and lands on /newProfile).
 */
export async function signUpAndVerify(page: Page, member: { name: string; email: string; password: string }) {
  await visit(page, "/createAnAccount");
  await page.getByLabel("Your name").fill(member.name);
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password", { exact: true }).fill(member.password);
  await page.getByRole("checkbox", { name: /I accept/ }).check();
  await page.getByRole("button", { name: "Create my account" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

  const [link] = await waitForMessage(page, {
    to: member.email,
    channel: "email",
    pattern: /https?:\/\/\S+\/api\/auth\/verify-email\?\S+/,
  });
  await page.goto(link);
  await expect(page).toHaveURL(/\/newProfile/);
}

/** A new address for each test, so tests never share a member. */
export function uniqueEmail(prefix: string) {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}
