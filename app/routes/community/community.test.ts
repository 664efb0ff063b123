import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { insertCar, insertMember, type TestMember } from "~/features/community/cars.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testSessionUser } from "~/server/session-user.test-support";
import { storageFor } from "~/server/storage/storage.server";
import { answerOf, recordingOutbox, routeTestSite } from "~/web/route-calls.test-support";
import { auditLog, carLikes, carReports, cars, users } from "../../../db/schema";
import * as queueRoute from "../admin/moderation/queue";
import * as settingsRoute from "../members/settings";
import * as homeRoute from "../site/home";
import * as carRoute from "./car";
import * as listRoute from "./list";
import * as profileRoute from "./profile";

// The community pages and moderation, called as React Router calls them, for each role.
const database = freshDatabasePerFile();
type Who = "visitor" | "owner" | "member" | "organizer" | "admin" | "quiet";
const people = {} as Record<Exclude<Who, "visitor">, TestMember>;
const { outbox, sent } = recordingOutbox();
const site = routeTestSite(database, {
  name: "community",
  roles: [],
  runtime: (env) => ({ storage: storageFor(env), jobs: { enqueue: async () => null }, outbox }),
});
let publicCar: { id: string; photoIds: string[] };
let privateCar: { id: string; photoIds: string[] };
let membersCar: { id: string; photoIds: string[] };
let quietCar: { id: string; photoIds: string[] };
const AVATAR = "/media/avatars/0123456789abcdef.webp";

beforeAll(async () => {
  const { db } = database();
  people.owner = await insertMember(db, { handle: "route_owner", town: "Leeds", image: AVATAR });
  people.member = await insertMember(db, { handle: "route_member" });
  people.organizer = await insertMember(db, { handle: "route_org", role: "organizer" });
  people.admin = await insertMember(db, { handle: "route_admin", role: "admin" });
  publicCar = await insertCar(db, people.owner.id, { make: "Lotus", model: "Elise", year: 1998, photos: 2 });
  privateCar = await insertCar(db, people.owner.id, { make: "Lotus", model: "Exige", visibility: "private" });
  membersCar = await insertCar(db, people.owner.id, { make: "Lotus", model: "Evora", visibility: "members" });
  // A quiet member: cars for members only, private, and a public one that moderators hid.
  people.quiet = await insertMember(db, { handle: "route_quiet", town: "York", image: AVATAR });
  quietCar = await insertCar(db, people.quiet.id, { make: "Mazda", model: "MX-5", visibility: "members" });
  await insertCar(db, people.quiet.id, { make: "Mazda", model: "RX-7", visibility: "private" });
  await insertCar(db, people.quiet.id, { make: "Mazda", model: "RX-8", hidden: true });
});

/** Who is asking: nobody signed in, or one of the people above. */
const userOf = (who: Who) => (who === "visitor" ? null : testSessionUser({ ...people[who], role: people[who].role }));

