import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { admittedVisitors, createShow } from "~/features/judging/shows.test-support";
import { parseBallotList } from "~/features/judging/tally-check";
import { ballotListHash } from "~/features/judging/tally-proof";
import { castVote } from "~/features/judging/voting.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { answerOf, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { events, showAwards, showSettings } from "../../../db/schema";
import * as awardImage from "./award-image";
import * as results from "./results";
import * as ballotsTxt from "./results-ballots";

// The results page and its ballot list, as each role calls them: nobody but staff sees results
// before they are published; once published, everyone does, on a page a shared cache may keep;
// the ballot list answers once voting has closed and is kept for good.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "results" });

/** A show whose voting ran around the real clock (the routes read it): one vote per voter, for car 1. */
async function votedShow(options: { closed: boolean; published: boolean }) {
  const { db } = database();
  const show = await createShow(db, { cars: 2 });
  const now = Date.now();
  const voters = await admittedVisitors(db, show, 2);
  await db
    .update(showSettings)
    .set({ votingOpensAt: new Date(now - 3_600_000), votingClosesAt: new Date(now + 3_600_000) })
    .where(eq(showSettings.eventId, show.eventId));
  const ballotIds: string[] = [];
  for (const voter of voters) {
    const outcome = await castVote(db, {
      eventId: show.eventId,
      voteKey: show.entries[0]!.voteKey,
      ticketId: voter.ticketId,
      categoryId: show.categoryId,
      voterId: voter.id,
      now: new Date(now - 60_000),
    });
    if (outcome.ok) ballotIds.push(outcome.ballotId);
  }
  await db
    .update(showSettings)
    .set({
      votingClosesAt: new Date(options.closed ? now - 1000 : now + 3_600_000),
      resultsPublishedAt: options.published ? new Date(now) : null,
    })
    .where(eq(showSettings.eventId, show.eventId));
  await db.insert(showAwards).values({
    eventId: show.eventId,
    title: "Best in Show",
    applicationId: show.entries[1]!.applicationId,
    givenAt: new Date(),
  });
  const [event] = await db.select({ slug: events.slug }).from(events).where(eq(events.id, show.eventId));
  return { ...show, slug: event!.slug, ballotIds };
}

const page = (slug: string, search = "") => ({ path: `/events/${slug}/results${search}`, params: { id: slug } });
const list = (slug: string) => ({ path: `/events/${slug}/results/ballots.txt`, params: { id: slug } });

describe("the results page", () => {
  it("is not found before publishing, except as a preview for organizers and admins", async () => {
    const show = await votedShow({ closed: true, published: false });
    for (const who of [null, "member"] as const) {
      expect(await statusOf(() => results.loader(site.args(who, page(show.slug))))).toBe(404);
    }
    for (const who of ["organizer", "admin"] as const) {
      const answer = await answerOf(() => results.loader(site.args(who, page(show.slug))));
      expect(answer.data).toMatchObject({ page: { preview: true, awards: [{ title: "Best in Show" }] } });
    }
    expect(await statusOf(() => results.loader(site.args("admin", page("no-such-show"))))).toBe(404);
  });

  it("once published, shows everyone the awards and the count, with the sharing image of the first award", async () => {
    const show = await votedShow({ closed: true, published: true });
    for (const who of [null, "member", "organizer", "admin"] as const) {
      const answer = await answerOf(() => results.loader(site.args(who, page(show.slug))));
      expect(answer.status).toBe(200);
      expect(answer.data).toMatchObject({
        page: {
          preview: false,
          awards: [{ title: "Best in Show", car: { showNumber: 2 } }],
          peoplesChoice: { tally: { ballots: 2, categories: [{ cars: [{ car: "1", votes: 2 }] }] } },
          check: null,
        },
      });
      const { page: shown, imageUrl } = answer.data as { page: { awards: { id: string }[] }; imageUrl: string };
      expect(imageUrl).toBe(`${site.env.SITE_URL}/events/${show.slug}/results/awards/${shown.awards[0]!.id}.png`);
    }
    expect(results.headers({} as never)).toEqual({ "Cache-Control": expect.stringMatching(/^public/) });
    expect(await statusOf(() => results.loader(site.args(null, page(show.eventId, "?ballot=x"))))).toBe(
      `301 /events/${show.slug}/results?ballot=x`,
    );
  });

  it("checks a ballot sent without JavaScript, for every role", async () => {
    const show = await votedShow({ closed: true, published: true });
    for (const who of [null, "member", "organizer", "admin"] as const) {
      const answer = await answerOf(() =>
        results.loader(site.args(who, page(show.slug, `?ballot=${show.ballotIds[1]!.toUpperCase()}`))),
      );
      expect(answer.data).toMatchObject({
        page: { check: { ballotId: show.ballotIds[1], result: { listMatches: true, yourBallot: { car: "1" } } } },
      });
    }
    const bad = await answerOf(() => results.loader(site.args(null, page(show.slug, "?ballot=not-an-id"))));
    expect(bad.data).toMatchObject({
      page: { check: { problem: expect.stringMatching(/^A ballot id is 32 characters/) } },
    });
  });

  it("says the count comes when voting closes, while it is open", async () => {
    const show = await votedShow({ closed: false, published: true });
    const answer = await answerOf(() => results.loader(site.args(null, page(show.slug))));
    expect(answer.data).toMatchObject({ page: { peoplesChoice: { state: "open", tally: null } } });
  });
});

