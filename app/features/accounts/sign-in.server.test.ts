import { eq, like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { auditLog, verifications } from "../../../db/schema";
import { TooManyAttempts } from "./attempts.server";
import { testAccounts } from "./members.test-support";
import { resetPassword, sendPasswordReset, signInWithPassword } from "./sign-in.server";

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

describe("sign-in lockout", () => {
  const wrong = "definitely not it 99";

  /** Browser headers holding the cookies of an answer. */
  function browserWith(answer: Headers) {
    const cookie = answer
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    return new Headers({ cookie });
  }

  it("does not let a stranger elsewhere lock the owner out", async () => {
    const { auth, createMember } = accounts();
    const { db } = database();
    const member = await createMember({ name: "Locked Not", email: "locked-not@example.com" });
    const stranger = { auth, db, headers: new Headers(), ip: "198.51.100.7" };
    for (let i = 0; i < 5; i++) {
      expect(await signInWithPassword(stranger, { email: member.email, password: wrong })).toMatchObject({ ok: false });
    }
    await expect(signInWithPassword(stranger, { email: member.email, password: member.password })).rejects.toThrow(
      TooManyAttempts,
    );
    const owner = { auth, db, headers: new Headers(), ip: "203.0.113.20" };
    expect(await signInWithPassword(owner, { email: member.email, password: member.password })).toMatchObject({
      ok: true,
    });
  });

  it("counts an IPv6 /64 as one network", async () => {
    const { auth, createMember } = accounts();
    const { db } = database();
    const member = await createMember({ name: "Six Four", email: "six-four@example.com" });
    for (let i = 0; i < 5; i++) {
      const rotating = { auth, db, headers: new Headers(), ip: `2001:db8:1:2::${i + 1}` };
      await signInWithPassword(rotating, { email: member.email, password: wrong });
    }
    const sameNetwork = { auth, db, headers: new Headers(), ip: "2001:db8:1:2::ffff" };
    await expect(signInWithPassword(sameNetwork, { email: member.email, password: wrong })).rejects.toThrow(
      TooManyAttempts,
    );
  });

  it("lets the owner's known device in while the address is locked everywhere", async () => {
    const { auth, createMember } = accounts();
    const { db } = database();
    const member = await createMember({ name: "Known Device", email: "known-device@example.com" });
    const home = { auth, db, headers: new Headers(), ip: "203.0.113.30" };
    const first = await signInWithPassword(home, { email: member.email, password: member.password });
    if (!first.ok) throw new Error("expected the password to be accepted");
    expect(first.headers.getSetCookie().join("\n")).toMatch(/pitlane\.device=.+HttpOnly; SameSite=Lax/);

    // Fifty failures an hour from many networks lock the address for new devices…
    for (let i = 0; i < 50; i++) {
      const attacker = { auth, db, headers: new Headers(), ip: `198.51.100.${i + 1}` };
      await signInWithPassword(attacker, { email: member.email, password: wrong }).catch(() => {});
    }
    const newDevice = { auth, db, headers: new Headers(), ip: "203.0.113.31" };
    await expect(signInWithPassword(newDevice, { email: member.email, password: member.password })).rejects.toThrow(
      TooManyAttempts,
    );
    // …but not for the device the owner signed in on before, and not for a forged cookie.
    const knownDevice = { ...newDevice, headers: browserWith(first.headers) };
    expect(await signInWithPassword(knownDevice, { email: member.email, password: member.password })).toMatchObject({
      ok: true,
    });
    const forged = browserWith(first.headers)
      .get("cookie")!
      .replace(/(pitlane\.device=[^.]+\.[^.]+\.)\S{4}/, "$1AAAA");
    await expect(
      signInWithPassword(
        { ...newDevice, headers: new Headers({ cookie: forged }) },
        {
          email: member.email,
          password: member.password,
        },
      ),
    ).rejects.toThrow(TooManyAttempts);
  });

  it("records failures and lockouts of an account with the address they came from", async () => {
    const { auth, createMember } = accounts();
    const { db } = database();
    const member = await createMember({ name: "Audit Me", email: "audit-me@example.com" });
    const from = { auth, db, headers: new Headers(), ip: "192.0.2.44" };
    for (let i = 0; i < 5; i++) await signInWithPassword(from, { email: member.email, password: wrong });
    await signInWithPassword(from, { email: member.email, password: wrong }).catch(() => {});
    const events = await db
      .select({ action: auditLog.action, ip: auditLog.ip, actorId: auditLog.actorId })
      .from(auditLog)
      .where(eq(auditLog.subjectId, member.id));
    expect(events.filter((event) => event.action === "sign-in.failed")).toHaveLength(5);
    expect(events.filter((event) => event.action === "sign-in.locked")).toEqual([
      { action: "sign-in.locked", ip: "192.0.2.44", actorId: member.id },
    ]);
    // An address with no account leaves nothing.
    await signInWithPassword(from, { email: "no-account@example.com", password: wrong }).catch(() => {});
    expect(await db.select().from(auditLog).where(eq(auditLog.subjectId, "no-account@example.com"))).toEqual([]);
  });
});
