import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accountMessages } from "~/features/accounts/auth-messages.server";
import { isCommonPassword } from "~/features/accounts/passwords.server";
import { PASSWORD_MAX, PASSWORD_MIN } from "~/features/accounts/schemas";
import { createAuth } from "~/server/auth/auth.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { parseEnv } from "~/server/env.server";
import { runSeeders } from "~/server/seed.server";
import { localStorage } from "~/server/storage/storage.server";
import { users } from "../../db/schema";
import { DEMO_ACCOUNTS, demoAccountsSeeder, demoSignIns } from "./demo-accounts.server";

const database = freshDatabasePerFile();
const storage = localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-seed-media-")));

describe("demo accounts", () => {
  it("have passwords that are not on the common list", () => {
    for (const account of DEMO_ACCOUNTS) expect(isCommonPassword(account.password), account.password).toBe(false);
  });

  it("are not listed for the banner before they are seeded", async () => {
    expect(await demoSignIns(database().db)).toEqual([]);
  });

  it("are seeded verified and onboarded, one per role", async () => {
    await runSeeders(database().db, [demoAccountsSeeder], { demo: true, storage });

    const rows = await database()
      .db.select({
        email: users.email,
        role: users.role,
        emailVerified: users.emailVerified,
        handle: users.handle,
        town: users.town,
        onboardedAt: users.onboardedAt,
      })
      .from(users)
      .orderBy(users.email);
    expect(rows.map(({ email, role, emailVerified }) => ({ email, role, emailVerified }))).toEqual([
      { email: "admin@pitlane.test", role: "admin", emailVerified: true },
      { email: "member@pitlane.test", role: "member", emailVerified: true },
      { email: "organizer@pitlane.test", role: "organizer", emailVerified: true },
    ]);
    for (const row of rows) {
      expect(row.handle).toBeTruthy();
      expect(row.town).toBeTruthy();
      expect(row.onboardedAt).toBeInstanceOf(Date);
    }
    expect((await demoSignIns(database().db)).map((account) => account.email)).toEqual([
      "admin@pitlane.test",
      "organizer@pitlane.test",
      "member@pitlane.test",
    ]);
  });

  it("sign in through Better Auth with the printed passwords", async () => {
    const env = parseEnv({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "pitlane-demo-")),
      AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789",
      SITE_URL: "http://localhost:3000",
    });
    const nowhere = { sendEmail: async () => {}, sendSms: async () => {} };
    const auth = createAuth({
      db: database().db,
      env,
      messages: accountMessages({ siteName: env.SITE_NAME, siteUrl: env.SITE_URL }, nowhere),
      passwordLength: { min: PASSWORD_MIN, max: PASSWORD_MAX },
    });

    for (const account of DEMO_ACCOUNTS) {
      const result = await auth.api.signInEmail({ body: { email: account.email, password: account.password } });
      expect(result.user.email).toBe(account.email);
    }
    await expect(
      auth.api.signInEmail({ body: { email: "admin@pitlane.test", password: "pitlane-member-demo" } }),
    ).rejects.toThrow();
  });

  it("run once per database", async () => {
    await runSeeders(database().db, [demoAccountsSeeder], { demo: true, storage });
    const admins = await database()
      .db.select({ id: users.id })
      .from(users)
      .where(eq(users.email, "admin@pitlane.test"));
    expect(admins).toHaveLength(1);
  });
});
