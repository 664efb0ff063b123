import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carPhotoMedia } from "~/features/garage/car-photo-media.server";
import { setCarVisibility } from "~/features/garage/cars.server";
import { addTestCar, createMembers, DEFAULT_CAPS, testJpeg, testStorage } from "~/features/garage/garage.test-support";
import { addCarPhoto, blurCarPhoto, removeCarPhoto } from "~/features/garage/photos.server";
import { CAR_PHOTO_WIDTHS, carPhotoKey } from "~/features/media/car-photo-urls";
import { deleteCarPhotoFiles } from "~/features/media/car-photos.server";
import { decideOnCar } from "~/features/moderation/decisions.server";
import { pagesShowing } from "~/page-cache-purges.server";
import { requestContext, runtimeContext, type SessionUser, userContext } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { underPath } from "~/server/page-cache.server";
import type { Runtime } from "~/server/runtime.server";
import { startS3Server } from "~/server/storage/s3rver.test-support";
import type { Storage } from "~/server/storage/storage.server";
import { carPhotos } from "../../../db/schema";
import * as mediaRoute from "./media";

// What moderation and the owner take away is gone from /media/*: after a hide, a blur, a car
// made private, a removal by the owner or by a moderator, every old address of the photo is a 404
// for those who may no longer see it, and the pages that showed it are purged from the page cache.

const database = freshDatabasePerFile();
type Who = { id: string; role: SessionUser["role"] } | null;

let storage: Storage;
let owner: { id: string; role: "member" };
let member: { id: string; role: "member" };
let moderator: { id: string; role: "organizer" };
const brand = { siteName: "Pitlane", siteUrl: "https://club.example" };

beforeAll(async () => {
  const { db } = database();
  const [first, second] = await createMembers(db, 2);
  const [staff] = await createMembers(db, 1, { role: "organizer" });
  owner = { id: first!.id, role: "member" };
  member = { id: second!.id, role: "member" };
  moderator = { id: staff!.id, role: "organizer" };
  storage = testStorage().storage;
});

function get(key: string, who: Who, headers: Record<string, string> = {}) {
  const context = new RouterContextProvider();
  context.set(runtimeContext, { storage, db: database().db } as unknown as Runtime);
  context.set(requestContext, { ip: "192.0.2.41", nonce: "n", requestId: "r" });
  context.set(userContext, who as unknown as SessionUser | null);
  const url = new URL(`http://localhost/media/${key}`);
  const request = new Request(url, { headers });
  return mediaRoute.loader({ request, url, params: { "*": key }, context } as never) as Promise<Response>;
}

/** Every address a car photo has: each rendition, and its original. */
const addressesOf = (photo: { hash: string; sourceKey: string }) => [
  ...CAR_PHOTO_WIDTHS.flatMap((width) => [
    carPhotoKey(photo.hash, width, "avif"),
    carPhotoKey(photo.hash, width, "webp"),
  ]),
  photo.sourceKey,
];

async function statuses(keys: string[], who: Who) {
  return Promise.all(keys.map(async (key) => [key, (await get(key, who)).status] as const));
}

/** Asserts every address answers `status` to `who`. */
async function expectAll(keys: string[], who: Who, status: number) {
  const renditions = keys.filter((key) => key.startsWith("cars/"));
  expect(await statuses(renditions, who)).toEqual(renditions.map((key) => [key, status]));
  // The original never has a public address, whoever asks.
  expect((await get(keys.find((key) => key.startsWith("private/"))!, who)).status).toBe(404);
}

/** A public car with one real photo; noisy, so a blur changes its pixels. */
async function publicCarWithPhoto(bytes?: Uint8Array) {
  const { db } = database();
  const carId = await addTestCar(db, owner.id, { visibility: "public" });
  const call = { db, storage, media: carPhotoMedia };
  const added = await addCarPhoto(call, {
    ownerId: owner.id,
    carId,
    bytes: bytes ?? (await testJpeg({ noise: true })),
    caps: DEFAULT_CAPS,
  });
  if (!added.ok) throw new Error("not added");
  const [photo] = await db.select().from(carPhotos).where(eq(carPhotos.id, added.photoId));
  const keys = addressesOf(photo!);
  await expectAll(keys, null, 200);
  return { call, carId, photoId: added.photoId, photo: photo!, keys };
}

