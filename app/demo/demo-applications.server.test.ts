import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { runSeeders } from "~/server/seed.server";
import { localStorage } from "~/server/storage/storage.server";
import { cars, events, exhibitorPasses, showCarApplications, users } from "../../db/schema";
import { demoAccountsSeeder } from "./demo-accounts.server";
import { DEMO_APPLICATIONS_EVENT, demoApplicationsSeeder } from "./demo-applications.server";
import { demoEventsSeeder } from "./demo-events.server";

const database = freshDatabasePerFile();
const storage = localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-demo-applications-")));

beforeAll(async () => {
  const { db } = database();
  await runSeeders(db, [demoAccountsSeeder, demoEventsSeeder], { demo: true, storage });
  // Cars stand in for the demo garage: the demo member's and six owners' (photos are not needed here).
  const [member] = await db.select({ id: users.id }).from(users).where(eq(users.email, "member@pitlane.test"));
  const owners = await db
    .insert(users)
    .values(
      Array.from({ length: 6 }, (_, index) => ({
        id: `demo-owner-${index}`,
        name: `Owner ${index}`,
        email: `owner-${index}@owners.pitlane.test`,
        emailVerified: true,
      })),
    )
    .returning({ id: users.id });
  await db.insert(cars).values(
    [member!, ...owners].map((owner, index) => ({
      ownerId: owner.id,
      make: "Nissan",
      model: `Skyline R3${index}`,
      year: 1990 + index,
      visibility: "public" as const,
    })),
  );
  await runSeeders(db, [demoApplicationsSeeder], { demo: true, storage });
});

it("puts applications in every state on the demo event, the demo member's approved with the fee to pay", async () => {
  const { db } = database();
  const [event] = await db
    .select({ id: events.id, open: events.applicationsOpen, deadline: events.applicationsDeadline })
    .from(events)
    .where(eq(events.slug, DEMO_APPLICATIONS_EVENT));
  expect(event!.open).toBe(true);
  expect(event!.deadline!.getTime()).toBeGreaterThan(Date.now());
  const rows = await db.select().from(showCarApplications).where(eq(showCarApplications.eventId, event!.id));
  expect(new Set(rows.map((row) => row.status))).toEqual(
    new Set(["submitted", "approved", "waitlisted", "rejected", "withdrawn", "paid"]),
  );
  const [member] = await db.select({ id: users.id }).from(users).where(eq(users.email, "member@pitlane.test"));
  expect(rows.find((row) => row.userId === member!.id)).toMatchObject({ status: "approved", fee: 1500 });
  const passes = await db.select().from(exhibitorPasses).where(eq(exhibitorPasses.eventId, event!.id));
  expect(passes).toHaveLength(1);
});
