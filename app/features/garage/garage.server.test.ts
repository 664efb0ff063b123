import { readdirSync } from "node:fs";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deleteMemberAccount, exportMemberData } from "~/features/privacy/privacy.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { auditLog, carLikes, carPhotos, carReports, cars, events, showCarApplications } from "../../../db/schema";
import { carPhotoMedia } from "./car-photo-media.server";
import { getMyCar, listMyCars, setCarVisibility, updateCar } from "./cars.server";
import { addTestCar, createMembers, DEFAULT_CAPS, testCar, testJpeg, testStorage } from "./garage.test-support";
import {
  addCarPhoto,
  blurCarPhoto,
  deleteCar,
  describeCarPhoto,
  moveCarPhoto,
  orderCarPhotos,
  removeCarPhoto,
  setCarCover,
} from "./photos.server";
import { carSchema, parseBlurRegions } from "./schemas";

const database = freshDatabasePerFile();

function filesIn(root: string) {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

async function setUp() {
  const { db } = database();
  const [owner, other] = await createMembers(db, 2);
  const { storage, root } = testStorage();
  const call = { db, storage, media: carPhotoMedia };
  const carId = await addTestCar(db, owner!.id);
  return { db, owner: owner!, other: other!, storage, root, call, carId };
}

describe("the car form", () => {
  it("reads every field, keeps the plate in capitals and lists modifications one per line", () => {
    const parsed = carSchema(new Date("2026-06-01")).safeParse({
      make: " Mazda ",
      model: "MX-5",
      year: "1991",
      powerBhp: "",
      drivetrain: "rwd",
      modifications: "- Coilovers\n\n• Hardtop\n",
      plate: "j123  abc",
      platePublic: "on",
      visibility: "members",
    });
    expect(parsed.success).toBe(true);
    expect(parsed.data).toMatchObject({
      make: "Mazda",
      year: 1991,
      powerBhp: undefined,
      modifications: ["Coilovers", "Hardtop"],
      plate: "J123 ABC",
      platePublic: true,
      visibility: "members",
    });
  });

  it("refuses a year out of range, an unknown visibility and a plate with symbols, each with a message", () => {
    const parsed = carSchema(new Date("2026-06-01")).safeParse({
      make: "",
      model: "MX-5",
      year: "1700",
      plate: "<b>",
      visibility: "everyone",
    });
    expect(parsed.success).toBe(false);
    const messages = parsed.error!.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        "make: Enter the make, like Mazda.",
        "year: Enter a year from 1885.",
        "plate: A number plate has only letters, digits and spaces.",
        "visibility: Choose who can see the car.",
      ]),
    );
  });

  it("accepts blur areas inside the photo only", () => {
    expect(parseBlurRegions('[{"x":0.9,"y":0.9,"w":0.5,"h":0.5}]')).toEqual({
      ok: true,
      regions: [{ x: 0.9, y: 0.9, w: expect.closeTo(0.1), h: expect.closeTo(0.1) }],
    });
    expect(parseBlurRegions('[{"x":2,"y":0,"w":0.1,"h":0.1}]').ok).toBe(false);
    expect(parseBlurRegions("not json").ok).toBe(false);
  });
});

describe("a member's garage", () => {
  it("lists only the owner's cars; another member's id is not found for reading or writing", async () => {
    const { db, owner, other, carId } = await setUp();
    expect((await listMyCars(db, owner.id)).map((car) => car.id)).toEqual([carId]);
    expect(await listMyCars(db, other.id)).toEqual([]);
    expect(await getMyCar(db, other.id, carId)).toBeNull();
    expect(await getMyCar(db, owner.id, "not-a-uuid")).toBeNull();
    expect(await updateCar(db, { ownerId: other.id, carId, car: testCar({ make: "Stolen" }) })).toMatchObject({
      notFound: true,
    });
    expect(await setCarVisibility(db, { ownerId: other.id, carId, visibility: "private" })).toMatchObject({
      notFound: true,
    });
    const { storage } = testStorage();
    expect(await deleteCar({ db, storage, media: carPhotoMedia }, { ownerId: other.id, carId })).toMatchObject({
      notFound: true,
    });
    expect((await getMyCar(db, owner.id, carId))!.make).toBe("Mazda");
  });

  it("saves every field, keeps a plate private when there is none, and audits each change", async () => {
    const { db, owner, carId } = await setUp();
    await updateCar(db, {
      ownerId: owner.id,
      carId,
      car: testCar({ plate: null, platePublic: true, visibility: "members", gearbox: undefined }),
    });
    const car = await getMyCar(db, owner.id, carId);
    expect(car).toMatchObject({ plate: null, platePublic: false, visibility: "members", gearbox: undefined });
    await setCarVisibility(db, { ownerId: owner.id, carId, visibility: "private" });
    const actions = await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.subjectId, carId));
    expect(actions.map((row) => row.action).sort()).toEqual(["car.create", "car.update", "car.visibility"]);
  });
});

