import { like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { verifications } from "../../../db/schema";
import { resetPassword, sendPasswordReset, signInWithPassword } from "./sign-in.server";
import { testAccounts } from "./test-members";

const database = freshDatabasePerFile();

function accounts() {
  return testAccounts(database().db);
}

function tokenIn(text: string, pattern: RegExp) {
  const token = pattern.exec(text)?.[1];
  if (!token) throw new Error(`No token in: ${text}`);
  return decodeURIComponent(token);
}

describe("password reset links", () => {
  it("work once, and not after they expire", async () => {
    const { auth, outbox, createMember } = accounts();
    const { db } = database();
    const member = await createMember({ name: "Reset Once", email: "reset-once@example.com" });
    const call = { auth, db, headers: new Headers(), ip: "10.0.0.1" };

    await sendPasswordReset(call, { email: member.email });
    const first = tokenIn(outbox.at(-1)!.text, /token=([^\s&]+)/);
    expect(await resetPassword({ auth }, { token: first, password: "brand new passphrase" })).toEqual({ ok: true });
    expect((await resetPassword({ auth }, { token: first, password: "another passphrase" })).ok).toBe(false);

    await sendPasswordReset(call, { email: member.email });
    const second = tokenIn(outbox.at(-1)!.text, /token=([^\s&]+)/);
    // An hour and a bit later…
    await db
      .update(verifications)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(like(verifications.identifier, `reset-password:%`));
    const late = await resetPassword({ auth }, { token: second, password: "too late passphrase" });
    expect(late).toMatchObject({
      ok: false,
      message: "This reset link has expired or was already used. Ask for a new one.",
    });

    const signIn = await signInWithPassword(call, { email: member.email, password: "brand new passphrase" });
    expect(signIn.ok).toBe(true);
  });

  it("are not sent for an address with no account, with the same outcome", async () => {
    const { auth, outbox } = accounts();
    const before = outbox.length;
    await sendPasswordReset(
      { auth, db: database().db, headers: new Headers(), ip: "10.0.0.2" },
      {
        email: "nobody@example.com",
      },
    );
    expect(outbox.length).toBe(before);
  });
});

describe("signing in", () => {
  it("gives the same answer for a wrong password and an unknown address", async () => {
    const { auth, createMember } = accounts();
    const { db } = database();
    const member = await createMember({ name: "Same Answer", email: "same-answer@example.com" });
    const call = { auth, db, headers: new Headers(), ip: "10.0.0.3" };
    expect(await signInWithPassword(call, { email: member.email, password: "wrong password here" })).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await signInWithPassword(call, { email: "ghost@example.com", password: "wrong password here" })).toEqual({
      ok: false,
      reason: "invalid",
    });
  });
});
