import { existsSync, mkdirSync, renameSync } from "node:fs";
import path from "node:path";
import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { visit } from "./fixtures";

export type Message = { to: string; subject: string | null; text: string; channel: "email" | "sms"; sentAt: string };

/** A unique address per test, so parallel tests never read each other's mail. */
export function uniqueEmail(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

/** The newest message to `to` whose subject (or text, for SMS) matches; waits for the send job. */
export async function latestMessage(request: APIRequestContext, to: string, match: RegExp): Promise<Message> {
  let found: Message | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/dev/mailbox.json?to=${encodeURIComponent(to)}`);
        const messages = (await response.json()) as Message[];
        found = messages.find((message) => match.test(message.subject ?? message.text));
        return Boolean(found);
      },
      { message: `a message to ${to} matching ${match}`, timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}

/** The first match of `pattern` in the newest message to `to` on `channel` (e.g. an SMS code). */
export async function waitForMessage(
  page: Page,
  { to, channel, pattern }: { to: string; channel: Message["channel"]; pattern: RegExp },
): Promise<RegExpMatchArray> {
  let match: RegExpMatchArray | null = null;
  await expect
    .poll(
      async () => {
        const found = (await messagesTo(page.request, to)).find((message) => message.channel === channel);
        match = found?.text.match(pattern) ?? null;
        return match !== null;
      },
      { message: `a ${channel} message to ${to} matching ${pattern}`, timeout: 20_000 },
    )
    .toBe(true);
  return match!;
}

/**
 * Waits until the site's job queue has nothing waiting, waiting to be retried or running: every
 * message asked for so far has then been sent, and one that is missing will not come.
 */
export async function jobsIdle(request: APIRequestContext) {
  const response = await request.get("/dev/fixtures/jobs-idle");
  expect(response.status(), "the job queue to be idle (see the server's log)").toBe(200);
}

export async function messagesTo(request: APIRequestContext, to: string): Promise<Message[]> {
  return (await (await request.get(`/dev/mailbox.json?to=${encodeURIComponent(to)}`)).json()) as Message[];
}

/** The first link in a message's text that contains `path`. */
export function linkIn(message: Message, path: string) {
  const link = message.text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(path));
  if (!link) throw new Error(`No link with ${path} in: ${message.text}`);
  return link;
}

export type NewMember = { name: string; email: string; password: string };

export function newMember(prefix = "member"): NewMember {
  return { name: "Sam Driver", email: uniqueEmail(prefix), password: "grid walk at dawn 42" };
}

/** Creates an account with a password and opens the confirmation link: signed in, on /newProfile. */
export async function signUpAndVerify(page: Page, member: NewMember) {
  await visit(page, "/createAnAccount");
  await page.getByLabel("Your name").fill(member.name);
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password", { exact: true }).fill(member.password);
  await page.getByLabel(/I accept the/).check();
  await page.getByRole("button", { name: "Create my account" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  const message = await latestMessage(page.request, member.email, /Confirm your email/);
  await page.goto(linkIn(message, "/api/auth/verify-email"));
  await expect(page).toHaveURL(/\/newProfile/);
}

/** Fills the onboarding form and lands in the members' area. */
export async function completeProfile(page: Page, profile: { handle: string }) {
  await page.getByLabel("Handle").fill(profile.handle);
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Welcome to the club" })).toBeVisible();
}

export async function signIn(page: Page, email: string, password: string, path = "/login") {
  await visit(page, path);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * A member who has confirmed their email and finished onboarding, signed in on `page`. Made by a
 * test fixture, not the sign-up form: sign-ups are limited per address and the whole suite runs
 * from one machine (the specs about joining use `signUpAndVerify`).
 */
export async function joinAsMember(page: Page, member: NewMember) {
  const handle = `m${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const response = await page.request.post("/dev/fixtures/member", {
    headers: { Origin: new URL(test.info().project.use.baseURL!).origin },
    form: { email: member.email, name: member.name, password: member.password, handle },
  });
  expect(response.ok(), await response.text()).toBe(true);
  await visit(page, "/members");
}

/** The demo staff accounts the seed creates. */
const DEMO_STAFF = {
  organizer: { email: "organizer@pitlane.test", password: "pitlane-organizer-demo" },
  admin: { email: "admin@pitlane.test", password: "pitlane-admin-demo" },
} as const;
export type DemoStaff = keyof typeof DEMO_STAFF;

/**
 * Signs a demo staff account in once and saves its session to `file` for `test.use({ storageState })`.
 * Sign-ins are rate limited per address (50 an hour), so a spec signs each account in once per run
 * and reuses the session: the file is in the run's output folder, which every run starts empty,
 * so one that exists was saved by this run (by an earlier repeat of the spec, or a worker before
 * a restart).
 */
export async function saveStaffSession(browser: Browser, who: DemoStaff, file: string) {
  if (existsSync(file)) return;
  mkdirSync(path.dirname(file), { recursive: true });
  const context = await browser.newContext({ serviceWorkers: "block", storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signIn(page, DEMO_STAFF[who].email, DEMO_STAFF[who].password, "/login?redirectTo=/admin");
  await page.waitForURL((url) => url.pathname === "/admin");
  // Written whole under another name first: another worker may be reading it.
  const written = `${file}.${process.pid}.tmp`;
  await context.storageState({ path: written });
  renameSync(written, file);
  await context.close();
}
