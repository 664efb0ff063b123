import { seedRuns } from "../../db/schema";
import type { Db } from "./db/client.server";
import { getLog } from "./log.server";
import type { Storage } from "./storage/storage.server";

/**
 * A seeder fills the database once. `demo` seeders make a new install look alive (events,
 * draws, cars…) and run only when demo content is on; the others hold content every site needs.
 * The composition root lists them in the order they depend on each other.
 */
export type Seeder = {
  name: string;
  demo: boolean;
  run(db: Db, services: SeedServices): Promise<void>;
};

/** What a seeder may use besides the database: demo covers and photos go to the site's storage. */
export type SeedServices = { storage: Storage };

export async function runSeeders(db: Db, seeders: Seeder[], options: { demo: boolean } & SeedServices) {
  const log = getLog();
  for (const seeder of seeders) {
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
