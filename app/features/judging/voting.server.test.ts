import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { NOW } from "~/features/checkout/stock.test-support";
import { paidOrder } from "~/features/orders/paid-orders.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { ballots, showSettings, tickets, voteCategories } from "../../../db/schema";
import { admittedVisitors, createShow } from "./shows.test-support";
import { checkTally, tallyOf } from "./tally-proof";
import { castVote, tallyOnce, votePage } from "./voting.server";

// People's Choice on the database: the rules of vote-rules.ts applied to real tickets, one ballot
// per ticket and category however often it changes, and the list frozen once when voting closes.
const database = freshDatabasePerFile();
const LATER = new Date(NOW.getTime() + 2 * 3_600_000);

async function showWithVoters(cars = 3, voters = 2, options: { checkedIn?: boolean } = {}) {
  const { db } = database();
  const show = await createShow(db, { cars });
  const visitors = voters > 0 ? await admittedVisitors(db, show, voters, options) : [];
  return { show, visitors };
}

function vote(
  show: Awaited<ReturnType<typeof createShow>>,
  visitor: { id: string; ticketId: string },
  car: number,
  extra: { now?: Date; categoryId?: string } = {},
) {
  return castVote(database().db, {
    eventId: show.eventId,
    voteKey: show.entries[car - 1]!.voteKey,
    ticketId: visitor.ticketId,
    categoryId: extra.categoryId ?? show.categoryId,
    voterId: visitor.id,
    now: extra.now ?? NOW,
  });
}

describe("casting a People's Choice vote", () => {
  it("a checked-in ticket votes while voting is open, and its ballot id is 32 hex characters", async () => {
    const { show, visitors } = await showWithVoters();
    const outcome = await vote(show, visitors[0]!, 2);
    expect(outcome).toMatchObject({ ok: true, changed: false, showNumber: 2, categoryName: "People's Choice" });
    expect(outcome.ok && outcome.ballotId).toMatch(/^[0-9a-f]{32}$/);
  });

  it("is refused before voting opens and once it has closed", async () => {
    const { show, visitors } = await showWithVoters();
    const early = new Date(NOW.getTime() - 2 * 3_600_000);
    expect(await vote(show, visitors[0]!, 1, { now: early })).toEqual({
      ok: false,
      field: "",
      message: "Voting has not opened yet",
    });
    expect(await vote(show, visitors[0]!, 1, { now: LATER })).toMatchObject({ message: "Voting has closed" });
    expect(await database().db.select().from(ballots).where(eq(ballots.eventId, show.eventId))).toHaveLength(0);
  });

  it("is refused for a ticket not checked in, for the voter's own car, and for someone else's ticket", async () => {
    const { db } = database();
    const { show, visitors } = await showWithVoters(3, 1, { checkedIn: false });
    expect(await vote(show, visitors[0]!, 1)).toMatchObject({
      ok: false,
      message: "Only tickets checked in at the show can vote: scan in at the gate first",
    });
    // An exhibitor with a ticket of their own votes for others' cars, never their own.
    const owner = show.entries[0]!.owner;
    const { id: orderId } = await paidOrder(db, owner, [{ ticketTypeId: show.typeIds[0]!, quantity: 1 }], NOW, NOW);
    const [ticket] = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.orderId, orderId));
    await db.update(tickets).set({ status: "checked_in", checkedInAt: NOW }).where(eq(tickets.id, ticket!.id));
    const exhibitor = { id: owner.id, ticketId: ticket!.id };
    expect(await vote(show, exhibitor, 1)).toMatchObject({ ok: false, message: "You cannot vote for your own car" });
    expect(await vote(show, exhibitor, 2)).toMatchObject({ ok: true });
    expect(await vote(show, { id: visitors[0]!.id, ticketId: ticket!.id }, 3)).toMatchObject({
      ok: false,
      message: "Vote with a ticket of your own",
    });
  });

  it("is refused with another event's ticket, and for a category of another show", async () => {
    const { db } = database();
    const { show, visitors } = await showWithVoters(2, 1);
    const other = await createShow(db, { cars: 2 });
    const [elsewhere] = await admittedVisitors(db, other, 1);
    expect(await vote(show, elsewhere!, 1)).toMatchObject({ ok: false, message: "This ticket is for another event" });
    expect(await vote(show, visitors[0]!, 1, { categoryId: other.categoryId })).toEqual({
      ok: false,
      field: "categoryId",
      message: "Choose one of this show's categories",
    });
  });

  it("an unknown vote key, or the key under another event's address, is not found", async () => {
    const { db } = database();
    const { show, visitors } = await showWithVoters(2, 1);
    const other = await createShow(db, { cars: 1 });
    const input = { ticketId: visitors[0]!.ticketId, categoryId: show.categoryId, voterId: visitors[0]!.id, now: NOW };
    expect(await castVote(db, { ...input, eventId: show.eventId, voteKey: "nope" })).toEqual({
      ok: false,
      notFound: true,
    });
    expect(await castVote(db, { ...input, eventId: other.eventId, voteKey: show.entries[0]!.voteKey })).toEqual({
      ok: false,
      notFound: true,
    });
    expect(
      await votePage(db, { eventId: other.eventId, voteKey: show.entries[0]!.voteKey, viewerId: null, now: NOW }),
    ).toBeNull();
  });

  it("a changed vote keeps its one ballot and its id; two tickets vote twice; each category once", async () => {
    const { db } = database();
    const { show, visitors } = await showWithVoters(3, 1);
    const [second] = await db
      .insert(voteCategories)
      .values({ eventId: show.eventId, slug: "best-paint", name: "Best paint", position: 1 })
      .returning({ id: voteCategories.id });
    const first = await vote(show, visitors[0]!, 1);
    const changed = await vote(show, visitors[0]!, 2, { now: new Date(NOW.getTime() + 60_000) });
    expect(changed).toMatchObject({ ok: true, changed: true });
    expect(first.ok && changed.ok && changed.ballotId === first.ballotId).toBe(true);
    await vote(show, visitors[0]!, 3, { categoryId: second!.id });
    // A second ticket bought by the same member votes on its own.
    const { id: orderId } = await paidOrder(
      db,
      visitors[0]!,
      [{ ticketTypeId: show.typeIds[0]!, quantity: 1 }],
      NOW,
      NOW,
    );
    const [extra] = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.orderId, orderId));
    await db.update(tickets).set({ status: "checked_in", checkedInAt: NOW }).where(eq(tickets.id, extra!.id));
    expect(await vote(show, { id: visitors[0]!.id, ticketId: extra!.id }, 2)).toMatchObject({ ok: true });
    const rows = await db
      .select({ id: ballots.id, categoryId: ballots.categoryId, applicationId: ballots.applicationId })
      .from(ballots)
      .where(eq(ballots.eventId, show.eventId));
    expect(rows).toHaveLength(3);
    expect(rows.filter((row) => row.applicationId === show.entries[1]!.applicationId)).toHaveLength(2);

    const page = await votePage(db, {
      eventId: show.eventId,
      voteKey: show.entries[1]!.voteKey,
      viewerId: visitors[0]!.id,
      now: NOW,
    });
    expect(page).toMatchObject({
      car: { showNumber: 2, label: "1991 Mazda MX-5 number 2", className: "Modified JDM" },
      voting: { state: "open" },
      categories: [{ slug: "peoples-choice" }, { slug: "best-paint" }],
    });
    expect(page!.tickets).toHaveLength(2);
    // Both tickets were bought at the same test time: find the first by its id.
    const held = page!.tickets.find((ticket) => ticket.id === visitors[0]!.ticketId)!;
    expect(held.problem).toBeNull();
    expect(held.ballots[show.categoryId]).toMatchObject({ id: changed.ok && changed.ballotId, thisCar: true });
    expect(held.ballots[second!.id]).toMatchObject({ showNumber: 3, thisCar: false });
  });

  it("a visitor's page has the car and no tickets; a member without a ticket has none either", async () => {
    const { show } = await showWithVoters(1, 0);
    const page = await votePage(database().db, {
      eventId: show.eventId,
      voteKey: show.entries[0]!.voteKey,
      viewerId: null,
      now: LATER,
    });
    expect(page).toMatchObject({ car: { showNumber: 1 }, voting: { state: "closed" }, tickets: [] });
  });
});

