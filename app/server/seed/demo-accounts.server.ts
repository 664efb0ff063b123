import { inArray } from "drizzle-orm";
import { hashPassword, insertAccount } from "~/features/accounts/staff.server";
import type { Role } from "~/server/auth/session.server";
import { users } from "../../../db/schema";
import type { Db } from "../db/client.server";
import type { Seeder } from "./seed.server";

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
