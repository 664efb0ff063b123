import { describe, expect, it } from "vitest";
import { awardsOf } from "~/features/judging/show-awards.server";
import { classesOf, showEntriesOf, votingSettingsOf } from "~/features/judging/show-setup.server";
import { createShow } from "~/features/judging/shows.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { answerOf, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import * as show from "./show";
import * as cards from "./show-cards";

// The organizer's Show tab and its windscreen cards: organizers and admins see and change the
// show; members get the 403 page and visitors are sent to sign in; bad input gets its message.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "show-tab" });

const path = (eventId: string) => `/admin/events/${eventId}/show`;

describe("the show tab", () => {
  it("loads for organizers and admins only, with classes, cars, leaderboards and voting", async () => {
    const { eventId } = await createShow(database().db, { cars: 2 });
    const params = { eventId };
    expect(await statusOf(() => show.loader(site.args(null, { path: path(eventId), params })))).toMatch(/^302 \/login/);
    expect(await statusOf(() => show.loader(site.args("member", { path: path(eventId), params })))).toBe(403);
    for (const who of ["organizer", "admin"] as const) {
      const page = await answerOf(() => show.loader(site.args(who, { path: path(eventId), params })));
      expect(page.data).toMatchObject({
        classes: [{ name: "Modified JDM" }],
        entries: [{ showNumber: 1 }, { showNumber: 2 }],
        boards: [{ name: "Modified JDM", ready: { ready: false } }],
        voting: { categories: [{ slug: "peoples-choice" }] },
      });
      // Vote keys are for the printed cards only.
      expect(JSON.stringify(page.data)).not.toContain("voteKey");
    }
    expect(
      await statusOf(() => show.loader(site.args("admin", { path: path("nope"), params: { eventId: "nope" } }))),
    ).toBe(404);
  });

  it("refuses members and visitors on every action", async () => {
    const { eventId, classId } = await createShow(database().db, { cars: 1 });
    const params = { eventId };
    const body = { intent: "class-close", classId };
    expect((await answerOf(() => show.action(site.args(null, { path: path(eventId), params, body })))).status).toBe(
      302,
    );
    expect((await answerOf(() => show.action(site.args("member", { path: path(eventId), params, body })))).status).toBe(
      403,
    );
    expect((await classesOf(database().db, eventId))[0]!.closedAt).toBeNull();
  });

  it("adds and edits classes, with the rules' messages beside the fields", async () => {
    const { db } = database();
    const { eventId } = await createShow(db, { cars: 1 });
    const params = { eventId };
    const post = (who: "organizer" | "admin", body: Record<string, string>) =>
      answerOf(() => show.action(site.args(who, { path: path(eventId), params, body })));

    expect(
      await post("organizer", {
        intent: "class-save",
        target: "new",
        name: "Classics",
        scheme: "weighted",
        "criteria[0].name": "Paint",
        "criteria[0].weight": "60",
        "criteria[1].name": "",
        "criteria[1].weight": "",
      }),
    ).toMatchObject({
      status: 400,
      data: {
        intent: "class-save",
        target: "new",
        errors: { criteria: ["The weights add up to 60: make them add up to 100"] },
      },
    });
    expect(
      await post("organizer", { intent: "class-save", target: "new", name: "", scheme: "sideways" }),
    ).toMatchObject({
      status: 400,
      data: { errors: { name: ["Name the class"], scheme: ["Choose how the class is marked"] } },
    });
    const added = await post("admin", {
      intent: "class-save",
      target: "new",
      name: "Classics",
      scheme: "deduction",
      "criteria[0].name": "Paint",
      "criteria[0].weight": "60",
      "criteria[1].name": "Chrome",
      "criteria[1].weight": "40",
    });
    expect(added).toMatchObject({ status: 302, location: `${path(eventId)}#classes` });
    expect((await classesOf(db, eventId)).map((row) => row.name)).toEqual(["Modified JDM", "Classics"]);
  });

  it("adds judges by email, places cars, numbers them and gives awards, with clear refusals", async () => {
    const { db } = database();
    const showInDb = await createShow(db, { cars: 2 });
    const { eventId, classId } = showInDb;
    const judge = await testAccount(db, "member", "Jo Judge");
    const params = { eventId };
    const post = (body: Record<string, string>) =>
      answerOf(() => show.action(site.args("organizer", { path: path(eventId), params, body })));

    expect(await post({ intent: "judge-add", target: classId, classId, email: "nobody@club.example" })).toMatchObject({
      status: 400,
      data: { target: classId, errors: { email: ["No account has this email: ask them to sign up first"] } },
    });
    expect((await post({ intent: "judge-add", target: classId, classId, email: judge.email })).status).toBe(302);
    expect((await classesOf(db, eventId))[0]!.judges).toMatchObject([{ userId: judge.id }]);

    const [first, second] = showInDb.entries.map((entry) => entry.applicationId) as [string, string];
    expect(
      await post({ intent: "entry-place", target: second, applicationId: second, classId, showNumber: "1" }),
    ).toMatchObject({ status: 400, data: { errors: { showNumber: ["Number 1 is taken by another car"] } } });
    expect(
      await post({ intent: "entry-place", target: second, applicationId: second, classId, showNumber: "abc" }),
    ).toMatchObject({ status: 400 });
    expect(
      (await post({ intent: "entry-place", target: second, applicationId: second, classId: "", showNumber: "" }))
        .status,
    ).toBe(302);
    expect((await post({ intent: "entries-number" })).status).toBe(302);
    expect((await showEntriesOf(db, eventId)).map((row) => row.showNumber)).toEqual([1, 2]);

    expect(
      await post({ intent: "award-give", target: classId, kind: "class", classId, applicationId: first }),
    ).toMatchObject({ status: 400, data: { errors: { "": ["Close Modified JDM before giving its Best in Class"] } } });
    expect(
      (
        await post({
          intent: "award-give",
          target: "trophy",
          kind: "trophy",
          title: "Best paint",
          applicationId: first,
        })
      ).status,
    ).toBe(302);
    expect(
      await post({
        intent: "award-give",
        target: "trophy",
        kind: "trophy",
        title: "Best Paint",
        applicationId: second,
      }),
    ).toMatchObject({
      status: 400,
      data: { errors: { title: ["Best Paint is given already: take it back first to give it to another car"] } },
    });
    const [award] = await awardsOf(db, eventId);
    expect((await post({ intent: "award-take-back", awardId: award!.id })).status).toBe(302);
    expect(await awardsOf(db, eventId)).toEqual([]);
    expect(await post({ intent: "sideways" })).toMatchObject({ status: 400 });
  });

  it("saves the voting window in the event's time zone, closes voting, publishes, and adds categories", async () => {
    const { db } = database();
    const { eventId } = await createShow(db, { cars: 1 });
    const params = { eventId };
    const post = (body: Record<string, string>) =>
      answerOf(() => show.action(site.args("admin", { path: path(eventId), params, body })));
    expect(
      await post({ intent: "voting-save", opensAt: "2027-05-01T12:00", closesAt: "2027-05-01T11:00" }),
    ).toMatchObject({ status: 400, data: { errors: { closesAt: ["Make voting close after it opens"] } } });
    expect(
      (
        await post({
          intent: "voting-save",
          opensAt: "2027-05-01T09:00",
          closesAt: "2027-05-01T17:00",
          showScores: "on",
        })
      ).status,
    ).toBe(302);
    expect(await votingSettingsOf(db, eventId)).toMatchObject({ showScores: true });
    expect((await post({ intent: "voting-close" })).status).toBe(302);
    expect((await post({ intent: "results-publish" })).status).toBe(302);
    expect((await votingSettingsOf(db, eventId)).resultsPublishedAt).not.toBeNull();
    expect(await post({ intent: "category-add", name: "People's Choice" })).toMatchObject({
      status: 400,
      data: { errors: { name: ["This show has a category with this name already"] } },
    });
    expect((await post({ intent: "category-add", name: "Best paint" })).status).toBe(302);
    expect((await votingSettingsOf(db, eventId)).categories).toHaveLength(2);
  });
});

describe("windscreen cards", () => {
  it("prints a card per placed car with the QR of its vote address, for organizers and admins only", async () => {
    const { db } = database();
    const showInDb = await createShow(db, { cars: 2 });
    const { eventId } = showInDb;
    const cardsPath = `${path(eventId)}/cards`;
    const params = { eventId };
    expect(await statusOf(() => cards.loader(site.args(null, { path: cardsPath, params })))).toMatch(/^302 \/login/);
    expect(await statusOf(() => cards.loader(site.args("member", { path: cardsPath, params })))).toBe(403);
    for (const who of ["organizer", "admin"] as const) {
      const page = await answerOf(() => cards.loader(site.args(who, { path: cardsPath, params })));
      const printed = (page.data as { cards: { voteUrl: string; qrSvg: string; showNumber: number }[] }).cards;
      expect(printed.map((card) => card.showNumber)).toEqual([1, 2]);
      expect(printed[0]!.voteUrl).toMatch(
        new RegExp(`^https?://[^/]+/events/${eventId}/vote/${showInDb.entries[0]!.voteKey}$`),
      );
      expect(printed[0]!.qrSvg).toContain("<svg");
    }
  });
});