const get = (path: string, params: Record<string, string>, who: Who) => site.args(userOf(who), { path, params });
const post = (path: string, body: Record<string, string>, params: Record<string, string>, who: Who) =>
  site.args(userOf(who), { path, params, body });

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
      owner: ["Elise", "Evora", "Exige", "MX-5"],
      member: ["Elise", "Evora", "MX-5"],
      organizer: ["Elise", "Evora", "MX-5", "RX-8"],
      admin: ["Elise", "Evora", "MX-5", "RX-8"],
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
      const answer = await answerOf(() =>
        profileRoute.loader(get("/community/route_owner", { handle: "route_owner" }, who)),
      );
      expect(answer.status).toBe(200);
      const body = answer.data as { cars: unknown[]; preview: boolean };
      expect(body.cars.length).toBe(who === "visitor" ? 1 : who === "owner" ? 3 : 2);
      expect(body.preview).toBe(false);
    }
    expect(
      (await answerOf(() => profileRoute.loader(get("/community/ghost", { handle: "ghost" }, "member")))).status,
    ).toBe(404);
  });

  it("answers 404 for a member with no public car to everyone but that member, who sees a preview", async () => {
    const profile = (who: Who) =>
      answerOf(() => profileRoute.loader(get("/community/route_quiet", { handle: "route_quiet" }, who)));
    // Visitors, other members (even one who may see the members-only car) and staff alike.
    for (const who of everyone) expect((await profile(who)).status, who).toBe(404);
    const own = await profile("quiet");
    expect(own.status).toBe(200);
    const body = own.data as { preview: boolean; cars: { model: string }[] };
    expect(body.preview).toBe(true);
    expect(body.cars.map((car) => car.model).sort()).toEqual(["MX-5", "RX-7", "RX-8"]);
    // The members-only car's page does not link to a profile that would answer 404.
    for (const [who, open] of [
      ["member", false],
      ["admin", false],
      ["quiet", true],
    ] as const) {
      const car = await answerOf(() => carRoute.loader(get("/", { carId: quietCar.id }, who)));
      expect((car.data as { car: { ownerProfileOpen: boolean } }).car.ownerProfileOpen, who).toBe(open);
    }
    const shared = await answerOf(() => carRoute.loader(get("/", { carId: publicCar.id }, "visitor")));
    expect((shared.data as { car: { ownerProfileOpen: boolean } }).car.ownerProfileOpen).toBe(true);
  });

  it("shows a member's town and photo only once they chose to, to every role", async () => {
    const { db } = database();
    const seenBy = async (who: Who) => {
      const profile = await answerOf(() =>
        profileRoute.loader(get("/community/route_owner", { handle: "route_owner" }, who)),
      );
      const car = await answerOf(() => carRoute.loader(get("/", { carId: publicCar.id }, who)));
      return { member: (profile.data as { member: { town: string | null; image: string | null } }).member, car };
    };
    for (const who of everyone) {
      const { member, car } = await seenBy(who);
      expect(member, who).toMatchObject({ town: null, image: null });
      for (const page of [member, car.data]) {
        expect(JSON.stringify(page)).not.toContain("Leeds");
        expect(JSON.stringify(page)).not.toContain(AVATAR);
      }
    }
    await db.update(users).set({ townPublic: true }).where(eq(users.id, people.owner.id));
    for (const who of everyone) expect((await seenBy(who)).member, who).toMatchObject({ town: "Leeds", image: null });
    await db.update(users).set({ townPublic: false, avatarPublic: true }).where(eq(users.id, people.owner.id));
    for (const who of everyone) expect((await seenBy(who)).member, who).toMatchObject({ town: null, image: AVATAR });
    await db.update(users).set({ avatarPublic: false }).where(eq(users.id, people.owner.id));
  });

  it("takes the member's choice from their settings, unticked until they tick it", async () => {
    const profileSeenBy = async (who: Who) =>
      (
        (await profileRoute.loader(get("/community/route_owner", { handle: "route_owner" }, who))) as {
          member: { town: string | null; image: string | null };
        }
      ).member;
    const save = (choices: Record<string, string>) =>
      answerOf(() =>
        settingsRoute.action(
          post(
            "/settings",
            { intent: "profile", handle: "route_owner", name: "Member route_owner", town: "Leeds", ...choices },
            {},
            "owner",
          ),
        ),
      );
    expect((await save({ townPublic: "on", avatarPublic: "on" })).status).toBe(302);
    expect(await profileSeenBy("visitor")).toEqual(expect.objectContaining({ town: "Leeds", image: AVATAR }));
    const settings = (await settingsRoute.loader(get("/settings", {}, "owner"))) as {
      settings: { profile: { townPublic: boolean; avatarPublic: boolean } };
    };
    expect(settings.settings.profile).toMatchObject({ townPublic: true, avatarPublic: true });
    // Unticked boxes send nothing: saving the form without them hides both again.
    expect((await save({})).status).toBe(302);
    expect(await profileSeenBy("member")).toEqual(expect.objectContaining({ town: null, image: null }));
  });

  it("opens a car only for those who may see it, with a 404 that leaks nothing otherwise", async () => {
    const matrix: [string, Who[]][] = [
      [publicCar.id, everyone],
      [membersCar.id, ["owner", "member", "organizer", "admin"]],
      [privateCar.id, ["owner"]],
    ];
    for (const [carId, allowed] of matrix) {
      for (const who of everyone) {
        const answer = await answerOf(() => carRoute.loader(get(`/community/cars/${carId}`, { carId }, who)));
        expect(answer.status, `${carId} as ${who}`).toBe(allowed.includes(who) ? 200 : 404);
      }
    }
    const visitor = await answerOf(() => carRoute.loader(get("/", { carId: publicCar.id }, "visitor")));
    const body = visitor.data as { car: { plate: string | null }; jsonLd: string; imageUrl: string; can: string };
    expect(body.car.plate).toBeNull();
    expect(body.jsonLd).toContain('"@type":"Car"');
    expect(body.jsonLd).not.toContain("AB12");
    expect(body.imageUrl).toMatch(/\/media\/cars\/[0-9a-f]{32}-1600\.webp$/);
    expect(body.can).toBe("sign-in");
    const own = await answerOf(() => carRoute.loader(get("/", { carId: publicCar.id }, "owner")));
    expect((own.data as { car: { plate: string } }).car.plate).toBe("AB12 CDE");
    for (const carId of ["nope", "00000000-0000-4000-8000-000000000000"]) {
      expect((await answerOf(() => carRoute.loader(get("/", { carId }, "admin")))).status).toBe(404);
    }
  });
});

