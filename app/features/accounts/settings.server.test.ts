import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deleteAccount } from "~/features/privacy/delete-account.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { accounts, sessions, users } from "../../../db/schema";
import { testAccounts } from "./members.test-support";
import { getAccountSettings, requestEmailChange, unlinkSignInMethod, updateNotifications } from "./settings.server";

const database = freshDatabasePerFile();

function linkIn(text: string) {
  const url = /https?:\/\/\S+\/api\/auth\/verify-email\?\S+/.exec(text)?.[0];
  if (!url) throw new Error(`No confirmation link in:\n${text}`);
  return url;
}

describe("updateNotifications", () => {
  it("saves each email choice", async () => {
    const { db } = database();
    const { createMember } = testAccounts(db);
    const member = await createMember({ name: "Nia Notify", email: "nia@example.com" });

    await updateNotifications(db, member.id, {
      notifyEvents: false,
      notifyDraws: true,
      notifyOrders: false,
      marketingConsent: true,
    });

    const settings = await getAccountSettings(db, member.id);
    expect(settings?.notifications).toEqual({
      notifyEvents: false,
      notifyDraws: true,
      notifyOrders: false,
      marketingConsent: true,
    });
  });
});

describe("requestEmailChange", () => {
  it("needs the right password", async () => {
    const { db } = database();
    const { createMember, callFor, outbox } = testAccounts(db);
    const member = await createMember({ name: "Wes Wrong", email: "wes@example.com" });

    const outcome = await requestEmailChange(callFor(member.headers), member, {
      newEmail: "wes.new@example.com",
      currentPassword: "not my password at all",
    });
    expect(outcome).toEqual({ ok: false, field: "currentPassword", message: "The password is not right." });
    expect(outbox.filter((email) => email.to === "wes.new@example.com")).toEqual([]);
  });

  it("refuses the address the member already has", async () => {
    const { db } = database();
    const { createMember, callFor } = testAccounts(db);
    const member = await createMember({ name: "Sam Same", email: "sam@example.com" });
    const outcome = await requestEmailChange(callFor(member.headers), member, {
      newEmail: "sam@example.com",
      currentPassword: member.password,
    });
    expect(outcome).toMatchObject({ ok: false, field: "newEmail" });
  });

  it("changes the email once the new address confirms it, and tells the old one", async () => {
    const { db } = database();
    const { auth, createMember, callFor, outbox } = testAccounts(db);
    const member = await createMember({ name: "Cleo Change", email: "cleo@example.com" });

    const outcome = await requestEmailChange(callFor(member.headers), member, {
      newEmail: "cleo.new@example.com",
      currentPassword: member.password,
    });
    expect(outcome).toEqual({ ok: true, sentTo: "cleo.new@example.com" });
    const confirmation = outbox.find((email) => email.to === "cleo.new@example.com");
    expect(confirmation?.subject).toBe("Confirm your new email address for Pitlane");
    // Nothing changes until the link is opened.
    const emailOf = async () => (await db.select({ email: users.email }).from(users).where(eq(users.id, member.id)))[0];
    expect(await emailOf()).toEqual({ email: "cleo@example.com" });

    const answer = await auth.handler(new Request(linkIn(confirmation!.text)));
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/settings?email=changed");
    expect(await emailOf()).toEqual({ email: "cleo.new@example.com" });
    const notice = outbox.filter((email) => email.to === "cleo@example.com").at(-1);
    expect(notice?.subject).toBe("Your Pitlane email address was changed");
    expect(notice?.text).toContain("changed to cleo.new@example.com");
  });

  it("answers the same for an address that already has an account, and sends nothing", async () => {
    const { db } = database();
    const { createMember, callFor, outbox } = testAccounts(db);
    const member = await createMember({ name: "Pat Probe", email: "pat@example.com" });
    await createMember({ name: "Taken Already", email: "taken@example.com" });
    const sent = outbox.length;

    const outcome = await requestEmailChange(callFor(member.headers), member, {
      newEmail: "taken@example.com",
      currentPassword: member.password,
    });
    expect(outcome).toEqual({ ok: true, sentTo: "taken@example.com" });
    expect(outbox.length).toBe(sent);
  });
});

