import { describe, expect, it } from "vitest";
import { createShow } from "~/features/judging/shows.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { awardsOfCars, carHistory, chooseHistory } from "./car-history.server";
import { judgedShow } from "./car-history.test-support";

// A car's show history fills itself from the show: the gate's scan of its exhibitor pass, its
// class and place, awards and People's Choice votes once the results are out. The owner hides a
// show or shows their score; everyone else sees what the owner left.
const database = freshDatabasePerFile();

describe("a car's show history", () => {
  it("shows the show the car was scanned into, its class, place, award and votes once results are out", async () => {
    const { db } = database();
    const { show, first, awardId } = await judgedShow(db, (await testAccount(db, "organizer")).id, { published: true });
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
    const { first } = await judgedShow(db, (await testAccount(db, "organizer")).id, { published: false });
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
    const { show, first } = await judgedShow(db, (await testAccount(db, "organizer")).id, { published: true });
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
