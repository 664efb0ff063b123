import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addTestCar, createMembers, testJpeg, testStorage } from "~/features/garage/garage.test-support";
import { limitCarPhotoBlurs } from "~/features/garage/upload-limits.server";
import { createImagePool, MEMBER_BUSY, setImagePool } from "~/features/media/image-pool.server";
import type { SessionUser } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { TEST_ROLES, type TestRole, testSessionUser } from "~/server/session-user.test-support";
import { answerOf, routeArgs } from "~/web/route-calls.test-support";
import { carPhotos, cars } from "../../../../db/schema";
import * as edit from "./edit";
import * as list from "./list";
import * as newCar from "./new";
import * as photos from "./photos";

// The garage's pages, called as React Router calls them, for a visitor and each role.
const database = freshDatabasePerFile();
const { storage } = testStorage();

async function signedIn(role: TestRole) {
  const [account] = await createMembers(database().db, 1, { role });
  return testSessionUser({ ...account!, role });
}

/** The garage's settings as a site has them when they are left unset. */
const SITE_ENV = { GARAGE_MAX_CARS: 20, GARAGE_MAX_PHOTOS_PER_CAR: 20, GARAGE_MAX_PHOTOS: 200 };

function argsFor(
  who: SessionUser | null,
  path: string,
  options: {
    body?: Record<string, string> | FormData;
    params?: Record<string, string>;
    json?: boolean;
    env?: typeof SITE_ENV;
  } = {},
) {
  const { body, params, json, env = SITE_ENV } = options;
  const headers = json ? { Accept: "application/json" } : undefined;
  return routeArgs({ db: database().db, env, runtime: { storage }, who, path, params, body, headers });
}

const carForm = {
  intent: "save",
  make: "Honda",
  model: "S2000",
  year: "2001",
  visibility: "public",
  plate: "y2k ap1",
};

