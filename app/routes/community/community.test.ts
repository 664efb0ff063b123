import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { insertCar, insertMember, type TestMember } from "~/features/community/cars.test-support";
import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { type Env, parseEnv, setEnv } from "~/server/env.server";
import type { OutboundEmail } from "~/server/mail/mail.server";
import type { Runtime } from "~/server/runtime.server";
import { testSessionUser } from "~/server/session-user.test-support";
import { storageFor } from "~/server/storage/storage.server";
import { auditLog, carLikes, carReports, cars } from "../../../db/schema";
import * as queueRoute from "../admin/moderation/queue";
import * as homeRoute from "../site/home";
import * as carRoute from "./car";
import * as listRoute from "./list";
import * as profileRoute from "./profile";

// The community pages and moderation, called as React Router calls them, for each role.
const database = freshDatabasePerFile();
type Who = "visitor" | "owner" | "member" | "organizer" | "admin";
const people = {} as Record<Exclude<Who, "visitor">, TestMember>;
const sent: OutboundEmail[] = [];
let env: Env;
let publicCar: { id: string; photoIds: string[] };
let privateCar: { id: string; photoIds: string[] };
let membersCar: { id: string; photoIds: string[] };

beforeAll(async () => {
  env = parseEnv({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "pitlane-community-")),
    AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789",
  });
  setEnv(env);
  const { db } = database();
  people.owner = await insertMember(db, { handle: "route_owner", town: "Leeds" });
  people.member = await insertMember(db, { handle: "route_member" });
  people.organizer = await insertMember(db, { handle: "route_org", role: "organizer" });
  people.admin = await insertMember(db, { handle: "route_admin", role: "admin" });
  publicCar = await insertCar(db, people.owner.id, { make: "Lotus", model: "Elise", year: 1998, photos: 2 });
  privateCar = await insertCar(db, people.owner.id, { make: "Lotus", model: "Exige", visibility: "private" });
  membersCar = await insertCar(db, people.owner.id, { make: "Lotus", model: "Evora", visibility: "members" });
});

function contextFor(who: Who) {
  const context = new RouterContextProvider();
  const jobs = { enqueue: async () => null };
  const outbox = { sendEmail: async (email: OutboundEmail) => void sent.push(email), sendSms: async () => {} };
  context.set(runtimeContext, {
    db: database().db,
    env,
    storage: storageFor(env),
    jobs,
    outbox,
  } as unknown as Runtime);
  context.set(requestContext, { ip: "192.0.2.40", nonce: "n", requestId: "r" });
  const person = who === "visitor" ? null : people[who];
  context.set(userContext, person ? testSessionUser({ ...person, role: person.role }) : null);
  return context;
}

function get(pathname: string, params: Record<string, string>, who: Who) {
  const url = new URL(`http://localhost${pathname}`);
  return { request: new Request(url), url, params, context: contextFor(who), unstable_pattern: pathname } as never;
}

function post(pathname: string, fields: Record<string, string>, params: Record<string, string>, who: Who) {
  const url = new URL(`http://localhost${pathname}`);
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  const request = new Request(url, { method: "POST", body });
  return { request, url, params, context: contextFor(who), unstable_pattern: pathname } as never;
}

async function outcome(
  run: () => unknown,
): Promise<{ status: number | string; location?: string | null; body?: unknown }> {
  try {
    const answer = await run();
    if (answer instanceof Response) return { status: answer.status, location: answer.headers.get("Location") };
    const init = (answer as { init?: { status?: number } } | undefined)?.init;
    if (init) return { status: init.status ?? 200, body: (answer as { data: unknown }).data };
    return { status: 200, body: answer };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("Location") };
    return { status: (thrown as { init?: { status?: number } }).init?.status ?? "threw" };
  }
}

const everyone: Who[] = ["visitor", "owner", "member", "organizer", "admin"];

