import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { carPhotos, carReports, cars } from "../../../db/schema";
import { insertCar, insertMember, type TestMember } from "./cars.test-support";
import { setCarLike } from "./likes.server";
import { reportCar } from "./reports.server";
import {
  CARS_PER_PAGE,
  communityMakes,
  eraFrom,
  featuredCars,
  getCommunityCar,
  getCommunityProfile,
  listCommunityCars,
  sitemapCommunity,
} from "./showcase.server";
import type { Viewer } from "./visibility.server";

const database = freshDatabasePerFile();
let owner: TestMember;
let member: TestMember;
let organizer: TestMember;
let admin: TestMember;
const car: Record<string, string> = {};

const viewerOf = (who: TestMember | null): Viewer => (who ? { id: who.id, role: who.role } : null);

beforeAll(async () => {
  const { db } = database();
  owner = await insertMember(db, { handle: "owner_one", town: "York" });
  member = await insertMember(db, { handle: "someone" });
  organizer = await insertMember(db, { handle: "org", role: "organizer" });
  admin = await insertMember(db, { handle: "boss", role: "admin" });
  for (const visibility of ["public", "members", "private"] as const) {
    for (const hidden of [false, true]) {
      const made = await insertCar(db, owner.id, { visibility, hidden, model: `${visibility}-${hidden}` });
      car[`${visibility}-${hidden}`] = made.id;
    }
  }
});

describe("who sees which car", () => {
  // [viewer, visibility-hidden keys they see]
  const cases: [string, () => TestMember | null, string[]][] = [
    ["a visitor", () => null, ["public-false"]],
    ["another member", () => member, ["public-false", "members-false"]],
    ["the owner", () => owner, ["*"]],
    ["an organizer", () => organizer, ["public-false", "public-true", "members-false", "members-true"]],
    ["an admin", () => admin, ["public-false", "public-true", "members-false", "members-true"]],
  ];
  for (let [name, who, expected] of cases) {
    it(`${name} sees exactly their cars on every page`, async () => {
      const { db } = database();
      if (expected[0] === "*") expected = Object.keys(car);
      const viewer = viewerOf(who());
      const list = await listCommunityCars(db, viewer, {});
      expect(list.cars.map((row) => row.model).sort()).toEqual([...expected].sort());
      for (const [key, id] of Object.entries(car)) {
        const page = await getCommunityCar(db, viewer, id);
        expect(Boolean(page), `${name} / ${key}`).toBe(expected.includes(key));
      }
      const profile = await getCommunityProfile(db, viewer, "Owner_One");
      expect(profile?.cars.map((row) => row.model).sort()).toEqual([...expected].sort());
    });
  }

  it("keeps private and hidden cars out of the sitemap and the home page", async () => {
    const { db } = database();
    await db.update(cars).set({ featuredAt: new Date() });
    const sitemap = await sitemapCommunity(db);
    expect(sitemap.cars.map((row) => row.id)).toEqual([car["public-false"]]);
    expect(sitemap.handles).toEqual(["owner_one"]);
    expect((await featuredCars(db)).map((row) => row.id)).toEqual([car["public-false"]]);
    await db.update(cars).set({ featuredAt: null });
  });

  it("shows the plate only to the owner, unless they made it public", async () => {
    const { db } = database();
    const id = car["public-false"]!;
    expect((await getCommunityCar(db, null, id))?.plate).toBeNull();
    expect((await getCommunityCar(db, viewerOf(member), id))?.plate).toBeNull();
    expect((await getCommunityCar(db, viewerOf(admin), id))?.plate).toBeNull();
    expect((await getCommunityCar(db, viewerOf(owner), id))?.plate).toBe("AB12 CDE");
    const shown = await insertCar(db, owner.id, { platePublic: true, plate: "PL8 NOW", model: "Plated" });
    expect((await getCommunityCar(db, null, shown.id))?.plate).toBe("PL8 NOW");
    const page = await getCommunityCar(db, null, id);
    expect(JSON.stringify(page)).not.toContain("AB12");
    await db.delete(cars).where(eq(cars.id, shown.id));
  });

  it("hides a hidden photo from everyone but the owner and staff, and never picks it as the cover", async () => {
    const { db } = database();
    const made = await insertCar(db, owner.id, { photos: 3, model: "Photos" });
    await db.update(carPhotos).set({ hiddenAt: new Date() }).where(eq(carPhotos.id, made.photoIds[0]!));
    const visitor = await getCommunityCar(db, null, made.id);
    expect(visitor?.photos.map((photo) => photo.id)).toEqual(made.photoIds.slice(1));
    expect((await getCommunityCar(db, viewerOf(owner), made.id))?.photos).toHaveLength(3);
    expect((await getCommunityCar(db, viewerOf(organizer), made.id))?.photos).toHaveLength(3);
    const tile = (await listCommunityCars(db, null, { q: "Photos" })).cars[0];
    expect(tile?.cover?.id).toBe(made.photoIds[1]);
    await db.delete(cars).where(eq(cars.id, made.id));
  });

  it("answers nothing for an id that is not a car id, and for an unknown handle", async () => {
    const { db } = database();
    expect(await getCommunityCar(db, null, "1' or '1'='1")).toBeNull();
    expect(await getCommunityCar(db, null, "00000000-0000-4000-8000-000000000000")).toBeNull();
    expect(await getCommunityProfile(db, null, "nobody")).toBeNull();
    expect(await getCommunityProfile(db, null, "../etc")).toBeNull();
  });
});