const decide = (carId: string, decision: "hide" | "remove", photoId?: string) =>
  decideOnCar(
    database().db,
    { actorId: moderator.id, carId, photoId, decision, note: "Breaks the rules" },
    { brand, deletePhotoFiles: (files) => deleteCarPhotoFiles(storage, files, files.keep) },
  );

describe("old media addresses after moderation and the owner's changes", { timeout: 120_000 }, () => {
  it("a photo hidden by a moderator answers 404 at every address to visitors and members", async () => {
    const { carId, photoId, keys } = await publicCarWithPhoto();
    expect(await decide(carId, "hide", photoId)).toMatchObject({ ok: true });
    await expectAll(keys, null, 404);
    await expectAll(keys, member, 404);
    // Its owner and staff still see it: the owner's garage shows it with the moderator's note.
    expect((await get(keys[0]!, owner)).status).toBe(200);
    expect((await get(keys[0]!, moderator)).status).toBe(200);
  });

  it("every photo of a car hidden by a moderator answers 404 to visitors and members", async () => {
    const { carId, keys } = await publicCarWithPhoto();
    expect(await decide(carId, "hide")).toMatchObject({ ok: true });
    await expectAll(keys, null, 404);
    await expectAll(keys, member, 404);
  });

  it("a new blur leaves no old address answering, for anyone", async () => {
    const { call, carId, photoId, keys } = await publicCarWithPhoto();
    const regions = [{ x: 0.3, y: 0.7, w: 0.3, h: 0.1 }];
    expect(await blurCarPhoto(call, { ownerId: owner.id, carId, photoId, regions })).toEqual({ ok: true });
    for (const who of [null, member, owner, moderator]) await expectAll(keys, who, 404);
    const [after] = await database().db.select().from(carPhotos).where(eq(carPhotos.id, photoId));
    expect((await get(carPhotoKey(after!.hash, 640, "webp"), null)).status).toBe(200);
  });

  it("a car made private answers 404 at every address to visitors and members, not to its owner", async () => {
    const { carId, keys } = await publicCarWithPhoto();
    expect(await setCarVisibility(database().db, { ownerId: owner.id, carId, visibility: "private" })).toEqual({
      ok: true,
    });
    await expectAll(keys, null, 404);
    await expectAll(keys, member, 404);
    const own = await get(keys[0]!, owner);
    expect(own.status).toBe(200);
    expect(own.headers.get("Cache-Control")).toBe("private, no-cache");
  });

  it("a members-only car's photos answer 404 to visitors and are never kept by a shared cache", async () => {
    const { carId, keys } = await publicCarWithPhoto();
    await setCarVisibility(database().db, { ownerId: owner.id, carId, visibility: "members" });
    await expectAll(keys, null, 404);
    const seen = await get(keys[0]!, member);
    expect(seen.status).toBe(200);
    expect(seen.headers.get("Cache-Control")).toBe("private, no-cache");
  });

  it("a photo its owner removed answers 404 at every address", async () => {
    const { call, carId, photoId, keys } = await publicCarWithPhoto();
    expect(await removeCarPhoto(call, { ownerId: owner.id, carId, photoId })).toEqual({ ok: true });
    for (const who of [null, member, owner, moderator]) await expectAll(keys, who, 404);
  });

  it("a photo, or a whole car, a moderator removed answers 404 at every address", async () => {
    const one = await publicCarWithPhoto();
    expect(await decide(one.carId, "remove", one.photoId)).toMatchObject({ ok: true });
    for (const who of [null, member, owner, moderator]) await expectAll(one.keys, who, 404);
    const whole = await publicCarWithPhoto();
    expect(await decide(whole.carId, "remove")).toMatchObject({ ok: true });
    for (const who of [null, member, owner, moderator]) await expectAll(whole.keys, who, 404);
  });
});

describe("with the media in a bucket", { timeout: 120_000 }, () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let diskStorage: Storage;
  beforeAll(async () => {
    s3 = await startS3Server();
    diskStorage = storage;
    storage = s3.storage;
  });
  afterAll(async () => {
    storage = diskStorage;
    await s3.stop();
  });

  it("a car photo has no bucket address: the site serves it, and after a hide nothing shows it", async () => {
    const { carId, photoId, keys } = await publicCarWithPhoto();
    const rendition = keys[0]!;
    expect(storage.url(rendition)).toBe(`/media/${rendition}`);
    expect((await fetch(`${storage.publicBase}${rendition}`)).status).toBe(404);
    const served = await get(rendition, null);
    expect(served.headers.get("cache-control")).toBe("public, max-age=300, must-revalidate");
    expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect(await decide(carId, "hide", photoId)).toMatchObject({ ok: true });
    await expectAll(keys, null, 404);
    expect((await fetch(`${storage.publicBase}${rendition}`)).status).toBe(404);
    expect((await get(rendition, owner)).status).toBe(200);
  });
});

