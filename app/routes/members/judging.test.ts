import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { NOW } from "~/features/checkout/stock.test-support";
import { createShow } from "~/features/judging/shows.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { answerOf, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { showClasses, showClassJudges, showMarks } from "../../../db/schema";
import * as judging from "./judging";
import * as sync from "./judging-sync";
import * as overview from "./overview";

// The judge's phone page and its offline sync, called by every role: visitors sign in, members
// who judge no class of the event get the 403 page, and so do organizers and admins (they
// supervise from the Show tab) unless they judge a class themselves; a judge marks only the cars
// of their own classes.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "judging" });

const path = (eventId: string) => `/members/judging/${eventId}`;
const syncPath = (eventId: string) => `/members/judging/${eventId}/sync`;

async function addJudge(classId: string, userId: string) {
  await database().db.insert(showClassJudges).values({ classId, userId, createdAt: NOW });
}

async function judgeNamed(classId: string, name: string) {
  const judge = await testAccount(database().db, "member", name);
  await addJudge(classId, judge.id);
  return judge;
}

/** A JSON POST as the judge's phone sends it. */
function jsonArgs(who: Parameters<typeof site.args>[0], eventId: string, body: unknown) {
  const url = syncPath(eventId);
  const args = site.args(who, { path: url, params: { eventId } }) as unknown as { request: Request };
  args.request = new Request(new URL(url, "http://localhost:3000"), {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "http://localhost:3000" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return args as never;
}

async function marksOf(applicationId: string, judgeId: string) {
  return database()
    .db.select({ criterionId: showMarks.criterionId, halves: showMarks.halves })
    .from(showMarks)
    .where(and(eq(showMarks.applicationId, applicationId), eq(showMarks.judgeId, judgeId)));
}

describe("the judge's page", () => {
  it("sends visitors to sign in and gives members, organizers and admins who judge nothing here the 403 page", async () => {
    const show = await createShow(database().db, { cars: 1 });
    const params = { eventId: show.eventId };
    const paint = show.criteria[0]!;
    const body = {
      applicationId: show.entries[0]!.applicationId,
      [`mark.${paint.id}`]: "7",
    };
    expect(await statusOf(() => judging.loader(site.args(null, { path: path(show.eventId), params })))).toMatch(
      /^302 \/login\?redirectTo=/,
    );
    expect(await statusOf(() => judging.action(site.args(null, { path: path(show.eventId), params, body })))).toMatch(
      /^302 \/login/,
    );
    expect(await statusOf(() => sync.action(jsonArgs(null, show.eventId, { items: [] })))).toMatch(/^302 \/login/);
    for (const who of ["member", "organizer", "admin"] as const) {
      expect(await statusOf(() => judging.loader(site.args(who, { path: path(show.eventId), params })))).toBe(403);
      expect(await statusOf(() => judging.action(site.args(who, { path: path(show.eventId), params, body })))).toBe(
        403,
      );
      expect(await statusOf(() => sync.action(jsonArgs(who, show.eventId, { items: [] })))).toBe(403);
    }
    // A judge of another show's class is no judge here.
    const elsewhere = await createShow(database().db, { cars: 1 });
    const otherJudge = await judgeNamed(elsewhere.classId, "Other Show");
    expect(await statusOf(() => judging.loader(site.args(otherJudge, { path: path(show.eventId), params })))).toBe(403);
    expect(
      await statusOf(() => judging.loader(site.args("member", { path: path("nope"), params: { eventId: "nope" } }))),
    ).toBe(404);
    expect(await marksOf(show.entries[0]!.applicationId, site.accounts.member.id)).toEqual([]);
    // The sync address is no page.
    expect(await statusOf(() => sync.loader())).toMatch(/^405/);
  });

  it("shows a judge their own classes and cars, and saves marks posted by a form without script", async () => {
    const show = await createShow(database().db, { cars: 2 });
    const [other] = await database()
      .db.insert(showClasses)
      .values({
        eventId: show.eventId,
        name: "Pre-1990 hot hatch",
        scheme: "weighted",
        criteria: [{ id: "c1", name: "Paint", weight: 100 }],
        position: 1,
        createdAt: NOW,
      })
      .returning({ id: showClasses.id });
    const judge = await judgeNamed(show.classId, "Jo Judge");
    const params = { eventId: show.eventId };
    const page = await answerOf(() =>
      judging.loader(site.args(judge, { path: `${path(show.eventId)}?number=2`, params })),
    );
    expect(page.data).toMatchObject({
      title: expect.any(String),
      number: "2",
      car: null,
      sheet: {
        eventId: show.eventId,
        classes: [
          {
            id: show.classId,
            name: "Modified JDM",
            closed: false,
            cars: [
              { showNumber: 1, carLabel: "1991 Mazda MX-5 number 1", marks: {}, total: null },
              { showNumber: 2, voteKey: show.entries[1]!.voteKey },
            ],
          },
        ],
      },
    });
    expect(JSON.stringify(page.data)).not.toContain(other!.id);

    const [paint, engine, interior, stance] = show.criteria;
    const car = show.entries[1]!.applicationId;
    const saved = await answerOf(() =>
      judging.action(
        site.args(judge, {
          path: path(show.eventId),
          params,
          body: {
            applicationId: car,
            [`mark.${paint!.id}`]: "10",
            [`mark.${engine!.id}`]: "7,5",
            [`mark.${interior!.id}`]: "",
            [`mark.${stance!.id}`]: "4",
          },
        }),
      ),
    );
    expect(saved).toEqual({
      status: 200,
      data: { saved: { applicationId: car, outcome: "saved", message: "Marks saved" } },
    });
    expect(await marksOf(car, judge.id)).toEqual(
      expect.arrayContaining([
        { criterionId: paint!.id, halves: 20 },
        { criterionId: engine!.id, halves: 15 },
        { criterionId: stance!.id, halves: 8 },
      ]),
    );
    const after = await answerOf(() => judging.loader(site.args(judge, { path: path(show.eventId), params })));
    const cars = (after.data as { sheet: { classes: { cars: { marks: object }[] }[] } }).sheet.classes[0]!.cars;
    expect(cars[1]!.marks).toEqual({ [paint!.id]: 10, [engine!.id]: 7.5, [stance!.id]: 4 });
  });

  it("answers bad marks with the criterion's message and what was typed, a closed class by name, and another class's car as not the judge's", async () => {
    const show = await createShow(database().db, { cars: 1 });
    const elsewhere = await createShow(database().db, { cars: 1 });
    const judge = await judgeNamed(show.classId, "Jo Judge");
    const params = { eventId: show.eventId };
    const [paint, engine] = show.criteria;
    const car = show.entries[0]!.applicationId;
    const post = (body: Record<string, string>) =>
      answerOf(() => judging.action(site.args(judge, { path: path(show.eventId), params, body })));

    expect(await post({ applicationId: car, [`mark.${paint!.id}`]: "7.3", [`mark.${engine!.id}`]: "6" })).toEqual({
      status: 400,
      headers: expect.any(Headers),
      data: {
        problem: { applicationId: car, field: paint!.id, message: "Mark Paint in halves, like 7.5" },
        values: { [paint!.id]: "7.3", [engine!.id]: "6" },
      },
    });
    expect(await post({ applicationId: car, [`mark.${paint!.id}`]: "lots" })).toMatchObject({
      status: 400,
      data: { problem: { field: paint!.id, message: "Mark Paint from 0 to 10" } },
    });
    expect(await post({ applicationId: car, [`mark.${paint!.id}`]: " " })).toMatchObject({
      status: 400,
      data: { problem: { field: "", message: "Mark at least one criterion" } },
    });
    expect(await post({ applicationId: "not-a-car", [`mark.${paint!.id}`]: "5" })).toMatchObject({
      status: 400,
      data: { problem: { field: "applicationId", message: "Choose a car from the list" } },
    });
    expect(
      await post({ applicationId: elsewhere.entries[0]!.applicationId, [`mark.${paint!.id}`]: "5" }),
    ).toMatchObject({ status: 404, data: { problem: { message: "This car is not in a class you judge" } } });
    await database().db.update(showClasses).set({ closedAt: NOW }).where(eq(showClasses.id, show.classId));
    expect(await post({ applicationId: car, [`mark.${paint!.id}`]: "5" })).toMatchObject({
      status: 409,
      data: { problem: { message: "Marking for Modified JDM is closed" } },
    });
    expect(await marksOf(car, judge.id)).toEqual([]);
  });

  it("lets an organizer or an admin who judges a class mark it like any judge", async () => {
    const show = await createShow(database().db, { cars: 2 });
    const paint = show.criteria[0]!;
    const params = { eventId: show.eventId };
    for (const [index, who] of (["organizer", "admin"] as const).entries()) {
      await addJudge(show.classId, site.accounts[who].id);
      const page = await answerOf(() => judging.loader(site.args(who, { path: path(show.eventId), params })));
      expect(page.data).toMatchObject({ sheet: { classes: [{ name: "Modified JDM" }] } });
      const car = show.entries[index]!.applicationId;
      const saved = await answerOf(() =>
        judging.action(
          site.args(who, { path: path(show.eventId), params, body: { applicationId: car, [`mark.${paint.id}`]: "9" } }),
        ),
      );
      expect(saved.data).toMatchObject({ saved: { outcome: "saved" } });
      expect(await marksOf(car, site.accounts[who].id)).toEqual([{ criterionId: paint.id, halves: 18 }]);
    }
  });
});

describe("the judge's offline sync", () => {
  it("answers each save kept on the phone: saved, stale or refused; the same batch again changes nothing", async () => {
    const show = await createShow(database().db, { cars: 2 });
    const judge = await judgeNamed(show.classId, "Jo Judge");
    const [paint] = show.criteria;
    const [first, second] = show.entries;
    const earlier = new Date(Date.now() - 10 * 60_000).toISOString();
    const later = new Date(Date.now() - 5 * 60_000).toISOString();
    const items = [
      {
        id: randomUUID(),
        applicationId: first!.applicationId,
        savedAt: later,
        marks: [{ criterionId: paint!.id, value: 8 }],
      },
      {
        id: randomUUID(),
        applicationId: first!.applicationId,
        savedAt: earlier,
        marks: [{ criterionId: paint!.id, value: 2 }],
      },
      {
        id: randomUUID(),
        applicationId: second!.applicationId,
        savedAt: earlier,
        marks: [{ criterionId: paint!.id, value: 10.5 }],
      },
    ];
    const synced = await answerOf(() => sync.action(jsonArgs(judge, show.eventId, { items })));
    const expected = {
      synced: [
        { id: items[0]!.id, outcome: "saved", message: "Marks saved" },
        {
          id: items[1]!.id,
          outcome: "stale",
          message: "You had saved newer marks for this car already: those are kept",
        },
        { id: items[2]!.id, outcome: "refused", message: "Mark Paint from 0 to 10" },
      ],
    };
    expect(synced).toMatchObject({ status: 200, json: expected });
    expect(synced.headers?.get("Cache-Control")).toBe("private, no-store");
    const replayed = await answerOf(() => sync.action(jsonArgs(judge, show.eventId, { items })));
    expect(replayed.json).toEqual(expected);
    expect(await marksOf(first!.applicationId, judge.id)).toEqual([{ criterionId: paint!.id, halves: 16 }]);
    expect(await marksOf(second!.applicationId, judge.id)).toEqual([]);
  });

  it("refuses a body that is not JSON or not a list of saves with a message, never a 500", async () => {
    const show = await createShow(database().db, { cars: 1 });
    const judge = await judgeNamed(show.classId, "Jo Judge");
    expect(await answerOf(() => sync.action(jsonArgs(judge, show.eventId, "{not json")))).toMatchObject({
      status: 400,
      json: { error: "Send the marks as JSON" },
    });
    expect(
      await answerOf(() =>
        sync.action(
          jsonArgs(judge, show.eventId, {
            items: [{ id: "x", applicationId: show.entries[0]!.applicationId, savedAt: "now", marks: [] }],
          }),
        ),
      ),
    ).toMatchObject({ status: 400, json: { error: "Each save needs its id" } });
    expect(
      await answerOf(() =>
        sync.action(
          jsonArgs(judge, show.eventId, {
            items: [
              {
                id: randomUUID(),
                applicationId: show.entries[0]!.applicationId,
                savedAt: new Date().toISOString(),
                marks: [],
              },
            ],
          }),
        ),
      ),
    ).toMatchObject({ status: 400, json: { error: "Mark at least one criterion" } });
  });

  it("takes the saves of an organizer or admin who judges the class, and no one else's", async () => {
    const show = await createShow(database().db, { cars: 1 });
    const paint = show.criteria[0]!;
    const item = () => ({
      id: randomUUID(),
      applicationId: show.entries[0]!.applicationId,
      savedAt: new Date().toISOString(),
      marks: [{ criterionId: paint.id, value: 6.5 }],
    });
    expect(await statusOf(() => sync.action(jsonArgs("organizer", show.eventId, { items: [item()] })))).toBe(403);
    for (const who of ["organizer", "admin"] as const) {
      await addJudge(show.classId, site.accounts[who].id);
      const synced = await answerOf(() => sync.action(jsonArgs(who, show.eventId, { items: [item()] })));
      expect(synced.json).toMatchObject({ synced: [{ outcome: "saved" }] });
      expect(await marksOf(show.entries[0]!.applicationId, site.accounts[who].id)).toEqual([
        { criterionId: paint.id, halves: 13 },
      ]);
    }
  });
});

describe("the members' overview", () => {
  it("lists the shows a member judges, with their classes, and none for a member who judges nothing", async () => {
    const show = await createShow(database().db, { cars: 1 });
    const judge = await judgeNamed(show.classId, "Jo Judge");
    const theirs = await answerOf(() => overview.loader(site.args(judge, { path: "/members" })));
    expect(theirs.data).toMatchObject({
      judgingDuties: [
        { eventId: show.eventId, title: expect.any(String), text: expect.stringMatching(/^Modified JDM · /) },
      ],
    });
    const stranger = await testAccount(database().db, "member", "Stan Ger");
    const none = await answerOf(() => overview.loader(site.args(stranger, { path: "/members" })));
    expect(none.data).toMatchObject({ judgingDuties: [] });
  });
});
