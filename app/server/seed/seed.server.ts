import { sql } from "drizzle-orm";
import { demoEventsSeeder } from "~/features/events/demo-events.server";
import { seedRuns } from "../../../db/schema";
import type { Db } from "../db/client.server";
import { getLog } from "../log.server";
import type { Storage } from "../storage/storage.server";
import { demoAccountsSeeder } from "./demo-accounts.server";
import { legalPagesSeeder } from "./legal-pages.server";

/**
 * A seeder fills the database once. `demo` seeders make a new install look alive (events,
 * draws, cars…) and run only when demo content is on; the others hold content every site needs.
 * Areas append theirs to `seeders`, in the order they depend on each other.
 */
export type Seeder = {
  name: string;
  demo: boolean;
  run(db: Db, services: SeedServices): Promise<void>;
};

/** What a seeder may use besides the database: demo covers and photos go to the site's storage. */
export type SeedServices = { storage: Storage };

export const seeders: Seeder[] = [legalPagesSeeder, demoAccountsSeeder, demoEventsSeeder];

export async function seedDemoContent(db: Db, options: { demo: boolean } & SeedServices, list: Seeder[] = seeders) {
  const log = getLog();
  for (const seeder of list) {
    if (seeder.demo && !options.demo) continue;
    // The insert claims the seeder inside the same transaction that runs it, so two
    // instances starting together never run it twice.
    await db.transaction(async (tx) => {
      const claimed = await tx
        .insert(seedRuns)
        .values({ name: seeder.name })
        .onConflictDoNothing()
        .returning({ name: seedRuns.name });
      if (claimed.length === 0) return;
      await seeder.run(tx as unknown as Db, { storage: options.storage });
      log.info({ seeder: seeder.name }, "seeded");
    });
  }
}

export async function appliedSeeders(db: Db) {
  const rows = await db.select({ name: seedRuns.name }).from(seedRuns).orderBy(sql`applied_at`);
  return rows.map((row) => row.name);
}
