import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { NOW } from "~/features/checkout/stock.test-support";
import type { Db } from "~/server/db/client.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { events, showCarApplications, showClasses, showClassJudges, showMarks } from "../../../db/schema";
import { judgesAt, judgingDutiesOf, judgingSheet, saveMarks, syncMarks } from "./marking.server";
import { createShow } from "./shows.test-support";

const database = freshDatabasePerFile();

const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

async function judgeOf(db: Db, classId: string, name = "Jo Judge") {
  const judge = await testAccount(db, "member", name);
  await db.insert(showClassJudges).values({ classId, userId: judge.id, createdAt: NOW });
  return judge;
}

async function storedMarks(db: Db, applicationId: string, judgeId: string) {
  return db
    .select({ criterionId: showMarks.criterionId, halves: showMarks.halves, savedAt: showMarks.savedAt })
    .from(showMarks)
    .where(and(eq(showMarks.applicationId, applicationId), eq(showMarks.judgeId, judgeId)));
}

describe("a judge's sheet", () => {
  it("holds only the judge's own classes at this event, with their cars by number and the judge's own marks", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 2 });
    const [other] = await db
      .insert(showClasses)
      .values({
        eventId: show.eventId,
        name: "Pre-1990 hot hatch",
        scheme: "weighted",
        criteria: [{ id: "c1", name: "Paint", weight: 100 }],
        position: 1,
        createdAt: NOW,
      })
      .returning({ id: showClasses.id });
    const judge = await judgeOf(db, show.classId);
    const colleague = await judgeOf(db, show.classId, "Col League");
    await judgeOf(db, other!.id, "Other Judge");
    const [paint, engine, interior, stance] = show.criteria;
    await saveMarks(db, {
      eventId: show.eventId,
      judgeId: colleague.id,
      applicationId: show.entries[0]!.applicationId,
      marks: [{ criterionId: paint!.id, value: 3 }],
      savedAt: NOW,
      now: NOW,
    });
    const saved = await saveMarks(db, {
      eventId: show.eventId,
      judgeId: judge.id,
      applicationId: show.entries[0]!.applicationId,
      marks: [
        { criterionId: paint!.id, value: 10 },
        { criterionId: engine!.id, value: 5 },
        { criterionId: interior!.id, value: 7.5 },
        { criterionId: stance!.id, value: 0 },
      ],
      savedAt: NOW,
      now: NOW,
    });
    expect(saved).toEqual({ ok: true, outcome: "saved", message: "Marks saved", kept: [] });

    const sheet = await judgingSheet(db, { eventId: show.eventId, userId: judge.id });
    expect(sheet!.classes).toHaveLength(1);
    expect(sheet!.classes[0]).toMatchObject({ name: "Modified JDM", scheme: "weighted", closed: false });
    expect(sheet!.classes[0]!.cars).toEqual([
      {
        applicationId: show.entries[0]!.applicationId,
        showNumber: 1,
        carLabel: "1991 Mazda MX-5 number 1",
        voteKey: show.entries[0]!.voteKey,
        marks: { [paint!.id]: 10, [engine!.id]: 5, [interior!.id]: 7.5, [stance!.id]: 0 },
        total: 30 + 15 + 15 + 0,
      },
      expect.objectContaining({ showNumber: 2, marks: {}, total: null }),
    ]);
    expect(await storedMarks(db, show.entries[0]!.applicationId, judge.id)).toContainEqual({
      criterionId: interior!.id,
      halves: 15,
      savedAt: NOW,
    });

    // A member who judges nothing here has an empty sheet; an event that is not there has none.
    const stranger = await testAccount(db, "member", "Stan Ger");
    expect((await judgingSheet(db, { eventId: show.eventId, userId: stranger.id }))!.classes).toEqual([]);
    expect(await judgesAt(db, { eventId: show.eventId, userId: stranger.id })).toBe(false);
    expect(await judgesAt(db, { eventId: show.eventId, userId: judge.id })).toBe(true);
    expect(await judgingSheet(db, { eventId: randomUUID(), userId: judge.id })).toBeNull();
  });

  it("leaves out cars no longer in the show", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 2 });
    const judge = await judgeOf(db, show.classId);
    await db
      .update(showCarApplications)
      .set({ status: "withdrawn" })
      .where(eq(showCarApplications.id, show.entries[1]!.applicationId));
    const sheet = await judgingSheet(db, { eventId: show.eventId, userId: judge.id });
    expect(sheet!.classes[0]!.cars.map((car) => car.showNumber)).toEqual([1]);
    const refused = await saveMarks(db, {
      eventId: show.eventId,
      judgeId: judge.id,
      applicationId: show.entries[1]!.applicationId,
      marks: [{ criterionId: show.criteria[0]!.id, value: 5 }],
      savedAt: NOW,
      now: NOW,
    });
    expect(refused).toMatchObject({ ok: false, message: "This car is not in a class you judge" });
  });

  it("lists the member's judging duties from yesterday on, with the classes they judge", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 1 });
    const past = await createShow(db, { cars: 1 });
    await db
      .update(events)
      .set({ startsAt: new Date("2027-04-01T09:00:00Z"), endsAt: new Date("2027-04-01T17:00:00Z") })
      .where(eq(events.id, past.eventId));
    const judge = await judgeOf(db, show.classId);
    await db.insert(showClassJudges).values({ classId: past.classId, userId: judge.id, createdAt: NOW });
    expect(await judgingDutiesOf(db, judge.id, NOW)).toEqual([
      {
        eventId: show.eventId,
        title: expect.any(String),
        startsAt: expect.any(Date),
        timeZone: "Europe/London",
        classes: ["Modified JDM"],
      },
    ]);
  });
});