describe("the community pages for each role", () => {
  it("lists the cars each role may see, filters, and sends no plate", async () => {
    const seen: Record<string, string[]> = {};
    for (const who of everyone) {
      const answer = (await listRoute.loader(get("/community", {}, who))) as { cars: { model: string }[] };
      seen[who] = answer.cars.map((car) => car.model).sort();
      expect(JSON.stringify(answer)).not.toContain("AB12");
    }
    expect(seen).toEqual({
      visitor: ["Elise"],
      owner: ["Elise", "Evora", "Exige"],
      member: ["Elise", "Evora"],
      organizer: ["Elise", "Evora"],
      admin: ["Elise", "Evora"],
    });
    const filtered = (await listRoute.loader(
      get("/community?make=lotus&era=1990&q=eli&sort=liked&page=x", {}, "visitor"),
    )) as {
      cars: unknown[];
      filters: unknown;
    };
    expect(filtered.cars).toHaveLength(1);
    expect(filtered.filters).toEqual({ q: "eli", make: "lotus", era: "1990", sort: "liked" });
    const odd = (await listRoute.loader(get(`/community?era=12&sort=<x>&q=${"z".repeat(500)}`, {}, "visitor"))) as {
      filters: { era: string; sort: string; q: string };
    };
    expect(odd.filters).toMatchObject({ era: "", sort: "newest" });
    expect(odd.filters.q).toHaveLength(80);
    expect(listRoute.headers({} as never)).toEqual({ "Cache-Control": expect.stringContaining("public") });
  });

  it("shows a profile with the cars each role may see, and 404 for an unknown handle", async () => {
    for (const who of everyone) {
      const answer = await outcome(() =>
        profileRoute.loader(get("/community/route_owner", { handle: "route_owner" }, who)),
      );
      expect(answer.status).toBe(200);
      const body = answer.body as { member: { town: string }; cars: unknown[] };
      expect(body.member.town).toBe("Leeds");
      expect(body.cars.length).toBe(who === "visitor" ? 1 : who === "owner" ? 3 : 2);
    }
    expect(
      (await outcome(() => profileRoute.loader(get("/community/ghost", { handle: "ghost" }, "member")))).status,
    ).toBe(404);
  });

  it("opens a car only for those who may see it, with a 404 that leaks nothing otherwise", async () => {
    const matrix: [string, Who[]][] = [
      [publicCar.id, everyone],
      [membersCar.id, ["owner", "member", "organizer", "admin"]],
      [privateCar.id, ["owner"]],
    ];
    for (const [carId, allowed] of matrix) {
      for (const who of everyone) {
        const answer = await outcome(() => carRoute.loader(get(`/community/cars/${carId}`, { carId }, who)));
        expect(answer.status, `${carId} as ${who}`).toBe(allowed.includes(who) ? 200 : 404);
      }
    }
    const visitor = await outcome(() => carRoute.loader(get("/", { carId: publicCar.id }, "visitor")));
    const body = visitor.body as { car: { plate: string | null }; jsonLd: string; imageUrl: string; can: string };
    expect(body.car.plate).toBeNull();
    expect(body.jsonLd).toContain('"@type":"Car"');
    expect(body.jsonLd).not.toContain("AB12");
    expect(body.imageUrl).toMatch(/\/media\/cars\/[0-9a-f]{32}-1600\.webp$/);
    expect(body.can).toBe("sign-in");
    const own = await outcome(() => carRoute.loader(get("/", { carId: publicCar.id }, "owner")));
    expect((own.body as { car: { plate: string } }).car.plate).toBe("AB12 CDE");
    for (const carId of ["nope", "00000000-0000-4000-8000-000000000000"]) {
      expect((await outcome(() => carRoute.loader(get("/", { carId }, "admin")))).status).toBe(404);
    }
  });
});

