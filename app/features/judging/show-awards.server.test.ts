import { describe, expect, it } from "vitest";
import { NOW } from "~/features/checkout/stock.test-support";
import type { Db } from "~/server/db/client.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { showClassJudges, showMarks } from "../../../db/schema";
import { awardsOf, giveAward, leaderboardsOf, takeBackAward } from "./show-awards.server";
import { setClassClosed } from "./show-setup.server";
import { createShow } from "./shows.test-support";

const database = freshDatabasePerFile();

/** One judge marks every car: each criterion gets `marks[car]` (0 to 10). */
async function markAll(db: Db, show: Awaited<ReturnType<typeof createShow>>, judgeId: string, marks: number[]) {
  await db
    .insert(showClassJudges)
    .values({ classId: show.classId, userId: judgeId, createdAt: NOW })
    .onConflictDoNothing();
  for (const [index, entry] of show.entries.entries()) {
    if (marks[index] === undefined) continue;
    await db.insert(showMarks).values(
      show.criteria.map((criterion) => ({
        applicationId: entry.applicationId,
        classId: show.classId,
        judgeId,
        criterionId: criterion.id,
        halves: marks[index]! * 2,
        savedAt: NOW,
      })),
    );
  }
}

describe("the staff leaderboard", () => {
  it("reads marks in halves, flags incomplete marking and ties, and says what is missing", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 3 });
    const one = await testAccount(db, "member", "Ann Judge");
    const two = await testAccount(db, "member", "Bo Judge");
    await markAll(db, show, one.id, [7.5, 9, 9]);
    await db.insert(showClassJudges).values({ classId: show.classId, userId: two.id, createdAt: NOW });

    let [board] = await leaderboardsOf(db, show.eventId);
    expect(board!.judges.map((judge) => judge.name)).toEqual(["Ann Judge", "Bo Judge"]);
    expect(board!.standings.map((row) => [row.showNumber, row.score, row.place, row.tied, row.incomplete])).toEqual([
      expect.arrayContaining([90, 1, true, true]),
      expect.arrayContaining([90, 1, true, true]),
      [1, 75, 3, false, true],
    ]);
    expect(board!.ready).toEqual({ ready: false, why: "Some cars are not marked by every judge yet" });

    await markAll(db, show, two.id, [10, 9, 8]);
    [board] = await leaderboardsOf(db, show.eventId);
    expect(board!.standings.map((row) => [row.showNumber, row.score, row.place])).toEqual([
      [2, 90, 1],
      [1, 87.5, 2],
      [3, 85, 3],
    ]);
    expect(board!.standings[0]!.byJudge.map((judge) => judge.total)).toEqual([90, 90]);
    expect(board!.ready).toEqual({ ready: true, why: null });
  });
});

describe("awards", () => {
  it("refuses Best in Class before the class closes or to a car not first; gives it once; takes it back", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 2 });
    const staff = await testAccount(db, "organizer");
    const judge = await testAccount(db, "member");
    await markAll(db, show, judge.id, [6, 8]);
    const give = (applicationId: string) =>
      giveAward(db, {
        eventId: show.eventId,
        award: { kind: "class", classId: show.classId, applicationId },
        actorId: staff.id,
        now: NOW,
      });
    expect(await give(show.entries[1]!.applicationId)).toEqual({
      ok: false,
      field: "",
      message: "Close Modified JDM before giving its Best in Class",
    });
    await setClassClosed(db, {
      eventId: show.eventId,
      classId: show.classId,
      closed: true,
      actorId: staff.id,
      now: NOW,
    });
    expect(await give(show.entries[0]!.applicationId)).toEqual({
      ok: false,
      field: "applicationId",
      message: "Best in Class goes to a car in first place",
    });
    expect(await give(show.entries[1]!.applicationId)).toMatchObject({ ok: true });
    expect(await give(show.entries[1]!.applicationId)).toEqual({
      ok: false,
      field: "",
      message: "Best in Class is given already: take it back first to give it to another car",
    });
    const [award] = await awardsOf(db, show.eventId);
    expect(award).toMatchObject({ title: "Best in Class", className: "Modified JDM", showNumber: 2 });
    expect(await takeBackAward(db, { eventId: show.eventId, awardId: award!.id, actorId: staff.id })).toMatchObject({
      ok: true,
    });
    expect(await awardsOf(db, show.eventId)).toEqual([]);
  });

  it("lets staff choose between cars tied at the top once the class is closed", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 3 });
    const staff = await testAccount(db, "organizer");
    const judge = await testAccount(db, "member");
    await markAll(db, show, judge.id, [9, 9, 5]);
    await setClassClosed(db, {
      eventId: show.eventId,
      classId: show.classId,
      closed: true,
      actorId: staff.id,
      now: NOW,
    });
    const outcome = await giveAward(db, {
      eventId: show.eventId,
      award: { kind: "class", classId: show.classId, applicationId: show.entries[0]!.applicationId },
      actorId: staff.id,
      now: NOW,
    });
    expect(outcome).toMatchObject({ ok: true });
  });

  it("gives Best in Show once, and named trophies with a clear message for a title given already", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 2 });
    const staff = await testAccount(db, "organizer");
    const base = { eventId: show.eventId, actorId: staff.id, now: NOW };
    const [first, second] = show.entries.map((entry) => entry.applicationId) as [string, string];
    expect(await giveAward(db, { ...base, award: { kind: "show", applicationId: first } })).toMatchObject({ ok: true });
    expect(await giveAward(db, { ...base, award: { kind: "show", applicationId: second } })).toMatchObject({
      ok: false,
      message: "Best in Show is given already: take it back first to give it to another car",
    });
    expect(
      await giveAward(db, { ...base, award: { kind: "trophy", title: "Best paint", applicationId: second } }),
    ).toMatchObject({ ok: true, message: "Best paint goes to 1991 Mazda MX-5 number 2." });
    expect(
      await giveAward(db, { ...base, award: { kind: "trophy", title: "best PAINT", applicationId: first } }),
    ).toEqual({
      ok: false,
      field: "title",
      message: "best PAINT is given already: take it back first to give it to another car",
    });
    expect(
      await giveAward(db, {
        ...base,
        award: { kind: "trophy", title: "Club pick", applicationId: "00000000-0000-4000-8000-000000000000" },
      }),
    ).toEqual({ ok: false, field: "applicationId", message: "Choose a car in the show" });
    expect((await awardsOf(db, show.eventId)).map((award) => award.title).sort()).toEqual([
      "Best in Show",
      "Best paint",
    ]);
  });
});
