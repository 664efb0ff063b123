import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { Db } from "~/server/db/client.server";
import { localStorage } from "~/server/storage/storage.server";
import { users } from "../../../db/schema";
import { createCar, type GarageCaps } from "./cars.server";
import type { CarInput } from "./schemas";

/** The caps a site has when GARAGE_MAX_CARS, GARAGE_MAX_PHOTOS_PER_CAR and GARAGE_MAX_PHOTOS are unset. */
export const DEFAULT_CAPS: GarageCaps = { cars: 20, photosPerCar: 20, photos: 200 };

/** Onboarded members written directly, for the garage's tests. */
export async function createMembers(db: Db, count: number, overrides: Partial<typeof users.$inferInsert> = {}) {
  const rows = Array.from({ length: count }, (_, index) => {
    const id = randomUUID();
    return {
      id,
      name: `Driver ${index + 1}`,
      email: `driver-${id}@example.test`,
      emailVerified: true,
      handle: `driver-${id.slice(0, 8)}`,
      onboardedAt: new Date(),
      ...overrides,
    };
  });
  await db.insert(users).values(rows);
  return rows.map(({ id, email }) => ({ id, email }));
}

export function testCar(overrides: Partial<CarInput> = {}): CarInput {
  return {
    make: "Mazda",
    model: "MX-5",
    year: 1991,
    variant: "Eunos Roadster",
    colour: "Classic Red",
    engine: "1.6 B6ZE",
    powerBhp: 115,
    drivetrain: "rwd",
    gearbox: "manual",
    modifications: ["Coilovers", "Hardtop"],
    story: "Imported from Japan in 2004.",
    plate: "J123 ABC",
    platePublic: false,
    visibility: "public",
    ...overrides,
  };
}

/** A car added to the member's garage through the garage's own rule; answers its id. */
export async function addTestCar(db: Db, ownerId: string, overrides: Partial<CarInput> = {}) {
  const created = await createCar(db, { ownerId, car: testCar(overrides), caps: DEFAULT_CAPS });
  if (!created.ok) throw new Error(created.message);
  return created.id;
}

/** A real photo: a plain JPEG of the given colour, optionally with GPS in its EXIF. */
export async function testJpeg(
  options: { width?: number; height?: number; color?: string; gps?: boolean; noise?: boolean } = {},
) {
  const { width = 800, height = 600, color = "#c2410c" } = options;
  const noise = options.noise ? { noise: { type: "gaussian" as const, mean: 128, sigma: 40 } } : {};
  let image = sharp({ create: { width, height, channels: 3, background: color, ...noise } }).jpeg({ quality: 80 });
  if (options.gps) {
    image = image.withExif({
      IFD0: { Make: "TestCam", Model: "Pitlane 1" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 0/1" },
    });
  }
  return new Uint8Array(await image.toBuffer());
}

/** Local storage in a fresh temporary directory, with a way to list what it holds. */
export function testStorage() {
  const root = mkdtempSync(path.join(tmpdir(), "pitlane-garage-"));
  return { storage: localStorage(root), root };
}