describe("likes and reports on the car page", () => {
  const here = () => `/community/cars/${publicCar.id}`;
  const params = () => ({ carId: publicCar.id });

  it("sends visitors to sign in, refuses the owner, and counts a member's like once, with or without scripts", async () => {
    const visitor = await answerOf(() => carRoute.action(post(here(), { intent: "like" }, params(), "visitor")));
    expect(visitor).toMatchObject({ status: 302, location: expect.stringMatching(/^\/login\?redirectTo=/) });
    const owner = await answerOf(() => carRoute.action(post(here(), { intent: "like" }, params(), "owner")));
    expect(owner.status).toBe(400);
    const plain = await answerOf(() => carRoute.action(post(here(), { intent: "like" }, params(), "member")));
    expect(plain).toMatchObject({ status: 303, location: `${here()}#likes` });
    const again = await answerOf(() =>
      carRoute.action(post(here(), { intent: "like", reply: "data" }, params(), "member")),
    );
    expect(again.data).toEqual({ like: { liked: true, likeCount: 1 } });
    for (const who of ["organizer", "admin"] as const) {
      await carRoute.action(post(here(), { intent: "like", reply: "data" }, params(), who));
    }
    const [row] = await database().db.select({ likeCount: cars.likeCount }).from(cars).where(eq(cars.id, publicCar.id));
    expect(row?.likeCount).toBe(3);
    await carRoute.action(post(here(), { intent: "unlike", reply: "data" }, params(), "admin"));
    const likes = await database().db.select().from(carLikes).where(eq(carLikes.carId, publicCar.id));
    expect(likes).toHaveLength(2);
    const hidden = await answerOf(() =>
      carRoute.action(post(`/community/cars/${privateCar.id}`, { intent: "like" }, { carId: privateCar.id }, "member")),
    );
    expect(hidden.status).toBe(404);
    const unknown = await answerOf(() => carRoute.action(post(here(), { intent: "<script>" }, params(), "member")));
    expect(unknown.status).toBe(400);
  });

  it("takes a member's report with field messages for bad input, once", async () => {
    const bad = await answerOf(() =>
      carRoute.action(
        post(here(), { intent: "report", reason: "because", note: "x".repeat(2000) }, params(), "member"),
      ),
    );
    expect(bad.status).toBe(400);
    const errors = (bad.data as { report: { error: Record<string, string[]> } }).report.error;
    expect(errors.reason?.[0]).toBe("Choose why you are reporting this");
    expect(errors.note?.[0]).toBe("Use at most 1000 characters");
    const wrongPhoto = await answerOf(() =>
      carRoute.action(
        post(here(), { intent: "report", reason: "plate", photoId: privateCar.photoIds[0]! }, params(), "member"),
      ),
    );
    expect((wrongPhoto.data as { report: { error: Record<string, string[]> } }).report.error.photoId).toEqual([
      "Choose a photo from this car",
    ]);
    for (const who of ["member", "member", "organizer"] as const) {
      const done = await answerOf(() =>
        carRoute.action(post(here(), { intent: "report", reason: "offensive", note: "Rude" }, params(), who)),
      );
      expect(done).toMatchObject({ status: 302, location: here() });
    }
    const own = await answerOf(() =>
      carRoute.action(post(here(), { intent: "report", reason: "spam" }, params(), "owner")),
    );
    expect(own.status).toBe(400);
    const reports = await database().db.select().from(carReports).where(eq(carReports.carId, publicCar.id));
    expect(reports).toHaveLength(2);
  });

  it("lets only staff feature a car from its page", async () => {
    const fields = { intent: "feature", carId: publicCar.id, featured: "on" };
    expect((await answerOf(() => carRoute.action(post(here(), fields, params(), "member")))).status).toBe(403);
    expect((await answerOf(() => carRoute.action(post(here(), fields, params(), "owner")))).status).toBe(403);
    expect((await answerOf(() => carRoute.action(post(here(), fields, params(), "organizer")))).status).toBe(302);
    const home = (await homeRoute.loader(get("/", {}, "visitor"))) as { featured: { id: string }[] };
    expect(home.featured.map((car) => car.id)).toEqual([publicCar.id]);
    expect(
      (await answerOf(() => carRoute.action(post(here(), { ...fields, featured: "off" }, params(), "admin")))).status,
    ).toBe(302);
    expect(((await homeRoute.loader(get("/", {}, "visitor"))) as { featured: unknown[] }).featured).toEqual([]);
  });
});