describe("freezing the tally", () => {
  it("waits for voting to close, freezes once, and the frozen list checks out", async () => {
    const { db } = database();
    const { show, visitors } = await showWithVoters(3, 4);
    for (const [index, visitor] of visitors.entries()) await vote(show, visitor, (index % 2) + 1);
    expect(await tallyOnce(db, show.eventId, NOW)).toBeNull();

    const frozen = await tallyOnce(db, show.eventId, LATER);
    expect(frozen).not.toBeNull();
    expect(frozen!.talliedAt).toEqual(LATER);
    expect(frozen!.ballotList.trim().split("\n")).toHaveLength(4);
    // Once frozen it stays frozen: a later call (another server) reads the same list and time.
    const again = await tallyOnce(db, show.eventId, new Date(LATER.getTime() + 60_000));
    expect(again).toEqual(frozen);
    // A vote that slips in afterwards, on a server whose clock runs slow, is refused.
    const [late] = await admittedVisitors(db, show, 1);
    expect(await vote(show, late!, 3, { now: NOW })).toMatchObject({ ok: false, message: "Voting has closed" });

    const list = frozen!.ballotList
      .trim()
      .split("\n")
      .map((line) => {
        const [id, category, car] = line.split(" ");
        return { id: id!, category: category!, car: car! };
      });
    expect(tallyOf(list)).toEqual({ "peoples-choice": { "1": 2, "2": 2 } });
    const [mine] = await db
      .select({ id: ballots.id })
      .from(ballots)
      .where(and(eq(ballots.eventId, show.eventId), inArray(ballots.ticketId, [visitors[0]!.ticketId])));
    const check = await checkTally({
      ballots: list,
      commitment: frozen!.commitment,
      totals: tallyOf(list),
      ballotId: mine!.id,
    });
    expect(check).toMatchObject({ listMatches: true, totalsMatch: true, problems: [] });
    expect(check.yourBallot).toMatchObject({ car: "1" });
  });

  it("two servers freezing at once write it once", async () => {
    const { db } = database();
    const { show, visitors } = await showWithVoters(2, 2);
    await vote(show, visitors[0]!, 1);
    const [a, b] = await Promise.all([
      tallyOnce(db, show.eventId, LATER),
      tallyOnce(db, show.eventId, new Date(LATER.getTime() + 1000)),
    ]);
    expect(a).toEqual(b);
    const [settings] = await db
      .select({ talliedAt: showSettings.talliedAt })
      .from(showSettings)
      .where(eq(showSettings.eventId, show.eventId));
    expect(settings!.talliedAt).toEqual(a!.talliedAt);
  });

  it("a show without settings, or without a closing time, has no tally", async () => {
    const { db } = database();
    const { show } = await showWithVoters(1, 0);
    await db.update(showSettings).set({ votingClosesAt: null }).where(eq(showSettings.eventId, show.eventId));
    expect(await tallyOnce(db, show.eventId, LATER)).toBeNull();
    await db.delete(showSettings).where(eq(showSettings.eventId, show.eventId));
    expect(await tallyOnce(db, show.eventId, LATER)).toBeNull();
  });
});