describe("likes and reports on the car page", () => {
  const here = () => `/community/cars/${publicCar.id}`;
  const params = () => ({ carId: publicCar.id });

  it("sends visitors to sign in, refuses the owner, and counts a member's like once, with or without scripts", async () => {
    const visitor = await outcome(() => carRoute.action(post(here(), { intent: "like" }, params(), "visitor")));
    expect(visitor).toMatchObject({ status: 302, location: expect.stringMatching(/^\/login\?redirectTo=/) });
    const owner = await outcome(() => carRoute.action(post(here(), { intent: "like" }, params(), "owner")));
    expect(owner.status).toBe(400);
    const plain = await outcome(() => carRoute.action(post(here(), { intent: "like" }, params(), "member")));
    expect(plain).toMatchObject({ status: 303, location: `${here()}#likes` });
    const again = await outcome(() =>
      carRoute.action(post(here(), { intent: "like", reply: "data" }, params(), "member")),
    );
    expect(again.body).toEqual({ like: { liked: true, likeCount: 1 } });
    for (const who of ["organizer", "admin"] as const) {
      await carRoute.action(post(here(), { intent: "like", reply: "data" }, params(), who));
    }
    const [row] = await database().db.select({ likeCount: cars.likeCount }).from(cars).where(eq(cars.id, publicCar.id));
    expect(row?.likeCount).toBe(3);
    await carRoute.action(post(here(), { intent: "unlike", reply: "data" }, params(), "admin"));
    const likes = await database().db.select().from(carLikes).where(eq(carLikes.carId, publicCar.id));
    expect(likes).toHaveLength(2);
    const hidden = await outcome(() =>
      carRoute.action(post(`/community/cars/${privateCar.id}`, { intent: "like" }, { carId: privateCar.id }, "member")),
    );
    expect(hidden.status).toBe(404);
    const unknown = await outcome(() => carRoute.action(post(here(), { intent: "<script>" }, params(), "member")));
    expect(unknown.status).toBe(400);
  });

  it("takes a member's report with field messages for bad input, once", async () => {
    const bad = await outcome(() =>
      carRoute.action(
        post(here(), { intent: "report", reason: "because", note: "x".repeat(2000) }, params(), "member"),
      ),
    );
    expect(bad.status).toBe(400);
    const errors = (bad.body as { report: { error: Record<string, string[]> } }).report.error;
    expect(errors.reason?.[0]).toBe("Choose why you are reporting this");
    expect(errors.note?.[0]).toBe("Use at most 1000 characters");
    const wrongPhoto = await outcome(() =>
      carRoute.action(
        post(here(), { intent: "report", reason: "plate", photoId: privateCar.photoIds[0]! }, params(), "member"),
      ),
    );
    expect((wrongPhoto.body as { report: { error: Record<string, string[]> } }).report.error.photoId).toEqual([
      "Choose a photo from this car",
    ]);
    for (const who of ["member", "member", "organizer"] as const) {
      const done = await outcome(() =>
        carRoute.action(post(here(), { intent: "report", reason: "offensive", note: "Rude" }, params(), who)),
      );
      expect(done).toMatchObject({ status: 302, location: here() });
    }
    const own = await outcome(() =>
      carRoute.action(post(here(), { intent: "report", reason: "spam" }, params(), "owner")),
    );
    expect(own.status).toBe(400);
    const reports = await database().db.select().from(carReports).where(eq(carReports.carId, publicCar.id));
    expect(reports).toHaveLength(2);
  });

  it("lets only staff feature a car from its page", async () => {
    const fields = { intent: "feature", carId: publicCar.id, featured: "on" };
    expect((await outcome(() => carRoute.action(post(here(), fields, params(), "member")))).status).toBe(403);
    expect((await outcome(() => carRoute.action(post(here(), fields, params(), "owner")))).status).toBe(403);
    expect((await outcome(() => carRoute.action(post(here(), fields, params(), "organizer")))).status).toBe(302);
    const home = (await homeRoute.loader(get("/", {}, "visitor"))) as { featured: { id: string }[] };
    expect(home.featured.map((car) => car.id)).toEqual([publicCar.id]);
    expect(
      (await outcome(() => carRoute.action(post(here(), { ...fields, featured: "off" }, params(), "admin")))).status,
    ).toBe(302);
    expect(((await homeRoute.loader(get("/", {}, "visitor"))) as { featured: unknown[] }).featured).toEqual([]);
  });
});

