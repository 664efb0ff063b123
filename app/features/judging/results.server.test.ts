import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBuyers, NOW } from "~/features/checkout/stock.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { carPhotos, cars, showAwards, showClassJudges, showMarks, showSettings } from "../../../db/schema";
import { resultsPage } from "./results.server";
import { admittedVisitors, createShow } from "./shows.test-support";
import { castVote } from "./voting.server";

// A show's results: hidden until published (staff preview), awards in their order, placings from
// the judges' marks with scores only when chosen, and People's Choice counted from the frozen list.
const database = freshDatabasePerFile();
const LATER = new Date(NOW.getTime() + 2 * 3_600_000);
const staff = { id: "x", role: "organizer" as const };

/** A marked, awarded show of three cars: car 2 first, car 1 second, car 3 third, one judge. */
async function judgedShow() {
  const { db } = database();
  const show = await createShow(db, { cars: 3 });
  const [judge] = await createBuyers(db, 1);
  await db.insert(showClassJudges).values({ classId: show.classId, userId: judge!.id, createdAt: NOW });
  const marks = [7, 9, 5];
  await db.insert(showMarks).values(
    show.entries.flatMap((entry, index) =>
      show.criteria.map((criterion) => ({
        applicationId: entry.applicationId,
        classId: show.classId,
        judgeId: judge!.id,
        criterionId: criterion.id,
        halves: marks[index]! * 2,
        savedAt: NOW,
      })),
    ),
  );
  await db.insert(showAwards).values([
    {
      eventId: show.eventId,
      classId: show.classId,
      title: "Best in Class",
      applicationId: show.entries[1]!.applicationId,
      givenAt: NOW,
    },
    { eventId: show.eventId, title: "Best in Show", applicationId: show.entries[1]!.applicationId, givenAt: NOW },
    { eventId: show.eventId, title: "Club trophy", applicationId: show.entries[0]!.applicationId, givenAt: NOW },
  ]);
  // Car 2 shares a public photo; car 1's garage car is kept to members, so its photo is not shown.
  const carOf = (index: number) => show.entries[index]!.owner.carId;
  await db.insert(carPhotos).values(
    [0, 1].map((index) => ({
      carId: carOf(index),
      hash: `hash${index}`,
      sourceKey: `k${index}`,
      width: 1600,
      height: 900,
      color: "#333333",
      position: 0,
    })),
  );
  await db
    .update(cars)
    .set({ visibility: "members" })
    .where(eq(cars.id, carOf(0)));
  return show;
}

describe("a show's results", () => {
  it("are not found until published, except as a preview for staff", async () => {
    const { db } = database();
    const show = await judgedShow();
    for (const viewer of [null, { id: "m", role: "member" as const }]) {
      expect(await resultsPage(db, { idOrSlug: show.eventId, viewer, now: NOW })).toBeNull();
    }
    for (const role of ["organizer", "admin"] as const) {
      expect(await resultsPage(db, { idOrSlug: show.eventId, viewer: { id: "s", role }, now: NOW })).toMatchObject({
        preview: true,
      });
    }
    await db.update(showSettings).set({ resultsPublishedAt: NOW }).where(eq(showSettings.eventId, show.eventId));
    expect(await resultsPage(db, { idOrSlug: show.eventId, viewer: null, now: NOW })).toMatchObject({ preview: false });
  });

  it("list Best in Show and named trophies before class awards, and placings without scores unless chosen", async () => {
    const { db } = database();
    const show = await judgedShow();
    const page = await resultsPage(db, { idOrSlug: show.eventId, viewer: staff, now: NOW });
    expect(page!.awards.map((award) => [award.title, award.car.showNumber, award.className])).toEqual([
      ["Best in Show", 2, null],
      ["Club trophy", 1, null],
      ["Best in Class", 2, "Modified JDM"],
    ]);
    expect(page!.awards[0]!.car.cover).toMatchObject({ hash: "hash1", width: 1600 });
    expect(page!.awards[1]!.car.cover).toBeNull();
    expect(page!.classes[0]!.standings.map((car) => [car.showNumber, car.place, car.score])).toEqual([
      [2, 1, null],
      [1, 2, null],
      [3, 3, null],
    ]);
    await db.update(showSettings).set({ showScores: true }).where(eq(showSettings.eventId, show.eventId));
    const scored = await resultsPage(db, { idOrSlug: show.eventId, viewer: staff, now: NOW });
    expect(scored!.classes[0]!.standings.map((car) => car.score)).toEqual([90, 70, 50]);
  });

  it("count People's Choice from the frozen list once voting closes, and check a ballot by its id", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 2 });
    const voters = await admittedVisitors(db, show, 3);
    const ids: string[] = [];
    for (const [index, voter] of voters.entries()) {
      const outcome = await castVote(db, {
        eventId: show.eventId,
        voteKey: show.entries[index === 0 ? 0 : 1]!.voteKey,
        ticketId: voter.ticketId,
        categoryId: show.categoryId,
        voterId: voter.id,
        now: NOW,
      });
      if (outcome.ok) ids.push(outcome.ballotId);
    }
    const open = await resultsPage(db, { idOrSlug: show.eventId, viewer: staff, now: NOW });
    expect(open!.peoplesChoice).toMatchObject({ state: "open", tally: null });

    const page = await resultsPage(db, { idOrSlug: show.eventId, viewer: staff, now: LATER, ballotId: ids[0] });
    expect(page!.peoplesChoice!.tally).toMatchObject({
      ballots: 3,
      totals: { "peoples-choice": { "1": 1, "2": 2 } },
      categories: [
        {
          slug: "peoples-choice",
          name: "People's Choice",
          cars: [
            { car: "2", label: "1991 Mazda MX-5 number 2", votes: 2 },
            { car: "1", label: "1991 Mazda MX-5 number 1", votes: 1 },
          ],
        },
      ],
    });
    expect(page!.peoplesChoice!.tally!.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(page!.check).toMatchObject({
      ballotId: ids[0],
      result: { listMatches: true, totalsMatch: true, yourBallot: { car: "1" }, problems: [] },
    });

    const unknown = await resultsPage(db, {
      idOrSlug: show.eventId,
      viewer: staff,
      now: LATER,
      ballotId: "0".repeat(32),
    });
    expect(unknown!.check).toMatchObject({
      result: { yourBallot: null, problems: ["Your ballot is not on the list"] },
    });
    const malformed = await resultsPage(db, { idOrSlug: show.eventId, viewer: staff, now: LATER, ballotId: "abc" });
    expect(malformed!.check).toEqual({
      ballotId: "abc",
      problem: "A ballot id is 32 characters, 0 to 9 and a to f: copy it from your vote page",
    });
  });
});