describe("the garage pages", () => {
  it("send a visitor to sign in, for every page and form", async () => {
    const carId = crypto.randomUUID();
    const checks: [string, () => unknown][] = [
      ["/members/garage", () => list.loader(argsFor(null, "/members/garage"))],
      ["/members/garage", () => list.action(argsFor(null, "/members/garage", { body: { intent: "delete", carId } }))],
      ["/members/newGarage", () => newCar.loader(argsFor(null, "/members/newGarage"))],
      ["/members/newGarage", () => newCar.action(argsFor(null, "/members/newGarage", { body: carForm }))],
      [`/members/garage/${carId}`, () => edit.loader(argsFor(null, `/members/garage/${carId}`, { params: { carId } }))],
      [
        `/members/garage/${carId}`,
        () => edit.action(argsFor(null, `/members/garage/${carId}`, { params: { carId }, body: carForm })),
      ],
      [
        `/members/garage/${carId}/photos`,
        () =>
          photos.action(argsFor(null, `/members/garage/${carId}/photos`, { params: { carId }, body: new FormData() })),
      ],
    ];
    for (const [path, call] of checks) {
      expect(await answerOf(call)).toMatchObject({
        status: 302,
        location: `/login?redirectTo=${encodeURIComponent(path)}`,
      });
    }
  });

  it("let every role add a car, see it in their own garage, and edit it", async () => {
    for (const role of TEST_ROLES) {
      const user = await signedIn(role);
      const created = await answerOf(() => newCar.action(argsFor(user, "/members/newGarage", { body: carForm })));
      expect(created).toMatchObject({
        status: 302,
        location: expect.stringMatching(/^\/members\/garage\/[0-9a-f-]+#photos$/),
      });
      const carId = created.location!.split("/")[3]!.replace("#photos", "");
      const page = await answerOf(() => list.loader(argsFor(user, "/members/garage")));
      expect(page).toMatchObject({ status: 200, data: { cars: [{ id: carId, make: "Honda", visibility: "public" }] } });
      const editPage = await answerOf(() =>
        edit.loader(argsFor(user, `/members/garage/${carId}`, { params: { carId } })),
      );
      expect(editPage).toMatchObject({ status: 200, data: { defaults: { plate: "Y2K AP1", platePublic: "" } } });
      const saved = await answerOf(() =>
        edit.action(
          argsFor(user, `/members/garage/${carId}`, { params: { carId }, body: { ...carForm, visibility: "private" } }),
        ),
      );
      expect(saved).toMatchObject({ status: 302, location: `/members/garage/${carId}` });
    }
  });

  it("answer a bad form with field messages, not an error", async () => {
    const user = await signedIn("member");
    const answer = await answerOf(() =>
      newCar.action(argsFor(user, "/members/newGarage", { body: { ...carForm, year: "19", visibility: "world" } })),
    );
    expect(answer.status).toBe(400);
    expect((answer.data as { result: { error: Record<string, string[]> } }).result.error).toMatchObject({
      year: ["Enter a year from 1885."],
      visibility: ["Choose who can see the car."],
    });
  });

  it("never show or change another member's car, whatever the role", async () => {
    const [owner] = await createMembers(database().db, 1);
    const carId = await addTestCar(database().db, owner!.id);
    for (const role of TEST_ROLES) {
      const user = await signedIn(role);
      const path = `/members/garage/${carId}`;
      expect(await answerOf(() => edit.loader(argsFor(user, path, { params: { carId } })))).toMatchObject({
        status: 404,
      });
      expect(
        await answerOf(() => edit.action(argsFor(user, path, { params: { carId }, body: carForm }))),
      ).toMatchObject({ status: 404 });
      expect(
        await answerOf(() => list.action(argsFor(user, "/members/garage", { body: { intent: "delete", carId } }))),
      ).toMatchObject({ status: 404 });
      const upload = new FormData();
      upload.append("photos", new File([await testJpeg()], "car.jpg", { type: "image/jpeg" }));
      expect(
        await answerOf(() => photos.action(argsFor(user, `${path}/photos`, { params: { carId }, body: upload }))),
      ).toMatchObject({ status: 404 });
    }
    const [still] = await database().db.select().from(cars).where(eq(cars.id, carId));
    expect(still!.make).toBe("Mazda");
    expect(await database().db.select().from(carPhotos).where(eq(carPhotos.carId, carId))).toEqual([]);
  });

  it("take photos one per request with a JSON answer, or several from the plain form with a message", async () => {
    const user = await signedIn("member");
    const carId = await addTestCar(database().db, user.id);
    const path = `/members/garage/${carId}/photos`;
    const one = new FormData();
    one.append("photos", new File([await testJpeg({ color: "#334455" })], "front.jpg", { type: "image/jpeg" }));
    const json = await answerOf(() => photos.action(argsFor(user, path, { params: { carId }, body: one, json: true })));
    expect(json).toMatchObject({ status: 200, json: { added: 1, outcomes: [{ ok: true, name: "front.jpg" }] } });

    const several = new FormData();
    several.append("photos", new File([await testJpeg({ color: "#445566" })], "side.jpg", { type: "image/jpeg" }));
    several.append("photos", new File(["<?php echo 1; ?>"], "shell.jpg", { type: "image/jpeg" }));
    const plain = await answerOf(() => photos.action(argsFor(user, path, { params: { carId }, body: several })));
    expect(plain).toMatchObject({ status: 302, location: `/members/garage/${carId}#photos` });
    expect(await database().db.select().from(carPhotos).where(eq(carPhotos.carId, carId))).toHaveLength(2);

    const refused = new FormData();
    refused.append("photos", new File(["not a photo"], "notes.png", { type: "image/png" }));
    const bad = await answerOf(() =>
      photos.action(argsFor(user, path, { params: { carId }, body: refused, json: true })),
    );
    expect(bad).toMatchObject({
      status: 400,
      json: { added: 0, outcomes: [{ ok: false, message: expect.any(String) }] },
    });
  });

  it("let the owner reorder, pick a cover, blur and remove photos, and delete the car", async () => {
    const user = await signedIn("organizer");
    const carId = await addTestCar(database().db, user.id);
    const upload = new FormData();
    upload.append("photos", new File([await testJpeg({ color: "#101010" })], "a.jpg", { type: "image/jpeg" }));
    upload.append("photos", new File([await testJpeg({ color: "#202020" })], "b.jpg", { type: "image/jpeg" }));
    await photos.action(argsFor(user, `/members/garage/${carId}/photos`, { params: { carId }, body: upload }));
    const rows = await database()
      .db.select({ id: carPhotos.id })
      .from(carPhotos)
      .where(eq(carPhotos.carId, carId))
      .orderBy(carPhotos.position);
    const [first, second] = rows.map((row) => row.id);
    const path = `/members/garage/${carId}`;
    const post = (body: Record<string, string>) =>
      answerOf(() => edit.action(argsFor(user, path, { params: { carId }, body })));
    expect(await post({ intent: "move", photoId: second!, direction: "up" })).toMatchObject({ status: 302 });
    expect(await post({ intent: "cover", photoId: first! })).toMatchObject({ status: 302 });
    expect(
      await post({ intent: "blur-add", photoId: first!, left: "30", top: "70", width: "30", height: "10" }),
    ).toMatchObject({ status: 302, location: `${path}#photo-${first}` });
    expect(
      await post({ intent: "blur-add", photoId: first!, left: "300", top: "0", width: "1", height: "1" }),
    ).toMatchObject({
      status: 400,
    });
    expect(await post({ intent: "move", photoId: "nonsense", direction: "up" })).toMatchObject({ status: 400 });
    const page = await answerOf(() => edit.loader(argsFor(user, path, { params: { carId } })));
    expect(page).toMatchObject({
      data: { coverPhotoId: first, photos: [{ id: second }, { id: first, blur: [{ x: 0.3, y: 0.7 }] }] },
    });
    expect(await post({ intent: "remove", photoId: second! })).toMatchObject({ status: 302 });
    const deleted = await answerOf(() =>
      list.action(argsFor(user, "/members/garage", { body: { intent: "delete", carId } })),
    );
    expect(deleted).toMatchObject({ status: 302, location: "/members/garage" });
    expect(await database().db.select().from(cars).where(eq(cars.id, carId))).toEqual([]);
  });

  it("hold every role to the site's caps on cars and photos, with the message on the form", async () => {
    const env = { GARAGE_MAX_CARS: 1, GARAGE_MAX_PHOTOS_PER_CAR: 1, GARAGE_MAX_PHOTOS: 200 };
    for (const role of TEST_ROLES) {
      const user = await signedIn(role);
      const add = () => answerOf(() => newCar.action(argsFor(user, "/members/newGarage", { body: carForm, env })));
      const created = await add();
      expect(created).toMatchObject({ status: 302 });
      const second = await add();
      expect(second.status, role).toBe(400);
      expect((second.data as { result: { error: Record<string, string[]> } }).result.error).toEqual({
        "": ["You can keep at most 1 car in your garage. Delete one to add another."],
      });
      const carId = created.location!.split("/")[3]!.replace("#photos", "");
      const path = `/members/garage/${carId}/photos`;
      const upload = async (color: string) => {
        const form = new FormData();
        form.append("photos", new File([await testJpeg({ color })], `${color}.jpg`, { type: "image/jpeg" }));
        return answerOf(() => photos.action(argsFor(user, path, { params: { carId }, body: form, json: true, env })));
      };
      expect(await upload("#101010")).toMatchObject({ status: 200 });
      expect(await upload("#202020")).toMatchObject({
        status: 400,
        json: {
          added: 0,
          outcomes: [{ ok: false, message: "#202020.jpg: A car can have at most 1 photo. Remove one to add another." }],
        },
      });
    }
  });

  it("limit new blurs as uploads are limited: past the limit the form says how long to wait", async () => {
    const user = await signedIn("member");
    const carId = await addTestCar(database().db, user.id);
    const upload = new FormData();
    upload.append("photos", new File([await testJpeg({ color: "#303030" })], "a.jpg", { type: "image/jpeg" }));
    await photos.action(argsFor(user, `/members/garage/${carId}/photos`, { params: { carId }, body: upload }));
    const [photo] = await database().db.select({ id: carPhotos.id }).from(carPhotos).where(eq(carPhotos.carId, carId));
    // Sixty new blurs in ten minutes, as the limit counts them.
    for (let count = 0; count < 60; count++) {
      await limitCarPhotoBlurs(database().db, { userId: user.id, ip: "198.51.100.7" });
    }
    const blur = { intent: "blur-add", photoId: photo!.id, left: "30", top: "70", width: "30", height: "10" };
    const path = `/members/garage/${carId}`;
    const answer = await answerOf(() => edit.action(argsFor(user, path, { params: { carId }, body: blur })));
    expect(answer.status).toBe(429);
    expect((answer.data as { result: { error: Record<string, string[]> } }).result.error[""]).toEqual([
      expect.stringMatching(/^Too many attempts\. Please wait .+ and try again\.$/),
    ]);
    const [after] = await database()
      .db.select({ blur: carPhotos.blur })
      .from(carPhotos)
      .where(eq(carPhotos.id, photo!.id));
    expect(after!.blur).toEqual([]);
  });

  it("answer an upload that finds the image workers full with 503 and a message to send it again", async () => {
    const user = await signedIn("member");
    const carId = await addTestCar(database().db, user.id);
    const pool = createImagePool({ workers: 1, queue: 4, perMember: 1 });
    const previous = setImagePool(pool);
    try {
      const path = `/members/garage/${carId}/photos`;
      const send = async (color: string) => {
        const form = new FormData();
        form.append("photos", new File([await testJpeg({ color })], `${color}.jpg`, { type: "image/jpeg" }));
        return answerOf(() => photos.action(argsFor(user, path, { params: { carId }, body: form, json: true })));
      };
      // Whichever photo reaches the worker first is made; the other, past the member's share, is not.
      const answers = await Promise.all([send("#404040"), send("#505050")]);
      const first = answers.find((answer) => answer.status === 200);
      const second = answers.find((answer) => answer.status !== 200);
      if (!first || !second)
        throw new Error(`expected one photo made and one refused: ${answers.map((a) => a.status)}`);
      expect(first).toMatchObject({ json: { added: 1 } });
      expect(second).toMatchObject({
        status: 503,
        json: { added: 0, outcomes: [{ ok: false, message: expect.stringMatching(/^#[0-9]{6}\.jpg: /) }] },
      });
      expect((second.json as { outcomes: { message: string }[] }).outcomes[0]!.message).toContain(MEMBER_BUSY);
      expect(second.headers?.get("Retry-After")).toBe("10");
      expect(await database().db.select().from(carPhotos).where(eq(carPhotos.carId, carId))).toHaveLength(1);
    } finally {
      setImagePool(previous);
      await pool.stop();
    }
  });
});