describe("unlinkSignInMethod", () => {
  it("never removes the password or the last way in, and removes a social sign-in", async () => {
    const { db } = database();
    const { createMember, callFor } = testAccounts(db);
    const member = await createMember({ name: "Lou Link", email: "lou@example.com" });
    const [credential] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.userId, member.id));

    expect(await unlinkSignInMethod(callFor(member.headers), member.id, credential!.id)).toMatchObject({
      ok: false,
      message: "Your password cannot be removed. You can change it instead.",
    });

    await db.insert(accounts).values({ id: "google-lou", userId: member.id, accountId: "g-123", providerId: "google" });
    const settings = await getAccountSettings(db, member.id);
    expect(settings?.signInMethods.map(({ name, canUnlink }) => ({ name, canUnlink }))).toEqual([
      { name: "Password", canUnlink: false },
      { name: "Google", canUnlink: true },
    ]);

    expect(await unlinkSignInMethod(callFor(member.headers), member.id, "google-lou")).toEqual({
      ok: true,
      name: "Google",
    });
    expect(await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.userId, member.id))).toEqual([
      { id: credential!.id },
    ]);
  });

  it("keeps a social sign-in that is the member's only way in", async () => {
    const { db } = database();
    const { createMember, callFor } = testAccounts(db);
    const member = await createMember({ name: "Solo Social", email: "solo@example.com" });
    await db.delete(accounts).where(eq(accounts.userId, member.id));
    await db.insert(accounts).values({ id: "google-solo", userId: member.id, accountId: "g-9", providerId: "google" });

    expect(await unlinkSignInMethod(callFor(member.headers), member.id, "google-solo")).toEqual({
      ok: false,
      field: "",
      message: "Google is your only way to sign in, so it cannot be removed.",
    });
  });

  it("cannot unlink another member's account", async () => {
    const { db } = database();
    const { createMember, callFor } = testAccounts(db);
    const member = await createMember({ name: "Mo Mine", email: "mo@example.com" });
    const other = await createMember({ name: "Ty Theirs", email: "ty@example.com" });
    await db.insert(accounts).values({ id: "google-ty", userId: other.id, accountId: "g-7", providerId: "google" });
    expect(await unlinkSignInMethod(callFor(member.headers), member.id, "google-ty")).toMatchObject({ ok: false });
    expect(await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, "google-ty"))).toHaveLength(1);
  });
});

describe("deleteAccount", () => {
  it("needs the member's email typed, then deletes, says goodbye and signs out", async () => {
    const { db } = database();
    const { createMember, callFor, outbox } = testAccounts(db);
    const member = await createMember({ name: "Gail Goodbye", email: "gail@example.com" });

    const justSignedIn = { ...member, signedInAt: new Date() };

    expect(await deleteAccount(callFor(member.headers), justSignedIn, { confirmation: "someone@example.com" })).toEqual(
      {
        ok: false,
        field: "confirmation",
        message: "Type gail@example.com to confirm.",
      },
    );
    expect(await db.select().from(sessions).where(eq(sessions.userId, member.id))).toHaveLength(1);

    const outcome = await deleteAccount(callFor(member.headers), justSignedIn, { confirmation: "gail@example.com" });
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.headers.getSetCookie().join("\n")).toMatch(/pitlane\.session_token=;.*Max-Age=0/i);
    expect(outbox.at(-1)).toMatchObject({ to: "gail@example.com", subject: "Your Pitlane account was deleted" });
    expect(await db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
  });

  it("needs the password when the sign-in is more than five minutes old", async () => {
    const { db } = database();
    const { createMember, callFor } = testAccounts(db);
    const member = await createMember({ name: "Stale Sam", email: "stale@example.com" });
    const stale = { ...member, signedInAt: new Date(Date.now() - 6 * 60 * 1000) };
    const call = callFor(member.headers);

    expect(await deleteAccount(call, stale, { confirmation: "stale@example.com" })).toEqual({
      ok: false,
      field: "currentPassword",
      message: "Enter your password to confirm it's you.",
    });
    expect(
      await deleteAccount(call, stale, { confirmation: "stale@example.com", currentPassword: "not the password" }),
    ).toEqual({ ok: false, field: "currentPassword", message: "The password is not right." });
    const emailNow = async () => (await db.select().from(users).where(eq(users.id, member.id)))[0]?.email;
    expect(await emailNow()).toBe("stale@example.com");

    const outcome = await deleteAccount(call, stale, {
      confirmation: "stale@example.com",
      currentPassword: member.password,
    });
    expect(outcome.ok).toBe(true);
    expect(await emailNow()).toMatch(/@invalid$/);
  });
});
