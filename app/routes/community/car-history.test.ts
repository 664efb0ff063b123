import { describe, expect, it } from "vitest";
import { judgedShow } from "~/features/car-history/car-history.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testSessionUser } from "~/server/session-user.test-support";
import { answerOf, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import * as garageCar from "../members/garage/edit";
import * as communityCar from "./car";
import * as communityList from "./list";

// A car's show history on its pages: on the community page and its tile's badge for everyone, and
// on the garage page with the owner's choices, which only the owner can make.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "car-history-pages" });

const ownerOf = (entry: { owner: { id: string; email: string } }) =>
  testSessionUser({ id: entry.owner.id, email: entry.owner.email, role: "member", name: "The owner" });

describe("the history on the car's pages", () => {
  it("is on the community page for every role, and its badge on the car's tile", async () => {
    const { first } = await judgedShow(database().db, site.accounts.organizer.id, { published: true });
    const path = `/community/cars/${first.owner.carId}`;
    for (const who of [null, "member", "organizer", "admin"] as const) {
      const page = await communityCar.loader(site.args(who, { path, params: { carId: first.owner.carId } }));
      expect(page.history.map((entry) => entry.awards.map((award) => award.title))).toEqual([["Best in Class"]]);
      const grid = await communityList.loader(site.args(who, { path: "/community" }));
      expect(grid.cars.find((car) => car.id === first.owner.carId)?.awards).toEqual(["Best in Class"]);
    }
  });

  it("lets the owner hide a show and show their score from the garage; nobody else, and bad input gets a message", async () => {
    const { first } = await judgedShow(database().db, site.accounts.organizer.id, { published: true });
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
