import { inArray } from "drizzle-orm";
import { hashPassword, insertAccount } from "~/features/accounts/staff.server";
import type { Role } from "~/server/auth/session.server";
import type { Db } from "~/server/db/client.server";
import { isLocalSite } from "~/server/env.server";
import { getLog } from "~/server/log.server";
import type { Seeder } from "~/server/seed.server";
import { users } from "../../db/schema";

/**
 * One account per role so a newcomer can try every side of the site. The passwords are public
 * (`npm start` prints them), which is why these accounts exist only with demo content.
 */
export const DEMO_ACCOUNTS = [
  {
    role: "admin",
    email: "admin@pitlane.test",
    password: "pitlane-admin-demo",
    name: "Sam Hartley",
    handle: "sam.hartley",
    town: "Silverstone",
  },
  {
    role: "organizer",
    email: "organizer@pitlane.test",
    password: "pitlane-organizer-demo",
    name: "Priya Nair",
    handle: "priya.nair",
    town: "Brands Hatch",
  },
  {
    role: "member",
    email: "member@pitlane.test",
    password: "pitlane-member-demo",
    name: "Jamie Cole",
    handle: "jamie_cole",
    town: "Goodwood",
  },
] as const satisfies readonly {
  role: Role;
  email: string;
  password: string;
  name: string;
  handle: string;
  town: string;
}[];

export const demoAccountsSeeder: Seeder = {
  name: "demo-accounts",
  demo: true,
  async run(db) {
    for (const account of DEMO_ACCOUNTS) {
      await insertAccount(db, {
        email: account.email,
        name: account.name,
        role: account.role,
        passwordHash: await hashPassword(account.password),
        profile: { handle: account.handle, town: account.town },
      });
    }
  },
};

/** The demo sign-ins that exist in this database, for the start-up banner. */
export async function demoSignIns(db: Db) {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(
      inArray(
        users.email,
        DEMO_ACCOUNTS.map((account) => account.email),
      ),
    );
  const present = new Set(rows.map((row) => row.email));
  return DEMO_ACCOUNTS.filter((account) => present.has(account.email)).map(({ role, email, password }) => ({
    role,
    email,
    password,
  }));
}

/**
 * Whether this start seeds demo content. Demo accounts have public passwords, so they belong to a
 * demo on this machine: a new embedded database on a local address gets them; a site others can
 * reach gets them only when `SEED_DEMO=1` asks (and the log warns), and refuses to start while
 * demo accounts are left in its database without that.
 */
export async function demoContentWanted(
  db: Db,
  site: { siteUrl: string; asked: boolean | undefined; embedded: boolean },
): Promise<boolean> {
  const localSite = isLocalSite(site.siteUrl);
  if (localSite) return site.asked ?? site.embedded;
  if (!site.asked) {
    if ((await demoSignIns(db)).length > 0) throw new Error(demoAccountsLeftMessage(site.siteUrl));
    return false;
  }
  getLog().warn(
    { siteUrl: site.siteUrl },
    "SEED_DEMO=1 on a site that is not local: the demo accounts' passwords are public, anyone can sign in as admin",
  );
  return true;
}

function demoAccountsLeftMessage(siteUrl: string) {
  const emails = DEMO_ACCOUNTS.map((account) => `'${account.email}'`).join(", ");
  return [
    `The database holds the demo accounts, whose passwords are public, and ${siteUrl} is not a local address.`,
    `Remove them (DELETE FROM users WHERE email IN (${emails});), or start from a new database`,
    "(an empty PostgreSQL database, or a new DATA_DIR) without SEED_DEMO.",
    "To serve them on purpose (a public demo), set SEED_DEMO=1.",
  ].join("\n");
}