describe("saving marks", () => {
  it("refuses a car outside the judge's classes, a criterion not in the class, and marks out of range or not in halves", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 1 });
    const elsewhere = await createShow(db, { cars: 1 });
    const judge = await judgeOf(db, show.classId);
    const [paint] = show.criteria;
    const save = (applicationId: string, marks: { criterionId: string; value: number }[], eventId = show.eventId) =>
      saveMarks(db, { eventId, judgeId: judge.id, applicationId, marks, savedAt: NOW, now: NOW });
    const car = show.entries[0]!.applicationId;

    expect(await save(elsewhere.entries[0]!.applicationId, [{ criterionId: paint!.id, value: 5 }])).toMatchObject({
      ok: false,
      status: 404,
      message: "This car is not in a class you judge",
    });
    expect(
      await save(elsewhere.entries[0]!.applicationId, [{ criterionId: paint!.id, value: 5 }], elsewhere.eventId),
    ).toMatchObject({ ok: false, status: 404 });
    // Another judge of another class cannot mark this one.
    const outsider = await judgeOf(db, elsewhere.classId, "Out Sider");
    expect(
      await saveMarks(db, {
        eventId: show.eventId,
        judgeId: outsider.id,
        applicationId: car,
        marks: [{ criterionId: paint!.id, value: 5 }],
        savedAt: NOW,
        now: NOW,
      }),
    ).toMatchObject({ ok: false, status: 404 });
    expect(await save(car, [{ criterionId: "made-up", value: 5 }])).toMatchObject({
      ok: false,
      status: 400,
      message: "Modified JDM has no such criterion any more: reload the page",
    });
    expect(await save(car, [{ criterionId: paint!.id, value: 11 }])).toEqual({
      ok: false,
      field: paint!.id,
      status: 400,
      message: "Mark Paint from 0 to 10",
    });
    expect(await save(car, [{ criterionId: paint!.id, value: 7.3 }])).toMatchObject({
      field: paint!.id,
      message: "Mark Paint in halves, like 7.5",
    });
    expect(await save(car, [{ criterionId: paint!.id, value: Number.NaN }])).toMatchObject({
      message: "Mark Paint from 0 to 10",
    });
    expect(await storedMarks(db, car, judge.id)).toEqual([]);
  });

  it("limits a deduction class's marks to each criterion's weight", async () => {
    const { db } = database();
    const show = await createShow(db, {
      cars: 1,
      scheme: "deduction",
      criteria: [
        { name: "Rust", weight: 40 },
        { name: "Panel gaps", weight: 60 },
      ],
    });
    const judge = await judgeOf(db, show.classId);
    const [rust, gaps] = show.criteria;
    const car = show.entries[0]!.applicationId;
    const save = (marks: { criterionId: string; value: number }[]) =>
      saveMarks(db, { eventId: show.eventId, judgeId: judge.id, applicationId: car, marks, savedAt: NOW, now: NOW });
    expect(await save([{ criterionId: rust!.id, value: 40.5 }])).toMatchObject({
      ok: false,
      field: rust!.id,
      message: "Take off 0 to 40 for Rust",
    });
    expect(
      await save([
        { criterionId: rust!.id, value: 40 },
        { criterionId: gaps!.id, value: 12.5 },
      ]),
    ).toMatchObject({ ok: true, outcome: "saved" });
    const sheet = await judgingSheet(db, { eventId: show.eventId, userId: judge.id });
    expect(sheet!.classes[0]!.cars[0]).toMatchObject({ total: 100 - 40 - 12.5 });
    expect(await storedMarks(db, car, judge.id)).toContainEqual({ criterionId: gaps!.id, halves: 25, savedAt: NOW });
  });

  it("refuses marks once the class is closed, naming it", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 1 });
    const judge = await judgeOf(db, show.classId);
    await db.update(showClasses).set({ closedAt: NOW }).where(eq(showClasses.id, show.classId));
    const refused = await saveMarks(db, {
      eventId: show.eventId,
      judgeId: judge.id,
      applicationId: show.entries[0]!.applicationId,
      marks: [{ criterionId: show.criteria[0]!.id, value: 5 }],
      savedAt: NOW,
      now: NOW,
    });
    expect(refused).toEqual({ ok: false, field: "", status: 409, message: "Marking for Modified JDM is closed" });
    const sheet = await judgingSheet(db, { eventId: show.eventId, userId: judge.id });
    expect(sheet!.classes[0]!.closed).toBe(true);
  });

  it("keeps a newer mark when an older save arrives late, and says so", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 1 });
    const judge = await judgeOf(db, show.classId);
    const [paint, engine] = show.criteria;
    const car = show.entries[0]!.applicationId;
    const save = (marks: { criterionId: string; value: number }[], savedAt: Date) =>
      saveMarks(db, { eventId: show.eventId, judgeId: judge.id, applicationId: car, marks, savedAt, now: minutes(30) });

    expect(await save([{ criterionId: paint!.id, value: 8 }], minutes(10))).toMatchObject({ outcome: "saved" });
    expect(await save([{ criterionId: paint!.id, value: 4 }], minutes(5))).toEqual({
      ok: true,
      outcome: "stale",
      message: "You had saved newer marks for this car already: those are kept",
      kept: ["Paint"],
    });
    expect(
      await save(
        [
          { criterionId: paint!.id, value: 4 },
          { criterionId: engine!.id, value: 6 },
        ],
        minutes(6),
      ),
    ).toEqual({
      ok: true,
      outcome: "saved",
      message: "Marks saved, except Paint: you had saved a newer mark there, which is kept",
      kept: ["Paint"],
    });
    expect(await save([{ criterionId: paint!.id, value: 9 }], minutes(20))).toMatchObject({ outcome: "saved" });
    const stored = await storedMarks(db, car, judge.id);
    expect(stored).toContainEqual({ criterionId: paint!.id, halves: 18, savedAt: minutes(20) });
    expect(stored).toContainEqual({ criterionId: engine!.id, halves: 12, savedAt: minutes(6) });
    // A phone whose clock runs ahead cannot make a save newer than the server's now.
    await save([{ criterionId: paint!.id, value: 1 }], minutes(600));
    expect(await storedMarks(db, car, judge.id)).toContainEqual({
      criterionId: paint!.id,
      halves: 2,
      savedAt: minutes(30),
    });
  });
});

