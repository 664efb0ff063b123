import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { createCar } from "~/features/garage/cars.server";
import { createMembers, testCar, testJpeg, testStorage } from "~/features/garage/garage.test-support";
import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { Runtime } from "~/server/runtime.server";
import { testSessionUser } from "~/server/session-user.test-support";
import { carPhotos, cars, users } from "../../../../db/schema";
import * as edit from "./edit";
import * as list from "./list";
import * as newCar from "./new";
import * as photos from "./photos";

// The garage's pages, called as React Router calls them, for a visitor and each role.
const database = freshDatabasePerFile();
const ROLES = ["member", "organizer", "admin"] as const;
const { storage } = testStorage();

async function signedIn(role: (typeof ROLES)[number]) {
  const [account] = await createMembers(database().db, 1);
  await database().db.update(users).set({ role }).where(eq(users.id, account!.id));
  return testSessionUser({ id: account!.id, email: account!.email, role });
}

type User = ReturnType<typeof testSessionUser> | null;

function argsFor(
  user: User,
  path: string,
  options: { body?: Record<string, string> | FormData; params?: Record<string, string>; json?: boolean } = {},
) {
  const context = new RouterContextProvider();
  context.set(runtimeContext, { db: database().db, storage, env: {} } as unknown as Runtime);
  context.set(requestContext, { ip: "10.8.0.2", nonce: "n", requestId: "r" });
  context.set(userContext, user);
  const url = new URL(`http://localhost:3000${path}`);
  const body = options.body instanceof FormData ? options.body : options.body && new URLSearchParams(options.body);
  const request = new Request(url, {
    method: options.body ? "POST" : "GET",
    body,
    headers: options.json ? { Accept: "application/json" } : {},
  });
  return { request, url, params: options.params ?? {}, context, unstable_pattern: path } as never;
}

async function answerOf(call: () => unknown) {
  try {
    const answer = (await call()) as { data?: unknown; init?: { status?: number } };
    if (answer instanceof Response) {
      const json = answer.headers.get("Content-Type")?.includes("json") ? await answer.json() : undefined;
      return { status: answer.status, location: answer.headers.get("Location"), json };
    }
    return { status: answer?.init?.status ?? 200, data: answer?.data ?? answer };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("Location") };
    const init = (thrown as { init?: { status?: number } }).init;
    if (init?.status) return { status: init.status };
    throw thrown;
  }
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
      expect(await answerOf(call)).toEqual({ status: 302, location: `/login?redirectTo=${encodeURIComponent(path)}` });
    }
  });

  it("let every role add a car, see it in their own garage, and edit it", async () => {
    for (const role of ROLES) {
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
    const { id: carId } = await createCar(database().db, { ownerId: owner!.id, car: testCar() });
    for (const role of ROLES) {
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
    const { id: carId } = await createCar(database().db, { ownerId: user.id, car: testCar() });
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
    const { id: carId } = await createCar(database().db, { ownerId: user.id, car: testCar() });
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
});
