import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { NOW } from "~/features/checkout/stock.test-support";
import { admittedVisitors, createShow } from "~/features/judging/shows.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testSessionUser } from "~/server/session-user.test-support";
import { answerOf, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { ballots, exhibitorPasses, showAwards, showClassJudges, showMarks, showSettings } from "../../../db/schema";
import * as communityCar from "../../routes/community/car";
import * as communityList from "../../routes/community/list";
import * as garageCar from "../../routes/members/garage/edit";
import { awardsOfCars, carHistory, chooseHistory } from "./car-history.server";

// A car's show history fills itself from the show: the gate's scan of its exhibitor pass, its
// class and place, awards and People's Choice votes once the results are out. The owner hides a
// show or shows their score; everyone else sees what the owner left.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "car-history" });

/** A show of three cars: car 1 scanned in and marked best by one judge, given Best in Class, two votes. */
async function judgedShow(options: { published: boolean }) {
  const { db } = database();
  const show = await createShow(db, { cars: 3 });
  const [first, second] = show.entries;
  await db.insert(exhibitorPasses).values({
    applicationId: first!.applicationId,
    eventId: show.eventId,
    userId: first!.owner.id,
    code: `pass-${randomUUID()}`,
    checkedInAt: NOW,
  });
  const judge = site.accounts.organizer.id;
  await db.insert(showClassJudges).values({ classId: show.classId, userId: judge, createdAt: NOW });
  for (const [index, entry] of show.entries.entries()) {
    await db.insert(showMarks).values(
      show.criteria.map((criterion) => ({
        applicationId: entry.applicationId,
        classId: show.classId,
        judgeId: judge,
        criterionId: criterion.id,
        halves: 20 - index * 2,
        savedAt: NOW,
      })),
    );
  }
  const [award] = await db
    .insert(showAwards)
    .values({
      eventId: show.eventId,
      classId: show.classId,
      title: "Best in Class",
      applicationId: first!.applicationId,
      givenAt: NOW,
    })
    .returning({ id: showAwards.id });
  const voter = await admittedVisitors(db, show, 3);
  const vote = (ticketId: string, applicationId: string) => ({
    id: randomUUID().replaceAll("-", ""),
    eventId: show.eventId,
    categoryId: show.categoryId,
    ticketId,
    applicationId,
    castAt: NOW,
    changedAt: NOW,
  });
  await db
    .insert(ballots)
    .values([
      vote(voter[0]!.ticketId, first!.applicationId),
      vote(voter[1]!.ticketId, first!.applicationId),
      vote(voter[2]!.ticketId, second!.applicationId),
    ]);
  await db
    .update(showSettings)
    .set({ talliedAt: NOW, resultsPublishedAt: options.published ? NOW : null })
    .where(eq(showSettings.eventId, show.eventId));
  return { show, first: first!, awardId: award!.id };
}

const ownerOf = (entry: { owner: { id: string; email: string } }) =>
  testSessionUser({ id: entry.owner.id, email: entry.owner.email, role: "member", name: "The owner" });

describe("a car's show history", () => {
  it("shows the show the car was scanned into, its class, place, award and votes once results are out", async () => {
    const { db } = database();
    const { show, first, awardId } = await judgedShow({ published: true });
    const [entry] = await carHistory(db, { carId: first.owner.carId, owner: false });
    expect(entry).toMatchObject({
      applicationId: first.applicationId,
      attended: true,
      className: "Modified JDM",
      showNumber: 1,
      published: true,
      place: 1,
      classSize: 3,
      score: null,
      awards: [{ id: awardId, title: "Best in Class", className: "Modified JDM" }],
      votes: [{ category: "People's Choice", votes: 2, place: 1 }],
      hidden: false,
    });
    expect(entry!.event.id).toBe(show.eventId);
    // The owner sees the score; everyone else only once the owner shows it.
    const [mine] = await carHistory(db, { carId: first.owner.carId, owner: true });
    expect(mine!.score).toBe(100);
    expect(
      await chooseHistory(db, {
        ownerId: first.owner.id,
        carId: first.owner.carId,
        applicationId: first.applicationId,
        what: "score",
        shown: true,
      }),
    ).toBe(true);
    expect((await carHistory(db, { carId: first.owner.carId, owner: false }))[0]!.score).toBe(100);
    expect(await awardsOfCars(db, [first.owner.carId])).toEqual(new Map([[first.owner.carId, ["Best in Class"]]]));
  });

  it("keeps places, awards and votes back until the results are published", async () => {
    const { db } = database();
    const { first } = await judgedShow({ published: false });
    const [entry] = await carHistory(db, { carId: first.owner.carId, owner: false });
    expect(entry).toMatchObject({ attended: true, published: false, place: null, awards: [], votes: [] });
    expect((await awardsOfCars(db, [first.owner.carId])).size).toBe(0);
  });

  it("lists nothing for a car that was approved but never came through the gate", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 1 });
    expect(await carHistory(db, { carId: show.entries[0]!.owner.carId, owner: true })).toEqual([]);
  });

  it("lets only the owner hide a show, which then leaves the public page and the tile's badges", async () => {
    const { db } = database();
    const { show, first } = await judgedShow({ published: true });
    const other = show.entries[1]!;
    const choice = {
      carId: first.owner.carId,
      applicationId: first.applicationId,
      what: "show" as const,
      shown: false,
    };
    expect(await chooseHistory(db, { ...choice, ownerId: other.owner.id })).toBe(false);
    expect(await chooseHistory(db, { ...choice, applicationId: other.applicationId, ownerId: first.owner.id })).toBe(
      false,
    );
    expect(await chooseHistory(db, { ...choice, ownerId: first.owner.id })).toBe(true);
    expect(await carHistory(db, { carId: first.owner.carId, owner: false })).toEqual([]);
    expect((await carHistory(db, { carId: first.owner.carId, owner: true }))[0]!.hidden).toBe(true);
    expect((await awardsOfCars(db, [first.owner.carId])).size).toBe(0);
  });
});

