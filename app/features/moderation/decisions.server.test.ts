import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { insertCar, insertMember, type TestMember } from "~/features/community/cars.test-support";
import { reportCar } from "~/features/community/reports.server";
import { getCommunityCar, listCommunityCars } from "~/features/community/showcase.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { auditLog, carPhotos, carReports, cars } from "../../../db/schema";
import { decideOnCar, type PhotoFiles, setCarFeatured } from "./decisions.server";
import { featuredList, moderationQueue } from "./queue.server";

const database = freshDatabasePerFile();
let owner: TestMember;
let reporter: TestMember;
let moderator: TestMember;
const brand = { siteName: "Pitlane", siteUrl: "https://club.example" };
const deleted: PhotoFiles[] = [];
const services = { brand, deletePhotoFiles: async (files: PhotoFiles) => void deleted.push(files) };

beforeAll(async () => {
  const { db } = database();
  owner = await insertMember(db, { handle: "mod_owner", name: "Olive Owner" });
  reporter = await insertMember(db, { handle: "mod_reporter" });
  moderator = await insertMember(db, { handle: "mod_staff", role: "organizer" });
});

const asViewer = (who: TestMember) => ({ id: who.id, role: who.role });

describe("moderation decisions", () => {
  it("hides a reported car everywhere at once, emails the owner, audits, then restores it", async () => {
    const { db } = database();
    const { id } = await insertCar(db, owner.id, { model: "Hideable" });
    await reportCar(db, asViewer(reporter), { carId: id, reason: "offensive", note: "Rude" });
    const queue = await moderationQueue(db);
    expect(queue.find((car) => car.id === id)?.reports).toMatchObject([
      { reason: "offensive", note: "Rude", status: "open", reporterHandle: "mod_reporter" },
    ]);

    const hidden = await decideOnCar(
      db,
      { actorId: moderator.id, carId: id, decision: "hide", note: "Sticker breaks the rules" },
      services,
    );
    expect(hidden).toMatchObject({ ok: true, email: { to: "mod_owner@club.example" } });
    if (!hidden.ok) throw new Error("refused");
    expect(hidden.email?.text).toContain("Sticker breaks the rules");
    expect(await getCommunityCar(db, null, id)).toBeNull();
    expect(await getCommunityCar(db, asViewer(reporter), id)).toBeNull();
    expect((await listCommunityCars(db, null, { q: "Hideable" })).total).toBe(0);
    expect((await getCommunityCar(db, asViewer(owner), id))?.hidden).toBe(true);
    const [report] = await db.select().from(carReports).where(eq(carReports.carId, id));
    expect(report).toMatchObject({
      status: "hidden",
      decidedBy: moderator.id,
      decisionNote: "Sticker breaks the rules",
    });
    const audits = await db.select().from(auditLog).where(eq(auditLog.subjectId, id));
    expect(audits.map((row) => row.action)).toEqual(["moderation.hide"]);

    expect(
      await decideOnCar(db, { actorId: moderator.id, carId: id, decision: "hide", note: "Again" }, services),
    ).toMatchObject({ ok: false, field: "decision" });
    const restored = await decideOnCar(
      db,
      { actorId: moderator.id, carId: id, decision: "restore", note: "Sticker removed" },
      services,
    );
    expect(restored.ok).toBe(true);
    expect(await getCommunityCar(db, null, id)).not.toBeNull();
    expect((await db.select().from(carReports).where(eq(carReports.carId, id)))[0]?.status).toBe("restored");
  });

  it("hides and removes one photo, deleting its files, and dismisses reports without changing the car", async () => {
    const { db } = database();
    const made = await insertCar(db, owner.id, { model: "Photographed", photos: 2 });
    await reportCar(db, asViewer(reporter), { carId: made.id, photoId: made.photoIds[0], reason: "plate", note: "" });
    await reportCar(db, asViewer(reporter), { carId: made.id, reason: "spam", note: "" });
    const hide = { actorId: moderator.id, carId: made.id, photoId: made.photoIds[0], note: "Plate showing" };
    expect((await decideOnCar(db, { ...hide, decision: "hide" }, services)).ok).toBe(true);
    const seen = await getCommunityCar(db, null, made.id);
    expect(seen?.photos.map((photo) => photo.id)).toEqual([made.photoIds[1]]);

    const [photo] = await db.select().from(carPhotos).where(eq(carPhotos.id, made.photoIds[0]!));
    expect((await decideOnCar(db, { ...hide, decision: "remove" }, services)).ok).toBe(true);
    expect(deleted).toContainEqual({
      hash: photo!.hash,
      sourceKey: photo!.sourceKey,
      keep: { renditions: false, original: false },
    });
    expect(await db.select().from(carPhotos).where(eq(carPhotos.id, made.photoIds[0]!))).toEqual([]);
    const [after] = await db.select({ cover: cars.coverPhotoId }).from(cars).where(eq(cars.id, made.id));
    expect(after?.cover).toBeNull();

    const dismissed = await decideOnCar(
      db,
      { actorId: moderator.id, carId: made.id, decision: "dismiss", note: "Not spam" },
      services,
    );
    expect(dismissed.ok).toBe(true);
    const open = await db
      .select()
      .from(carReports)
      .where(and(eq(carReports.carId, made.id), eq(carReports.status, "open")));
    expect(open).toEqual([]);
    expect(await getCommunityCar(db, null, made.id)).not.toBeNull();
  });

  it("removes a whole car with its photos' files", async () => {
    const { db } = database();
    const made = await insertCar(db, owner.id, { model: "Removable", photos: 3 });
    const before = deleted.length;
    const outcome = await decideOnCar(
      db,
      { actorId: moderator.id, carId: made.id, decision: "remove", note: "Not your car" },
      services,
    );
    expect(outcome).toMatchObject({ ok: true, email: { subject: expect.stringContaining("removed") } });
    expect(deleted.length - before).toBe(3);
    expect(await db.select().from(cars).where(eq(cars.id, made.id))).toEqual([]);
    expect(
      await decideOnCar(db, { actorId: moderator.id, carId: made.id, decision: "hide", note: "x" }, services),
    ).toMatchObject({ ok: false });
  });

  it("features only public, visible cars on the home page, audited", async () => {
    const { db } = database();
    const shown = await insertCar(db, owner.id, { model: "Featured" });
    const secret = await insertCar(db, owner.id, { model: "Secret", visibility: "members" });
    expect(await setCarFeatured(db, { actorId: moderator.id, carId: shown.id, featured: true })).toMatchObject({
      ok: true,
    });
    expect(await setCarFeatured(db, { actorId: moderator.id, carId: secret.id, featured: true })).toMatchObject({
      ok: false,
    });
    expect((await featuredList(db)).map((car) => car.id)).toEqual([shown.id]);
    await setCarFeatured(db, { actorId: moderator.id, carId: shown.id, featured: false });
    expect(await featuredList(db)).toEqual([]);
    const audits = await db.select().from(auditLog).where(eq(auditLog.subjectId, shown.id));
    expect(audits.map((row) => row.action)).toEqual(["car.feature", "car.unfeature"]);
  });
});
