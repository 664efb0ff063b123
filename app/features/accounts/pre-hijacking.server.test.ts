import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { accounts, sessions, users } from "../../../db/schema";
import { testAccounts } from "./members.test-support";
import { sendMagicLink, signInWithPassword, signUpWithPassword } from "./sign-in.server";

// Someone signs up with another person's address and a password they know, then waits for the
// owner to confirm the address. Confirming it must not hand them the account.
const database = freshDatabasePerFile();
const ATTACKER_PASSWORD = "attacker knows this 77";

function linkIn(text: string, path: string) {
  const link = new RegExp(`(http://localhost:3000/api/auth/${path}\\S+)`).exec(text)?.[1];
  if (!link) throw new Error(`no ${path} link in: ${text}`);
  return link;
}

function cookiesOf(answer: Headers) {
  return answer
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

async function signedUpBy(email: string) {
  const setup = testAccounts(database().db);
  const call = { auth: setup.auth, db: database().db, headers: new Headers(), ip: "198.51.100.66" };
  const signUp = await signUpWithPassword(call, {
    name: "Not The Owner",
    email,
    password: ATTACKER_PASSWORD,
    redirectTo: "",
  });
  if (!signUp.ok) throw new Error(signUp.message);
  const confirmation = linkIn(setup.outbox.at(-1)!.text, "verify-email");
  return { ...setup, call, signUp, confirmation };
}

async function passwordWorks(setup: Awaited<ReturnType<typeof signedUpBy>>, email: string) {
  const outcome = await signInWithPassword(
    { ...setup.call, ip: "198.51.100.67" },
    { email, password: ATTACKER_PASSWORD },
  );
  return outcome.ok;
}

describe("pre-hijacking", () => {
  it("a sign-in link claims the account for its owner: the other password stops working", async () => {
    const email = "owner-link@example.com";
    const setup = await signedUpBy(email);
    const { db } = database();
    await sendMagicLink(
      { auth: setup.auth, db, headers: new Headers(), ip: "203.0.113.50" },
      { email, redirectTo: "/members" },
    );
    const response = await setup.auth.handler(new Request(linkIn(setup.outbox.at(-1)!.text, "magic-link/verify")));
    expect(response.headers.getSetCookie().join("\n")).toMatch(/pitlane\.session_token=[^;]+;/);

    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(user?.emailVerified).toBe(true);
    expect(await db.select().from(accounts).where(eq(accounts.userId, user!.id))).toEqual([]);
    expect(await passwordWorks(setup, email)).toBe(false);
    // Only the owner's new session is left.
    expect(await db.select().from(sessions).where(eq(sessions.userId, user!.id))).toHaveLength(1);
  });

  it("the confirmation link opened away from the sign-up's browser removes the password", async () => {
    const email = "owner-confirms@example.com";
    const setup = await signedUpBy(email);
    // The owner opens the link in their own browser, which never signed up.
    await setup.auth.handler(new Request(setup.confirmation));
    const [user] = await database().db.select().from(users).where(eq(users.email, email));
    expect(user?.emailVerified).toBe(true);
    expect(await passwordWorks(setup, email)).toBe(false);
  });

  it("the confirmation link opened in the browser that signed up keeps the password", async () => {
    const email = "signed-up-here@example.com";
    const setup = await signedUpBy(email);
    if (!setup.signUp.ok) throw new Error("expected a sign-up");
    const sameBrowser = new Headers({ cookie: cookiesOf(setup.signUp.headers) });
    await setup.auth.handler(new Request(setup.confirmation, { headers: sameBrowser }));
    expect(await passwordWorks(setup, email)).toBe(true);
  });
});