describe("the community grid", () => {
  it("filters by make and era, searches make, model, variant and handle, sorts and pages", async () => {
    const { db } = database();
    const other = await insertMember(db, { handle: "grid_maker" });
    const base = Date.now() - 1_000_000;
    const made: string[] = [];
    for (let i = 0; i < CARS_PER_PAGE + 3; i++) {
      const { id } = await insertCar(db, other.id, {
        make: i % 3 === 0 ? "Porsche" : "Mazda",
        model: i % 3 === 0 ? "911" : "MX-5",
        variant: i === 4 ? "Eunos Roadster" : "",
        year: 1989 + i,
        createdAt: new Date(base + i * 1000),
      });
      made.push(id);
    }
    await db.update(cars).set({ likeCount: 50 }).where(eq(cars.id, made[2]!));

    const all = await listCommunityCars(db, null, { q: "grid_maker" });
    expect(all.total).toBe(CARS_PER_PAGE + 3);
    expect(all.pageCount).toBe(2);
    expect(all.cars[0]?.id).toBe(made.at(-1));
    const second = await listCommunityCars(db, null, { q: "grid_maker", page: 2 });
    expect(second.cars).toHaveLength(3);
    expect((await listCommunityCars(db, null, { q: "grid_maker", page: 99 })).page).toBe(2);

    expect((await listCommunityCars(db, null, { q: "grid_maker", sort: "liked" })).cars[0]?.id).toBe(made[2]);
    expect((await listCommunityCars(db, null, { make: "porsche", q: "grid_maker" })).total).toBe(5);
    expect((await listCommunityCars(db, null, { era: 1990, q: "grid_maker" })).total).toBe(10);
    expect((await listCommunityCars(db, null, { q: "eunos" })).cars.map((row) => row.id)).toEqual([made[4]]);
    expect((await listCommunityCars(db, null, { q: "mazda grid" })).total).toBe(10);
    expect((await listCommunityCars(db, null, { q: "@grid_maker porsche" })).total).toBe(5);
    expect((await listCommunityCars(db, null, { q: "@" })).total).toBeGreaterThan(CARS_PER_PAGE);
    expect((await listCommunityCars(db, null, { q: "100%_" })).total).toBe(0);
    const makes = await communityMakes(db, null);
    expect(makes.map((row) => row.make)).toEqual(expect.arrayContaining(["Mazda", "Porsche", "Honda"]));
    expect(eraFrom("1990")).toBe(1990);
    expect(eraFrom("1995")).toBeUndefined();
    expect(eraFrom("x")).toBeUndefined();
  });
});