describe("files two identical uploads share", { timeout: 120_000 }, () => {
  it("a moderator removing one of two identical uploads keeps the original the other still blurs from", async () => {
    const bytes = await testJpeg({ noise: true });
    const first = await publicCarWithPhoto(bytes);
    const second = await publicCarWithPhoto(bytes);
    expect(second.photo.sourceKey).toBe(first.photo.sourceKey);
    // The second is blurred: new renditions, the same original.
    const regions = [{ x: 0.1, y: 0.1, w: 0.2, h: 0.2 }];
    expect(
      await blurCarPhoto(second.call, { ownerId: owner.id, carId: second.carId, photoId: second.photoId, regions }),
    ).toEqual({ ok: true });
    expect(await decide(second.carId, "remove", second.photoId)).toMatchObject({ ok: true });
    expect(await storage.exists(first.photo.sourceKey)).toBe(true);
    await expectAll(first.keys, null, 200);
    // The first can still be blurred from its original.
    expect(
      await blurCarPhoto(first.call, { ownerId: owner.id, carId: first.carId, photoId: first.photoId, regions }),
    ).toEqual({ ok: true });
  });

  it("the owner removing one of two identical uploads leaves the other's every address answering", async () => {
    const bytes = await testJpeg({ noise: true });
    const first = await publicCarWithPhoto(bytes);
    const second = await publicCarWithPhoto(bytes);
    expect(second.photo.hash).toBe(first.photo.hash);
    await removeCarPhoto(second.call, { ownerId: owner.id, carId: second.carId, photoId: second.photoId });
    await expectAll(first.keys, null, 200);
    expect(await storage.exists(first.photo.sourceKey)).toBe(true);
  });
});

describe("car photos' cache headers", { timeout: 120_000 }, () => {
  it("are kept five minutes and revalidated, never a year, and answer 304 while unchanged", async () => {
    const { carId, photoId, keys } = await publicCarWithPhoto();
    const response = await get(keys[2]!, null);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=300, must-revalidate");
    const etag = response.headers.get("ETag");
    expect(etag).toMatch(/^".+"$/);
    const again = await get(keys[2]!, null, { "If-None-Match": etag! });
    expect(again.status).toBe(304);
    // Once hidden, the revalidation is a 404 as well.
    await decide(carId, "hide", photoId);
    expect((await get(keys[2]!, null, { "If-None-Match": etag! })).status).toBe(404);
  });
});

describe("the page cache", { timeout: 120_000 }, () => {
  /** The tables each change announces on page_changes. */
  async function announced(run: () => Promise<unknown>) {
    const received: (string | null)[] = [];
    const stop = await database().listen("page_changes", (payload) => void received.push(payload));
    try {
      await run();
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await stop();
    }
    return received;
  }

  /** Whether the changes announced purge `page`. */
  const purges = (tables: (string | null)[], page: string) =>
    tables.some((table) => pagesShowing(table).some((path) => path === "*" || underPath(page, path)));

  it("drops the car's page, the community and the home page after each change", async () => {
    const changes: [string, (car: Awaited<ReturnType<typeof publicCarWithPhoto>>) => Promise<unknown>][] = [
      ["hide", (car) => decide(car.carId, "hide", car.photoId)],
      [
        "blur",
        (car) =>
          blurCarPhoto(car.call, {
            ownerId: owner.id,
            carId: car.carId,
            photoId: car.photoId,
            regions: [{ x: 0.5, y: 0.5, w: 0.2, h: 0.2 }],
          }),
      ],
      [
        "private",
        (car) => setCarVisibility(database().db, { ownerId: owner.id, carId: car.carId, visibility: "private" }),
      ],
      ["remove", (car) => removeCarPhoto(car.call, { ownerId: owner.id, carId: car.carId, photoId: car.photoId })],
      ["moderator remove", (car) => decide(car.carId, "remove", car.photoId)],
    ];
    for (const [name, change] of changes) {
      const car = await publicCarWithPhoto();
      const tables = await announced(() => change(car));
      for (const page of [`/community/cars/${car.carId}`, "/community", "/"]) {
        expect(purges(tables, page), `${name} purges ${page}`).toBe(true);
      }
    }
  });
});
