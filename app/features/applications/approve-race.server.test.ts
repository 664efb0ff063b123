import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBuyers } from "~/features/checkout/stock.test-support";
import { appServerPools } from "~/server/db/server-pools.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { exhibitorPasses, showCarApplications } from "../../../db/schema";
import { APPLY_NOW, createApplicationEvent, createMembersWithCars } from "./applications.test-support";
import { applyWithCar } from "./apply.server";
import { decideApplication } from "./decide.server";

/**
 * Spots under real contention: PGlite runs one transaction at a time, so this runs on
 * PostgreSQL only (DATABASE_URL set), with two connection pools standing for two app servers.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  "approvals under contention (PostgreSQL only: set DATABASE_URL)",
  { timeout: 180_000 },
  () => {
    const database = freshDatabasePerFile();
    const servers = appServerPools(database, { count: 2, max: 15 });

    for (const fee of [2500, 0]) {
      it(`60 approvals at once by 6 staff on two servers for 12 spots (fee ${fee}): exactly 12 approved`, async () => {
        const { db } = database();
        const event = await createApplicationEvent(db, { spots: 12, fee });
        const members = await createMembersWithCars(db, 60);
        const ids = await Promise.all(
          members.map(async (member) => {
            const result = await applyWithCar(db, {
              userId: member.id,
              eventId: event.eventId,
              carId: member.carId,
              note: "",
              now: APPLY_NOW,
            });
            if (!result.ok) throw new Error(result.message);
            return result.applicationId;
          }),
        );
        const staff = await createBuyers(db, 6);
        const outcomes = await Promise.all(
          ids.map((applicationId, index) =>
            decideApplication(servers[index % 2]!, {
              applicationId,
              eventId: event.eventId,
              decision: "approve",
              note: "",
              staffId: staff[index % 6]!.id,
              now: APPLY_NOW,
            }),
          ),
        );
        expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(12);
        const taken = await db
          .select({ id: showCarApplications.id })
          .from(showCarApplications)
          .where(
            and(
              eq(showCarApplications.eventId, event.eventId),
              inArray(showCarApplications.status, ["approved", "paid"]),
            ),
          );
        expect(taken).toHaveLength(12);
        const passes = await db.select().from(exhibitorPasses).where(eq(exhibitorPasses.eventId, event.eventId));
        expect(passes).toHaveLength(fee === 0 ? 12 : 0);
      });
    }
  },
);