describe("the moderation queue for each role", () => {
  it("sends visitors to sign in, gives members the 403 page, and shows staff the reports", async () => {
    expect((await outcome(() => queueRoute.loader(get("/admin/moderation", {}, "visitor")))).location).toMatch(
      /^\/login\?redirectTo=/,
    );
    expect((await outcome(() => queueRoute.loader(get("/admin/moderation", {}, "member")))).status).toBe(403);
    expect((await outcome(() => queueRoute.loader(get("/admin/moderation", {}, "owner")))).status).toBe(403);
    for (const who of ["organizer", "admin"] as const) {
      const answer = (await queueRoute.loader(get("/admin/moderation", {}, who))) as {
        queue: { id: string; reports: unknown[] }[];
      };
      expect(answer.queue.find((car) => car.id === publicCar.id)?.reports).toHaveLength(2);
    }
    const decide = { intent: "decide", carId: publicCar.id, decision: "hide", note: "Rude sticker" };
    for (const who of ["visitor", "member"] as const) {
      const answer = await outcome(() => queueRoute.action(post("/admin/moderation", decide, {}, who)));
      expect(answer.status).toBe(who === "visitor" ? 302 : 403);
    }
    expect(sent).toHaveLength(0);
  });

  it("hides with a note to the owner, audited; answers bad input with field messages; restores", async () => {
    const noNote = await outcome(() =>
      queueRoute.action(
        post("/admin/moderation", { intent: "decide", carId: publicCar.id, decision: "hide" }, {}, "organizer"),
      ),
    );
    expect(noNote.status).toBe(400);
    expect(
      (noNote.body as { decision: { result: { error: Record<string, string[]> } } }).decision.result.error.note,
    ).toEqual(["Write a note to the owner: they receive it by email"]);
    const junk = await outcome(() =>
      queueRoute.action(
        post("/admin/moderation", { intent: "decide", carId: "x", decision: "nuke", note: "n" }, {}, "admin"),
      ),
    );
    expect(junk.status).toBe(400);
    const hide = { intent: "decide", carId: publicCar.id, decision: "hide", note: "Rude sticker" };
    expect((await outcome(() => queueRoute.action(post("/admin/moderation", hide, {}, "organizer")))).status).toBe(302);
    expect(sent.at(-1)).toMatchObject({ to: people.owner.email });
    expect(sent.at(-1)?.text).toContain("Rude sticker");
    for (const who of ["visitor", "member"] as const) {
      const answer = await outcome(() => carRoute.loader(get("/", { carId: publicCar.id }, who)));
      expect(answer.status).toBe(404);
    }
    const listed = (await listRoute.loader(get("/community", {}, "visitor"))) as { cars: unknown[] };
    expect(listed.cars).toHaveLength(0);
    const again = await outcome(() => queueRoute.action(post("/admin/moderation", hide, {}, "admin")));
    expect(again.status).toBe(400);
    const restore = { ...hide, decision: "restore", note: "Fixed" };
    expect((await outcome(() => queueRoute.action(post("/admin/moderation", restore, {}, "admin")))).status).toBe(302);
    expect((await outcome(() => carRoute.loader(get("/", { carId: publicCar.id }, "visitor")))).status).toBe(200);
    const audits = await database().db.select().from(auditLog).where(eq(auditLog.subjectId, publicCar.id));
    expect(audits.map((row) => row.action)).toEqual(
      expect.arrayContaining(["moderation.hide", "moderation.restore", "car.feature", "car.unfeature"]),
    );
  });
});