describe("saves racing each other", () => {
  it("keeps the newest mark whatever order concurrent saves land in", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 1 });
    const judge = await judgeOf(db, show.classId);
    const [paint] = show.criteria;
    const car = show.entries[0]!.applicationId;
    // Minute n carries the mark n / 2, sent in a scrambled order all at once.
    const order = [7, 2, 11, 0, 5, 9, 1, 10, 4, 8, 3, 6];
    const outcomes = await Promise.all(
      order.map((n) =>
        saveMarks(db, {
          eventId: show.eventId,
          judgeId: judge.id,
          applicationId: car,
          marks: [{ criterionId: paint!.id, value: n / 2 }],
          savedAt: minutes(n),
          now: minutes(60),
        }),
      ),
    );
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(await storedMarks(db, car, judge.id)).toEqual([
      { criterionId: paint!.id, halves: 11, savedAt: minutes(11) },
    ]);
  });
});

describe("syncing a phone's outbox", () => {
  it("answers each save, in the order sent; the same batch again changes nothing", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 2 });
    const judge = await judgeOf(db, show.classId);
    await db.update(showClasses).set({ closedAt: null }).where(eq(showClasses.id, show.classId));
    const [paint] = show.criteria;
    const [first, second] = show.entries;
    const items = [
      {
        id: randomUUID(),
        applicationId: first!.applicationId,
        savedAt: minutes(2),
        marks: [{ criterionId: paint!.id, value: 6 }],
      },
      {
        id: randomUUID(),
        applicationId: first!.applicationId,
        savedAt: minutes(1),
        marks: [{ criterionId: paint!.id, value: 2 }],
      },
      {
        id: randomUUID(),
        applicationId: second!.applicationId,
        savedAt: minutes(1),
        marks: [{ criterionId: paint!.id, value: 12 }],
      },
      {
        id: randomUUID(),
        applicationId: second!.applicationId,
        savedAt: minutes(3),
        marks: [{ criterionId: paint!.id, value: 7.5 }],
      },
    ];
    const sync = () => syncMarks(db, { eventId: show.eventId, judgeId: judge.id, items, now: minutes(10) });
    const answer = await sync();
    expect(answer).toEqual([
      { id: items[0]!.id, outcome: "saved", message: "Marks saved" },
      // Made before the save above, so it never overwrites it, whatever order it came in.
      { id: items[1]!.id, outcome: "stale", message: "You had saved newer marks for this car already: those are kept" },
      { id: items[2]!.id, outcome: "refused", message: "Mark Paint from 0 to 10" },
      { id: items[3]!.id, outcome: "saved", message: "Marks saved" },
    ]);
    const before = [
      ...(await storedMarks(db, first!.applicationId, judge.id)),
      ...(await storedMarks(db, second!.applicationId, judge.id)),
    ];
    expect(before).toEqual([
      { criterionId: paint!.id, halves: 12, savedAt: minutes(2) },
      { criterionId: paint!.id, halves: 15, savedAt: minutes(3) },
    ]);
    expect(await sync()).toEqual(answer);
    expect([
      ...(await storedMarks(db, first!.applicationId, judge.id)),
      ...(await storedMarks(db, second!.applicationId, judge.id)),
    ]).toEqual(before);
  });
});
