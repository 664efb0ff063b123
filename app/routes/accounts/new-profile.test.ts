import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testAccounts } from "~/features/accounts/members.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { TEST_ROLES, type TestRole, testSessionUser } from "~/server/session-user.test-support";
import { answerOf, routeArgs } from "~/web/route-calls.test-support";
import { playSettings, users } from "../../../db/schema";
import { action } from "./new-profile";

// Onboarding's offer of a spending limit for prize draws, for a visitor and each role.
const database = freshDatabasePerFile();
let made = 0;

async function signedIn(role: TestRole) {
  const accounts = testAccounts(database().db);
  made += 1;
  const member = await accounts.createMember({ name: `A ${role}`, email: `onboard-${role}-${made}@example.com` });
  await database().db.update(users).set({ role }).where(eq(users.id, member.id));
  return { accounts, user: testSessionUser({ id: member.id, email: member.email, role, onboarded: false }) };
}

async function post(
  who: { accounts: ReturnType<typeof testAccounts>; user: ReturnType<typeof testSessionUser> | null },
  body: Record<string, string>,
) {
  const { env, storage } = who.accounts;
  const args = routeArgs({ db: database().db, env, runtime: { storage }, who: who.user, path: "/newProfile", body });
  return (await answerOf(() => action(args))).status;
}

const profile = (handle: string) => ({ handle, name: "Sam Driver", terms: "on" });

describe("/newProfile: a spending limit for prize draws", () => {
  it("sends a visitor to sign in", async () => {
    expect(await post({ accounts: testAccounts(database().db), user: null }, profile("visitor"))).toBe(302);
  });

  it("records the offer for every role: a limit (£0 included), or none for now", async () => {
    for (const role of TEST_ROLES) {
      const who = await signedIn(role);
      const handle = `${role}${made}`;
      expect(await post(who, { ...profile(handle), drawLimit: "weekly" })).toBe(400);
      expect(await post(who, { ...profile(handle), drawLimit: "weekly", drawLimitAmount: "0" })).toBe(302);
      const [row] = await database().db.select().from(playSettings).where(eq(playSettings.userId, who.user!.id));
      expect(row).toMatchObject({ weeklyLimit: 0, monthlyLimit: null, limitsOfferedAt: expect.any(Date) });

      const none = await signedIn(role);
      expect(await post(none, { ...profile(`${role}${made}b`) })).toBe(302);
      const [left] = await database().db.select().from(playSettings).where(eq(playSettings.userId, none.user!.id));
      expect(left).toMatchObject({ weeklyLimit: null, monthlyLimit: null, limitsOfferedAt: expect.any(Date) });
    }
  });
});
