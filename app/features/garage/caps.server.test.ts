import { readdirSync } from "node:fs";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { appServerPools } from "~/server/db/server-pools.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { TEST_ROLES, type TestRole } from "~/server/session-user.test-support";
import { carPhotos, cars } from "../../../db/schema";
import { carPhotoMedia } from "./car-photo-media.server";
import { capMessages, createCar, type GarageCaps } from "./cars.server";
import { addTestCar, createMembers, testCar, testJpeg, testStorage } from "./garage.test-support";
import { addCarPhoto, type CarPhotoMedia } from "./photos.server";

// What one member may keep in their garage (docs/garage.md, "Caps"): every role is held to the
// same caps, each refusal says which cap and what to do, and nothing is stored past one.

const database = freshDatabasePerFile();
const A_ROLE = { member: "a member", organizer: "an organizer", admin: "an admin" } as const;

async function memberWithRole(role: TestRole) {
  const [account] = await createMembers(database().db, 1, { role });
  return account!.id;
}

/** A store that makes no picture: the caps are checked around the image work, not by it. */
const instantMedia: CarPhotoMedia = {
  ...carPhotoMedia,
  async store() {
    const hash = crypto.randomUUID().replaceAll("-", "");
    return {
      ok: true,
      photo: { hash, sourceKey: `private/cars/${hash}.webp`, width: 800, height: 600, color: "#000000", bytes: 1000 },
    };
  },
  async deleteFiles() {},
};

const countCars = async (ownerId: string) =>
  (await database().db.select({ id: cars.id }).from(cars).where(eq(cars.ownerId, ownerId))).length;

/** The photos on all of a member's cars, with what each one's files take. */
const photosOf = (ownerId: string) =>
  database()
    .db.select({ bytes: carPhotos.bytes })
    .from(carPhotos)
    .innerJoin(cars, eq(cars.id, carPhotos.carId))
    .where(eq(cars.ownerId, ownerId));

describe("the garage's caps", () => {
  for (const role of TEST_ROLES) {
    it(`hold ${A_ROLE[role]} to the cars cap with a message saying what to do`, async () => {
      const { db } = database();
      const ownerId = await memberWithRole(role);
      const caps: GarageCaps = { cars: 2, photosPerCar: 20, photos: 200 };
      for (const model of ["MX-5", "RX-7"]) {
        expect(await createCar(db, { ownerId, car: testCar({ model }), caps })).toMatchObject({ ok: true });
      }
      expect(await createCar(db, { ownerId, car: testCar({ model: "RX-8" }), caps })).toEqual({
        ok: false,
        message: "You can keep at most 2 cars in your garage. Delete one to add another.",
      });
      expect(await countCars(ownerId)).toBe(2);
    });

    it(`hold ${A_ROLE[role]} to the photos caps, per car and across their cars, storing nothing past them`, async () => {
      const { db } = database();
      const ownerId = await memberWithRole(role);
      const { storage, root } = testStorage();
      const call = { db, storage, media: carPhotoMedia };
      const caps: GarageCaps = { cars: 20, photosPerCar: 2, photos: 3 };
      const first = await addTestCar(db, ownerId);
      const second = await addTestCar(db, ownerId, { model: "RX-7" });
      const add = async (carId: string, color: string) =>
        addCarPhoto(call, { ownerId, carId, bytes: await testJpeg({ color }), caps });
      expect(await add(first, "#101010")).toMatchObject({ ok: true });
      expect(await add(first, "#202020")).toMatchObject({ ok: true });
      expect(await add(first, "#303030")).toEqual({
        ok: false,
        message: "A car can have at most 2 photos. Remove one to add another.",
      });
      expect(await add(second, "#404040")).toMatchObject({ ok: true });
      expect(await add(second, "#505050")).toEqual({
        ok: false,
        message: "You can keep at most 3 photos across your cars. Remove one to add another.",
      });
      const rows = await photosOf(ownerId);
      expect(rows).toHaveLength(3);
      // Each photo knows what its files take: the original and ten renditions.
      for (const row of rows) expect(row.bytes).toBeGreaterThan(1000);
      // Three photos stored, ten sizes and a private original each; the refused ones left nothing.
      const files = (dir: string) =>
        readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
      expect(files(root)).toHaveLength(3 * 10);
      expect(files(`${root}-private`)).toHaveLength(3);
    });
  }
});

/**
 * The caps under real contention: PGlite runs one transaction at a time, so this runs on
 * PostgreSQL only (DATABASE_URL set), with two connection pools standing for two app servers.
 */
describe.skipIf(!process.env.DATABASE_URL)("the caps under contention (PostgreSQL only: set DATABASE_URL)", () => {
  const servers = appServerPools(database, { count: 2, max: 10 });

  it("lets 12 cars sent at once on two servers take a member to the cap of 3, never past it", async () => {
    const ownerId = await memberWithRole("member");
    const caps: GarageCaps = { cars: 3, photosPerCar: 20, photos: 200 };
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        createCar(servers[index % 2]!, { ownerId, car: testCar({ model: `Car ${index}` }), caps }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(3);
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual(
      Array.from({ length: 9 }, () => ({ ok: false, message: capMessages.cars(3) })),
    );
    expect(await countCars(ownerId)).toBe(3);
  });

  it("lets 12 photos sent at once to two cars take a member to the photos cap of 5, never past it", async () => {
    const { db } = database();
    const ownerId = await memberWithRole("member");
    const { storage } = testStorage();
    const carIds = [await addTestCar(db, ownerId), await addTestCar(db, ownerId, { model: "RX-7" })];
    const caps: GarageCaps = { cars: 20, photosPerCar: 20, photos: 5 };
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        addCarPhoto(
          { db: servers[index % 2]!, storage, media: instantMedia },
          { ownerId, carId: carIds[index % 2]!, bytes: new Uint8Array([1]), caps },
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(5);
    expect(await photosOf(ownerId)).toHaveLength(5);
  });
});