describe("the history on the car's pages", () => {
  it("is on the community page for every role, and its badge on the car's tile", async () => {
    const { first } = await judgedShow({ published: true });
    const path = `/community/cars/${first.owner.carId}`;
    for (const who of [null, "member", "organizer", "admin"] as const) {
      const page = await communityCar.loader(site.args(who, { path, params: { carId: first.owner.carId } }));
      expect(page.history.map((entry) => entry.awards.map((award) => award.title))).toEqual([["Best in Class"]]);
      const grid = await communityList.loader(site.args(who, { path: "/community" }));
      expect(grid.cars.find((car) => car.id === first.owner.carId)?.awards).toEqual(["Best in Class"]);
    }
  });

  it("lets the owner hide a show and show their score from the garage; nobody else, and bad input gets a message", async () => {
    const { first } = await judgedShow({ published: true });
    const carId = first.owner.carId;
    const path = `/members/garage/${carId}`;
    const owner = ownerOf(first);
    const body = { intent: "history", applicationId: first.applicationId, what: "show", shown: "no" };
    expect(await statusOf(() => garageCar.action(site.args(null, { path, params: { carId }, body })))).toMatch(
      /^302 \/login/,
    );
    for (const who of ["member", "organizer", "admin"] as const) {
      expect(await statusOf(() => garageCar.action(site.args(who, { path, params: { carId }, body })))).toBe(404);
    }
    const bad = await answerOf(() =>
      garageCar.action(site.args(owner, { path, params: { carId }, body: { ...body, applicationId: "nope" } })),
    );
    expect(JSON.stringify(bad.data)).toContain("Choose one of this car's shows.");
    expect(await statusOf(() => garageCar.action(site.args(owner, { path, params: { carId }, body })))).toMatch(
      /^302 .*#show-history$/,
    );
    const page = await garageCar.loader(site.args(owner, { path, params: { carId } }));
    expect(page.history[0]).toMatchObject({ hidden: true, score: 100, scoreShown: false });
    const publicPage = await communityCar.loader(
      site.args(null, { path: `/community/cars/${carId}`, params: { carId } }),
    );
    expect(publicPage.history).toEqual([]);
  });
});