describe("a car's photos", () => {
  it("stores photos in order, reorders, moves, picks a cover and describes them", async () => {
    const { db, owner, call, carId } = await setUp();
    const ids: string[] = [];
    for (const color of ["#111111", "#555555", "#999999"]) {
      const added = await addCarPhoto(call, {
        ownerId: owner.id,
        carId,
        bytes: await testJpeg({ color }),
        caps: DEFAULT_CAPS,
      });
      expect(added.ok).toBe(true);
      if (added.ok) ids.push(added.photoId);
    }
    let car = await getMyCar(db, owner.id, carId);
    expect(car!.photos.map((photo) => photo.id)).toEqual(ids);
    expect(car!.coverPhotoId).toBe(ids[0]);

    await orderCarPhotos(db, { ownerId: owner.id, carId, order: [ids[2]!, ids[0]!] });
    await moveCarPhoto(db, { ownerId: owner.id, carId, photoId: ids[1]!, direction: "up" });
    await setCarCover(db, { ownerId: owner.id, carId, photoId: ids[1]! });
    await describeCarPhoto(db, { ownerId: owner.id, carId, photoId: ids[1]!, alt: "Side view" });
    car = await getMyCar(db, owner.id, carId);
    expect(car!.photos.map((photo) => photo.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(car!.coverPhotoId).toBe(ids[1]);
    expect(car!.photos[1]!.alt).toBe("Side view");
    const [listed] = await listMyCars(db, owner.id);
    expect(listed).toMatchObject({ photoCount: 3, cover: { alt: "Side view" } });
  });

  it("refuses a file that is not a photo and one past the car's limit, leaving nothing stored", async () => {
    const { db, owner, call, carId, root } = await setUp();
    const notPhoto = await addCarPhoto(call, {
      ownerId: owner.id,
      carId,
      bytes: new TextEncoder().encode("<html><script>alert(1)</script></html>"),
      caps: DEFAULT_CAPS,
    });
    expect(notPhoto).toMatchObject({ ok: false, message: expect.any(String) });
    expect(filesIn(root)).toEqual([]);

    const oneEach = { ...DEFAULT_CAPS, photosPerCar: 1 };
    expect((await addCarPhoto(call, { ownerId: owner.id, carId, bytes: await testJpeg(), caps: oneEach })).ok).toBe(
      true,
    );
    const stored = filesIn(root).length;
    const over = await addCarPhoto(call, {
      ownerId: owner.id,
      carId,
      bytes: await testJpeg({ color: "#123456" }),
      caps: oneEach,
    });
    expect(over).toMatchObject({ ok: false, message: "A car can have at most 1 photo. Remove one to add another." });
    expect(filesIn(root).length).toBe(stored);
    expect(await db.select().from(carPhotos).where(eq(carPhotos.carId, carId))).toHaveLength(1);
  });

  // A noisy photo is the slowest kind to encode, and it is encoded at every size twice.
  it("blurs areas into new files and deletes the unblurred ones", { timeout: 120_000 }, async () => {
    const { db, owner, call, carId, storage } = await setUp();
    const added = await addCarPhoto(call, {
      ownerId: owner.id,
      carId,
      bytes: await testJpeg({ noise: true }),
      caps: DEFAULT_CAPS,
    });
    if (!added.ok) throw new Error("not added");
    const [before] = await db.select().from(carPhotos).where(eq(carPhotos.id, added.photoId));
    const regions = [{ x: 0.3, y: 0.7, w: 0.3, h: 0.1 }];
    expect(await blurCarPhoto(call, { ownerId: owner.id, carId, photoId: added.photoId, regions })).toEqual({
      ok: true,
    });
    const [after] = await db.select().from(carPhotos).where(eq(carPhotos.id, added.photoId));
    expect(after!.blur).toEqual(regions);
    expect(after!.sourceKey).toBe(before!.sourceKey);
    expect(after!.hash).not.toBe(before!.hash);
    expect(await storage.get(`cars/${before!.hash}-640.webp`)).toBeNull();
    expect(await storage.get(after!.sourceKey)).not.toBeNull();
    expect(await storage.get(`cars/${after!.hash}-640.webp`)).not.toBeNull();
    const other = await blurCarPhoto(call, { ownerId: owner.id, carId: carId, photoId: crypto.randomUUID(), regions });
    expect(other).toMatchObject({ notFound: true });
  });

  it("removes a photo's files, but keeps files another car's photo shares", async () => {
    const { db, owner, call, carId, root } = await setUp();
    const secondCar = await addTestCar(db, owner.id, { model: "MX-5 RF" });
    const bytes = await testJpeg({ color: "#aa0000" });
    const first = await addCarPhoto(call, { ownerId: owner.id, carId, bytes, caps: DEFAULT_CAPS });
    const second = await addCarPhoto(call, { ownerId: owner.id, carId: secondCar, bytes, caps: DEFAULT_CAPS });
    if (!first.ok || !second.ok) throw new Error("not added");
    const stored = filesIn(root).length;
    expect(stored).toBeGreaterThan(0);
    await removeCarPhoto(call, { ownerId: owner.id, carId, photoId: first.photoId });
    expect(filesIn(root).length).toBe(stored);
    await deleteCar(call, { ownerId: owner.id, carId: secondCar });
    expect(filesIn(root)).toEqual([]);
    expect(await db.select().from(cars).where(eq(cars.id, secondCar))).toEqual([]);
  });
});

describe("a member's data", () => {
  it("exports cars with photo addresses, likes, reports and applications, and deletes them all with the account", async () => {
    const { db, owner, other, call, carId, root, storage } = await setUp();
    const added = await addCarPhoto(call, {
      ownerId: owner.id,
      carId,
      bytes: await testJpeg({ gps: true, color: "#0a7b3e" }),
      caps: DEFAULT_CAPS,
    });
    if (!added.ok) throw new Error("not added");
    const otherCar = await addTestCar(db, other.id, { make: "Honda", model: "S2000" });
    await db.insert(carLikes).values({ carId: otherCar, userId: owner.id });
    await db.update(cars).set({ likeCount: 1 }).where(eq(cars.id, otherCar));
    await db.insert(carReports).values({ carId: otherCar, reporterId: owner.id, reason: "spam" });
    const [event] = await db
      .insert(events)
      .values({
        slug: "garage-test-show",
        title: "Garage test show",
        type: "show",
        startsAt: new Date("2027-06-01T09:00:00Z"),
        endsAt: new Date("2027-06-01T17:00:00Z"),
        timeZone: "Europe/London",
        venue: "The field",
        town: "Testbury",
      } as typeof events.$inferInsert)
      .returning({ id: events.id });
    await db
      .insert(showCarApplications)
      .values({ eventId: event!.id, userId: owner.id, carId, carLabel: "1991 Mazda MX-5", note: "Please" });

    const exported = await exportMemberData(db, owner.id);
    expect(exported.cars).toMatchObject([
      {
        make: "Mazda",
        plate: "J123 ABC",
        photos: [{ url: expect.stringMatching(/^\/media\/cars\/[0-9a-f]+-960\.webp$/) }],
      },
    ]);
    expect(exported.carLikes).toMatchObject([{ carId: otherCar }]);
    expect(exported.carReports).toMatchObject([{ carId: otherCar, reason: "spam" }]);
    expect(exported.showCarApplications).toMatchObject([{ car: "1991 Mazda MX-5", note: "Please" }]);
    expect(JSON.stringify(exported.otherRecords)).not.toContain("cars");

    expect(filesIn(root).length).toBeGreaterThan(0);
    await deleteMemberAccount(db, owner.id, { storage });
    expect(filesIn(root)).toEqual([]);
    expect(await db.select().from(cars).where(eq(cars.ownerId, owner.id))).toEqual([]);
    expect(await db.select().from(carLikes)).toEqual([]);
    expect(await db.select().from(carReports)).toEqual([]);
    expect(await db.select().from(showCarApplications)).toEqual([]);
    const [liked] = await db.select({ likeCount: cars.likeCount }).from(cars).where(eq(cars.id, otherCar));
    expect(liked!.likeCount).toBe(0);
  });
});