describe("likes", () => {
  it("counts one like per member, unlikes, refuses the owner and cars the member cannot see", async () => {
    const { db } = database();
    const { id } = await insertCar(db, owner.id, { model: "Liked" });
    const viewer = viewerOf(member)!;
    expect(await setCarLike(db, viewer, { carId: id, like: true })).toEqual({ ok: true, liked: true, likeCount: 1 });
    expect(await setCarLike(db, viewer, { carId: id, like: true })).toEqual({ ok: true, liked: true, likeCount: 1 });
    expect((await getCommunityCar(db, viewer, id))?.likedByMe).toBe(true);
    expect(await setCarLike(db, viewerOf(admin)!, { carId: id, like: true })).toMatchObject({ likeCount: 2 });
    expect(await setCarLike(db, viewer, { carId: id, like: false })).toMatchObject({ likeCount: 1 });
    expect(await setCarLike(db, viewer, { carId: id, like: false })).toMatchObject({ likeCount: 1 });
    expect(await setCarLike(db, viewerOf(owner)!, { carId: id, like: true })).toMatchObject({
      ok: false,
      reason: "own-car",
    });
    expect(await setCarLike(db, viewer, { carId: car["private-false"]!, like: true })).toMatchObject({
      ok: false,
      reason: "not-found",
    });
    expect(await setCarLike(db, viewer, { carId: car["public-true"]!, like: true })).toMatchObject({
      ok: false,
      reason: "not-found",
    });
  });

  it("counts twenty simultaneous likes by one member once", async () => {
    const { db } = database();
    const { id } = await insertCar(db, owner.id, { model: "Raced" });
    const viewer = viewerOf(member)!;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => setCarLike(db, viewer, { carId: id, like: true })),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    const [row] = await db.select({ likeCount: cars.likeCount }).from(cars).where(eq(cars.id, id));
    expect(row?.likeCount).toBe(1);
    await Promise.all(Array.from({ length: 10 }, () => setCarLike(db, viewer, { carId: id, like: false })));
    const [after] = await db.select({ likeCount: cars.likeCount }).from(cars).where(eq(cars.id, id));
    expect(after?.likeCount).toBe(0);
  });
});

describe("reports", () => {
  it("takes one open report per member per car or photo, and refuses the owner and unseen cars", async () => {
    const { db } = database();
    const made = await insertCar(db, owner.id, { model: "Reported", photos: 2 });
    const viewer = viewerOf(member)!;
    const report = { carId: made.id, reason: "offensive" as const, note: "Rude sticker" };
    expect(await reportCar(db, viewer, report)).toEqual({ ok: true, alreadyReported: false });
    expect(await reportCar(db, viewer, report)).toEqual({ ok: true, alreadyReported: true });
    expect(await reportCar(db, viewer, { ...report, photoId: made.photoIds[1] })).toEqual({
      ok: true,
      alreadyReported: false,
    });
    expect(await reportCar(db, viewerOf(owner)!, report)).toMatchObject({ ok: false, reason: "own-car" });
    expect(await reportCar(db, viewer, { ...report, photoId: "00000000-0000-4000-8000-000000000000" })).toMatchObject({
      ok: false,
      field: "photoId",
    });
    expect(await reportCar(db, viewer, { ...report, carId: car["private-false"]! })).toMatchObject({
      ok: false,
      reason: "not-found",
    });
    const rows = await db.select().from(carReports).where(eq(carReports.carId, made.id));
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.status === "open" && row.reporterId === member.id)).toBe(true);
  });
});
