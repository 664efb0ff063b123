import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { admittedVisitors, createShow } from "~/features/judging/shows.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testSessionUser } from "~/server/session-user.test-support";
import { answerOf, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { ballots, events, showSettings, tickets } from "../../../db/schema";
import * as vote from "./vote";

// A car's vote page, as each role calls it: anyone sees the car, a visitor is asked to sign in, a
// member votes with a ticket of their own checked in at the show, and every refusal is worded by
// the voting rules beside the form.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "vote" });

/** The show's voting runs around the real clock here: the route reads the time itself. */
async function show(options: { cars?: number; voters?: number; checkedIn?: boolean } = {}) {
  const { db } = database();
  const made = await createShow(db, { cars: options.cars ?? 3 });
  const now = Date.now();
  await db
    .update(showSettings)
    .set({ votingOpensAt: new Date(now - 3_600_000), votingClosesAt: new Date(now + 3_600_000) })
    .where(eq(showSettings.eventId, made.eventId));
  const [event] = await db.select({ slug: events.slug }).from(events).where(eq(events.id, made.eventId));
  const visitors = await admittedVisitors(db, made, options.voters ?? 1, { checkedIn: options.checkedIn });
  return {
    ...made,
    slug: event!.slug,
    voters: visitors.map((visitor) => ({
      ...visitor,
      session: testSessionUser({ id: visitor.id, email: visitor.email }),
    })),
  };
}

type Show = Awaited<ReturnType<typeof show>>;
const at = (made: Show, car = 1) => ({
  path: `/events/${made.slug}/vote/${made.entries[car - 1]!.voteKey}`,
  params: { id: made.slug, voteKey: made.entries[car - 1]!.voteKey },
});

async function ballotsOf(eventId: string) {
  return database()
    .db.select({ id: ballots.id, applicationId: ballots.applicationId, ticketId: ballots.ticketId })
    .from(ballots)
    .where(eq(ballots.eventId, eventId));
}

describe("a car's vote page", () => {
  it("shows every role the car; a visitor is asked to sign in, on a page a shared cache may keep", async () => {
    const made = await show();
    const visitor = await answerOf(() => vote.loader(site.args(null, at(made, 2))));
    expect(visitor.status).toBe(200);
    expect(visitor.data).toMatchObject({
      page: { car: { showNumber: 2, label: "1991 Mazda MX-5 number 2", className: "Modified JDM" }, tickets: [] },
      signInHref: `/login?redirectTo=${encodeURIComponent(at(made, 2).path)}`,
    });
    expect(visitor.headers?.get("Cache-Control")).toMatch(/^public/);
    for (const role of ["member", "organizer", "admin"] as const) {
      const page = await answerOf(() => vote.loader(site.args(role, at(made, 2))));
      expect(page.status).toBe(200);
      expect(page.data).toMatchObject({ signInHref: null, page: { voting: { state: "open" }, tickets: [] } });
      expect(page.headers?.get("Cache-Control")).toBe("private, no-store");
    }
    const voter = await answerOf(() => vote.loader(site.args(made.voters[0]!.session, at(made, 2))));
    expect(voter.data).toMatchObject({ page: { tickets: [{ id: made.voters[0]!.ticketId, problem: null }] } });
  });

  it("moves an address by the event's id to its slug, and answers 404 for an unknown key or event", async () => {
    const made = await show();
    const key = made.entries[0]!.voteKey;
    expect(
      await statusOf(() =>
        vote.loader(
          site.args(null, { path: `/events/${made.eventId}/vote/${key}`, params: { id: made.eventId, voteKey: key } }),
        ),
      ),
    ).toBe(`301 /events/${made.slug}/vote/${key}`);
    for (const who of [null, "member", "admin"] as const) {
      expect(
        await statusOf(() =>
          vote.loader(site.args(who, { path: "/x", params: { id: made.slug, voteKey: "not-a-key" } })),
        ),
      ).toBe(404);
      expect(
        await statusOf(() => vote.loader(site.args(who, { path: "/x", params: { id: randomUUID(), voteKey: key } }))),
      ).toBe(404);
    }
  });
});

describe("voting from the page", () => {
  it("sends a visitor to sign in and back, and casts nothing", async () => {
    const made = await show();
    const body = { ticketId: made.voters[0]!.ticketId, categoryId: made.categoryId };
    expect(await statusOf(() => vote.action(site.args(null, { ...at(made), body })))).toBe(
      `302 /login?redirectTo=${encodeURIComponent(at(made).path)}`,
    );
    expect(await ballotsOf(made.eventId)).toHaveLength(0);
  });

  it("a checked-in ticket holder votes, sees a flash with the ballot id, and changing the vote keeps one ballot", async () => {
    const made = await show();
    const voter = made.voters[0]!;
    const body = { ticketId: voter.ticketId, categoryId: made.categoryId };
    const cast = await answerOf(() => vote.action(site.args(voter.session, { ...at(made, 1), body })));
    expect(cast.status).toBe(302);
    expect(cast.location).toBe(at(made, 1).path);
    expect(cast.headers?.get("Set-Cookie")).toMatch(/pitlane\.flash=/);
    const [first] = await ballotsOf(made.eventId);
    const changed = await answerOf(() => vote.action(site.args(voter.session, { ...at(made, 3), body })));
    expect(changed.status).toBe(302);
    const after = await ballotsOf(made.eventId);
    expect(after).toEqual([{ ...first, applicationId: made.entries[2]!.applicationId }]);
    // The car first voted for now shows where the vote went, with the ballot's id.
    const page = await answerOf(() => vote.loader(site.args(voter.session, at(made, 1))));
    const ticket = (page.data as { page: { tickets: { ballots: Record<string, unknown> }[] } }).page.tickets[0]!;
    expect(ticket.ballots[made.categoryId]).toEqual({
      id: first!.id,
      showNumber: 3,
      label: "1991 Mazda MX-5 number 3",
      thisCar: false,
    });
  });

  it("refuses, by the form, a ticket not checked in, someone else's ticket, a staff member without one, and bad input", async () => {
    const made = await show({ voters: 2 });
    const { db } = database();
    await db
      .update(tickets)
      .set({ status: "valid", checkedInAt: null })
      .where(eq(tickets.id, made.voters[1]!.ticketId));
    const refused = async (who: Parameters<typeof site.args>[0], body: Record<string, string>) => {
      const answer = await answerOf(() => vote.action(site.args(who, { ...at(made), body })));
      expect(answer.status).toBe(400);
      return (answer.data as { errors: Record<string, string[]> }).errors;
    };
    expect(
      await refused(made.voters[1]!.session, { ticketId: made.voters[1]!.ticketId, categoryId: made.categoryId }),
    ).toEqual({
      form: ["Only tickets checked in at the show can vote: scan in at the gate first"],
    });
    expect(await refused("member", { ticketId: made.voters[0]!.ticketId, categoryId: made.categoryId })).toEqual({
      form: ["Vote with a ticket of your own"],
    });
    for (const role of ["organizer", "admin"] as const) {
      expect(await refused(role, { ticketId: randomUUID(), categoryId: made.categoryId })).toEqual({
        form: ["Vote with a ticket for this show"],
      });
    }
    expect(await refused(made.voters[0]!.session, { ticketId: "nope", categoryId: "" })).toEqual({
      ticketId: ["Choose which of your tickets votes"],
      categoryId: ["Choose one of this show's categories"],
    });
    expect(await ballotsOf(made.eventId)).toHaveLength(0);
  });

  it("refuses a vote for the voter's own car, and any vote once voting has closed", async () => {
    const made = await show();
    const { db } = database();
    const owner = made.entries[0]!.owner;
    const [mine] = await admittedVisitors(db, made, 1);
    // The exhibitor holds the ticket now (as if passed on to them).
    await db.update(tickets).set({ userId: owner.id }).where(eq(tickets.id, mine!.ticketId));
    const session = testSessionUser({ id: owner.id, email: owner.email });
    const own = await answerOf(() =>
      vote.action(
        site.args(session, { ...at(made, 1), body: { ticketId: mine!.ticketId, categoryId: made.categoryId } }),
      ),
    );
    expect(own).toMatchObject({ status: 400, data: { errors: { form: ["You cannot vote for your own car"] } } });
    await db
      .update(showSettings)
      .set({ votingClosesAt: new Date(Date.now() - 1000) })
      .where(eq(showSettings.eventId, made.eventId));
    const voter = made.voters[0]!;
    const closed = await answerOf(() =>
      vote.action(
        site.args(voter.session, { ...at(made, 2), body: { ticketId: voter.ticketId, categoryId: made.categoryId } }),
      ),
    );
    expect(closed).toMatchObject({ status: 400, data: { errors: { form: ["Voting has closed"] } } });
    const page = await answerOf(() => vote.loader(site.args(voter.session, at(made, 2))));
    expect(page.data).toMatchObject({ page: { voting: { state: "closed" } } });
    expect(await ballotsOf(made.eventId)).toHaveLength(0);
  });

  it("answers 404 to a vote for an unknown car, whoever sends it", async () => {
    const made = await show();
    const body = { ticketId: made.voters[0]!.ticketId, categoryId: made.categoryId };
    for (const who of [made.voters[0]!.session, "member", "organizer", "admin"] as const) {
      expect(
        await statusOf(() =>
          vote.action(site.args(who, { path: "/x", params: { id: made.slug, voteKey: "gone" }, body })),
        ),
      ).toBe(404);
    }
  });
});