describe("the moderation queue for each role", () => {
  it("sends visitors to sign in, gives members the 403 page, and shows staff the reports", async () => {
    expect((await answerOf(() => queueRoute.loader(get("/admin/moderation", {}, "visitor")))).location).toMatch(
      /^\/login\?redirectTo=/,
    );
    expect((await answerOf(() => queueRoute.loader(get("/admin/moderation", {}, "member")))).status).toBe(403);
    expect((await answerOf(() => queueRoute.loader(get("/admin/moderation", {}, "owner")))).status).toBe(403);
    for (const who of ["organizer", "admin"] as const) {
      const answer = (await queueRoute.loader(get("/admin/moderation", {}, who))) as {
        queue: { id: string; reports: unknown[] }[];
      };
      expect(answer.queue.find((car) => car.id === publicCar.id)?.reports).toHaveLength(2);
    }
    const decide = { intent: "decide", carId: publicCar.id, decision: "hide", note: "Rude sticker" };
    for (const who of ["visitor", "member"] as const) {
      const answer = await answerOf(() => queueRoute.action(post("/admin/moderation", decide, {}, who)));
      expect(answer.status).toBe(who === "visitor" ? 302 : 403);
    }
    expect(sent).toHaveLength(0);
  });

  it("hides with a note to the owner, audited; answers bad input with field messages; restores", async () => {
    const noNote = await answerOf(() =>
      queueRoute.action(
        post("/admin/moderation", { intent: "decide", carId: publicCar.id, decision: "hide" }, {}, "organizer"),
      ),
    );
    expect(noNote.status).toBe(400);
    expect(
      (noNote.data as { decision: { result: { error: Record<string, string[]> } } }).decision.result.error.note,
    ).toEqual(["Write a note to the owner: they receive it by email"]);
    const junk = await answerOf(() =>
      queueRoute.action(
        post("/admin/moderation", { intent: "decide", carId: "x", decision: "nuke", note: "n" }, {}, "admin"),
      ),
    );
    expect(junk.status).toBe(400);
    const hide = { intent: "decide", carId: publicCar.id, decision: "hide", note: "Rude sticker" };
    expect((await answerOf(() => queueRoute.action(post("/admin/moderation", hide, {}, "organizer")))).status).toBe(
      302,
    );
    expect(sent.at(-1)).toMatchObject({ to: people.owner.email });
    expect(sent.at(-1)?.text).toContain("Rude sticker");
    for (const who of ["visitor", "member"] as const) {
      const answer = await answerOf(() => carRoute.loader(get("/", { carId: publicCar.id }, who)));
      expect(answer.status).toBe(404);
    }
    const listed = (await listRoute.loader(get("/community", {}, "visitor"))) as { cars: unknown[] };
    expect(listed.cars).toHaveLength(0);
    const again = await answerOf(() => queueRoute.action(post("/admin/moderation", hide, {}, "admin")));
    expect(again.status).toBe(400);
    const restore = { ...hide, decision: "restore", note: "Fixed" };
    expect((await answerOf(() => queueRoute.action(post("/admin/moderation", restore, {}, "admin")))).status).toBe(302);
    expect((await answerOf(() => carRoute.loader(get("/", { carId: publicCar.id }, "visitor")))).status).toBe(200);
    const audits = await database().db.select().from(auditLog).where(eq(auditLog.subjectId, publicCar.id));
    expect(audits.map((row) => row.action)).toEqual(
      expect.arrayContaining(["moderation.hide", "moderation.restore", "car.feature", "car.unfeature"]),
    );
  });
});