describe("the ballot list", () => {
  it("is not found while voting is open, for any role", async () => {
    const show = await votedShow({ closed: false, published: true });
    for (const who of [null, "member", "organizer", "admin"] as const) {
      expect(await statusOf(() => ballotsTxt.loader(site.args(who, list(show.slug))))).toBe(404);
    }
  });

  it("once voting has closed, is the frozen list as text, matching the commitment, kept for good", async () => {
    // Published or not: the list is public from the moment voting closes.
    const show = await votedShow({ closed: true, published: false });
    for (const who of [null, "member", "organizer", "admin"] as const) {
      const answer = await answerOf(() => ballotsTxt.loader(site.args(who, list(show.slug))));
      expect(answer.status).toBe(200);
      expect(answer.headers?.get("Content-Type")).toBe("text/plain; charset=utf-8");
      expect(answer.headers?.get("Cache-Control")).toMatch(/immutable/);
      const ballots = parseBallotList(answer.text!);
      expect(ballots.map((ballot) => ballot.id).sort()).toEqual([...show.ballotIds].sort());
      const [settings] = await database()
        .db.select({ commitment: showSettings.commitment })
        .from(showSettings)
        .where(eq(showSettings.eventId, show.eventId));
      expect(await ballotListHash(ballots)).toBe(settings!.commitment);
    }
  });
});

describe("an award's sharing image", () => {
  const image = (slug: string, award: string) => ({
    path: `/events/${slug}/results/awards/${award}`,
    params: { id: slug, award },
  });
  const awardOf = async (eventId: string) => {
    const [award] = await database()
      .db.select({ id: showAwards.id })
      .from(showAwards)
      .where(eq(showAwards.eventId, eventId));
    return award!.id;
  };

  it("is a 1200 × 630 PNG once the results are published, for every role", async () => {
    const show = await votedShow({ closed: true, published: true });
    const id = await awardOf(show.eventId);
    for (const who of [null, "member", "organizer", "admin"] as const) {
      const answer = await awardImage.loader(site.args(who, image(show.slug, `${id}.png`)));
      expect(answer.headers.get("Content-Type")).toBe("image/png");
      const { width, height, format } = await sharp(Buffer.from(await answer.arrayBuffer())).metadata();
      expect({ width, height, format }).toEqual({ width: 1200, height: 630, format: "png" });
    }
  });

  it("is not found before publishing, for another event's award, or without .png", async () => {
    const hidden = await votedShow({ closed: true, published: false });
    const shown = await votedShow({ closed: true, published: true });
    const hiddenAward = await awardOf(hidden.eventId);
    for (const who of [null, "member", "organizer", "admin"] as const) {
      expect(await statusOf(() => awardImage.loader(site.args(who, image(hidden.slug, `${hiddenAward}.png`))))).toBe(
        404,
      );
      expect(await statusOf(() => awardImage.loader(site.args(who, image(shown.slug, `${hiddenAward}.png`))))).toBe(
        404,
      );
      expect(await statusOf(() => awardImage.loader(site.args(who, image(shown.slug, "nope.png"))))).toBe(404);
    }
    const bare = await awardOf(shown.eventId);
    expect(await statusOf(() => awardImage.loader(site.args(null, image(shown.slug, bare))))).toBe(404);
  });
});
