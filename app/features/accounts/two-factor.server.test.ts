import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { sessions, twoFactors, users } from "../../../db/schema";
import { testAccounts } from "./members.test-support";
import { sendMagicLink, signInWithPassword } from "./sign-in.server";
import { authenticatorCode } from "./totp.test-support";
import { confirmSetup, newRecoveryCodes, readCode, startSetup, turnOff, verifySignInCode } from "./two-factor.server";

const database = freshDatabasePerFile();

/** The request headers of a browser holding these Set-Cookie answers. */
function browserWith(answer: Headers, earlier = new Headers()) {
  const jar = new Map<string, string>();
  for (const pair of (earlier.get("cookie") ?? "").split("; ").filter(Boolean)) {
    const [name, ...value] = pair.split("=");
    jar.set(name!, value.join("="));
  }
  for (const cookie of answer.getSetCookie()) {
    const [pair, ...attributes] = cookie.split(";");
    const [name, ...value] = pair!.split("=");
    if (attributes.some((attribute) => /max-age=0/i.test(attribute))) jar.delete(name!);
    else jar.set(name!, value.join("="));
  }
  return new Headers({ cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") });
}

/** A member with two-factor sign-in set up the way the settings page does it. */
async function memberWithTwoFactor(email: string) {
  const accounts = testAccounts(database().db);
  const member = await accounts.createMember({ name: "Two Step", email });
  const call = { ...accounts.callFor(member.headers), ip: "10.1.0.1" };
  const setup = await startSetup(call, member.id, member.password);
  if (!setup.ok) throw new Error(setup.message);
  const confirmed = await confirmSetup(call, member.id, authenticatorCode(setup.totpURI));
  if (!confirmed.ok) throw new Error(confirmed.message);
  return { ...accounts, member, setup, headers: browserWith(confirmed.headers, member.headers) };
}

describe("reading a typed code", () => {
  it("tells an app's code from a recovery code, forgiving spaces and a missing dash", () => {
    expect(readCode(" 123 456 ")).toEqual({ kind: "app", code: "123456" });
    expect(readCode("abCde-12345")).toEqual({ kind: "recovery", code: "abCde-12345" });
    expect(readCode("abcde12345")).toEqual({ kind: "recovery", code: "abcde-12345" });
    expect(readCode("12345")).toBeNull();
    expect(readCode("<script>")).toBeNull();
  });
});

describe("two-factor sign-in", () => {
  it("is set up with the password and a first code, and then asked for after the password", async () => {
    const { auth, member, setup } = await memberWithTwoFactor("two-step@example.com");
    const { db } = database();
    expect(setup.recoveryCodes).toHaveLength(10);
    const [row] = await db.select().from(users).where(eq(users.id, member.id));
    expect(row?.twoFactorEnabled).toBe(true);
    // The secret and the codes are stored encrypted.
    const [stored] = await db.select().from(twoFactors).where(eq(twoFactors.userId, member.id));
    expect(stored?.secret).not.toContain(setup.secret);
    expect(stored?.backupCodes).not.toContain(setup.recoveryCodes[0]);

    const call = { auth, db, headers: new Headers(), ip: "10.1.0.2" };
    const password = await signInWithPassword(call, { email: member.email, password: member.password });
    expect(password).toMatchObject({ ok: true, needsCode: true });
    if (!password.ok) throw new Error("expected the password to be accepted");
    // No session yet: only the challenge for the code page.
    const challenge = browserWith(password.headers);
    expect(challenge.get("cookie")).toMatch(/pitlane\.two_factor=/);
    expect(challenge.get("cookie")).not.toMatch(/session_token/);

    const wrong = await verifySignInCode({ ...call, headers: challenge }, { code: "000000", trustDevice: false });
    expect(wrong).toEqual({ ok: false, reason: "invalid" });
    const right = await verifySignInCode(
      { ...call, headers: challenge },
      { code: authenticatorCode(setup.totpURI), trustDevice: false },
    );
    expect(right.ok).toBe(true);
    if (!right.ok) throw new Error("expected the code to be accepted");
    const session = await auth.api.getSession({ headers: browserWith(right.headers, challenge) });
    expect(session?.user.email).toBe(member.email);
  });

  it("takes each recovery code once", async () => {
    const { auth, member, setup } = await memberWithTwoFactor("recovery@example.com");
    const { db } = database();
    const call = { auth, db, headers: new Headers(), ip: "10.1.0.3" };
    const signIn = async (code: string) => {
      const password = await signInWithPassword(call, { email: member.email, password: member.password });
      if (!password.ok) throw new Error("expected the password to be accepted");
      return verifySignInCode({ ...call, headers: browserWith(password.headers) }, { code, trustDevice: false });
    };
    const code = setup.recoveryCodes[0]!;
    expect((await signIn(code.replace("-", " "))).ok).toBe(true);
    expect(await signIn(code)).toEqual({ ok: false, reason: "invalid" });
  });

  it("lets a trusted device skip the code next time", async () => {
    const { auth, member, setup } = await memberWithTwoFactor("trusted@example.com");
    const { db } = database();
    const call = { auth, db, headers: new Headers(), ip: "10.1.0.4" };
    const first = await signInWithPassword(call, { email: member.email, password: member.password });
    if (!first.ok) throw new Error("expected the password to be accepted");
    const challenge = browserWith(first.headers);
    const code = await verifySignInCode(
      { ...call, headers: challenge },
      { code: authenticatorCode(setup.totpURI), trustDevice: true },
    );
    if (!code.ok) throw new Error("expected the code to be accepted");
    const device = browserWith(code.headers, challenge);
    const again = await signInWithPassword(
      { ...call, headers: device },
      { email: member.email, password: member.password },
    );
    expect(again).toMatchObject({ ok: true, needsCode: false });
  });

  it("starts no session from a magic link: the code cannot be skipped", async () => {
    const { auth, outbox, member } = await memberWithTwoFactor("no-link@example.com");
    const { db } = database();
    await sendMagicLink(
      { auth, db, headers: new Headers(), ip: "10.1.0.5" },
      { email: member.email, redirectTo: "/members" },
    );
    const link = /(http:\/\/localhost:3000\/api\/auth\/magic-link\/verify\S+)/.exec(outbox.at(-1)!.text)?.[1];
    if (!link) throw new Error("no magic link sent");
    const before = await db.select().from(sessions).where(eq(sessions.userId, member.id));
    const response = await auth.handler(new Request(link));
    expect(response.headers.get("location")).toBe(
      "http://localhost:3000/login?link=expired&error=failed_to_create_session",
    );
    const after = await db.select().from(sessions).where(eq(sessions.userId, member.id));
    expect(after).toHaveLength(before.length);
  });

  it("needs the password for new recovery codes and for turning it off, and stays on for staff", async () => {
    const { callFor, member, headers } = await memberWithTwoFactor("turn-off@example.com");
    const { db } = database();
    const call = { ...callFor(headers), ip: "10.1.0.6" };
    expect(await newRecoveryCodes(call, member.id, "not my password")).toMatchObject({ ok: false, field: "password" });
    const codes = await newRecoveryCodes(call, member.id, member.password);
    expect(codes.ok && codes.recoveryCodes).toHaveLength(10);

    const staff = { id: member.id, role: "organizer" };
    expect(await turnOff(call, staff, { password: member.password, staffMustKeep: true })).toMatchObject({
      ok: false,
      message: "Organisers and admins need two-factor sign-in here, so it stays on.",
    });
    const asMember = { id: member.id, role: "member" };
    expect(await turnOff(call, asMember, { password: "wrong", staffMustKeep: true })).toMatchObject({ ok: false });
    expect((await turnOff(call, asMember, { password: member.password, staffMustKeep: true })).ok).toBe(true);
    const [row] = await db.select().from(users).where(eq(users.id, member.id));
    expect(row?.twoFactorEnabled).toBe(false);
  });

  it("refuses a wrong first code and stays off", async () => {
    const accounts = testAccounts(database().db);
    const member = await accounts.createMember({ name: "Wrong First", email: "wrong-first@example.com" });
    const call = { ...accounts.callFor(member.headers), ip: "10.1.0.7" };
    expect(await startSetup(call, member.id, "not my password")).toMatchObject({ ok: false, field: "password" });
    const setup = await startSetup(call, member.id, member.password);
    expect(setup.ok).toBe(true);
    expect(await confirmSetup(call, member.id, "000000")).toMatchObject({ ok: false, field: "code" });
    const [row] = await database().db.select().from(users).where(eq(users.id, member.id));
    expect(row?.twoFactorEnabled).toBe(false);
  });
});
