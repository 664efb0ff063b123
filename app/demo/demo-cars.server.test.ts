import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { runSeeders } from "~/server/seed.server";
import { localStorage } from "~/server/storage/storage.server";
import { accounts, carLikes, carPhotos, cars, users } from "../../db/schema";
import { demoAccountsSeeder } from "./demo-accounts.server";
import { DEMO_CARS, DEMO_OWNERS, demoCarId, demoCarsSeeder } from "./demo-cars.server";

const database = freshDatabasePerFile();
const storage = localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-demo-cars-")));
beforeAll(async () => {
  await runSeeders(database().db, [demoAccountsSeeder, demoCarsSeeder], { demo: true, storage });
});

describe("the demo garages", () => {
  it("hold a dozen cars across makes and eras, each with a stored photo", async () => {
    const rows = await database().db.select().from(cars);
    expect(rows).toHaveLength(DEMO_CARS.length);
    expect(rows.length).toBeGreaterThanOrEqual(12);
    expect(new Set(rows.map((row) => row.make)).size).toBeGreaterThanOrEqual(10);
    const decades = new Set(rows.map((row) => Math.floor(row.year / 10)));
    expect(decades.size).toBeGreaterThanOrEqual(5);
    expect(rows.filter((row) => row.visibility === "members")).toHaveLength(1);
    expect(rows.filter((row) => row.visibility === "private")).toHaveLength(1);
    const photos = await database().db.select().from(carPhotos);
    expect(new Set(photos.map((photo) => photo.carId)).size).toBe(rows.length);
    for (const photo of photos.slice(0, 3)) {
      expect(await storage.get(`cars/${photo.hash}-640.webp`)).not.toBeNull();
      expect(photo.alt).toMatch(/^Illustration of a /);
    }
  });

  it("keep the same ids on every install, three of them featured on the home page", async () => {
    // bench/pages.mjs measures the E-Type's page by this id.
    expect(demoCarId({ year: 1963, make: "Jaguar", model: "E-Type" })).toBe("94b25da9-6704-5b1e-baa5-e3cabeffa6ca");
    const rows = await database().db.select({ id: cars.id, featuredAt: cars.featuredAt }).from(cars);
    expect(rows.map((row) => row.id).sort()).toEqual(DEMO_CARS.map(demoCarId).sort());
    expect(rows.filter((row) => row.featuredAt !== null)).toHaveLength(3);
  });

  it("have likes between members, counted on each car", async () => {
    const likes = await database().db.select().from(carLikes);
    expect(likes.length).toBeGreaterThan(5);
    const rows = await database().db.select({ id: cars.id, likeCount: cars.likeCount }).from(cars);
    for (const row of rows) {
      expect(row.likeCount).toBe(likes.filter((like) => like.carId === row.id).length);
    }
  });

  it("belong to owners who cannot sign in", async () => {
    for (const owner of DEMO_OWNERS) {
      const [user] = await database().db.select({ id: users.id }).from(users).where(eq(users.handle, owner.handle));
      expect(user).toBeDefined();
      expect(await database().db.select().from(accounts).where(eq(accounts.userId, user!.id))).toEqual([]);
    }
  });
});
