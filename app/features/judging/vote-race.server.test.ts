import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBuyers, NOW } from "~/features/checkout/stock.test-support";
import type { Db } from "~/server/db/client.server";
import { appServerPools } from "~/server/db/server-pools.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { ballots, showEntries, tickets, voteCategories } from "../../../db/schema";
import { admittedVisitors, createShow } from "./shows.test-support";
import { parseBallotList } from "./tally-check";
import { checkTally, tallyOf } from "./tally-proof";
import { castVote, tallyOnce } from "./voting.server";

const TICKETS = 1_000;
const CARS = 10;
const LATER = new Date(NOW.getTime() + 2 * 3_600_000);

/**
 * `count` members, each holding one ticket to the show, checked in. One ticket is bought through
 * the real checkout; the rest copy its order line in one statement (the checkout would take minutes).
 */
async function admittedInBulk(db: Db, show: Awaited<ReturnType<typeof createShow>>, count: number) {
  const [first] = await admittedVisitors(db, show, 1);
  const [template] = await db.select().from(tickets).where(eq(tickets.id, first!.ticketId));
  const holders = await createBuyers(db, count - 1);
  const copies = await db
    .insert(tickets)
    .values(
      holders.map((holder) => ({
        orderItemId: template!.orderItemId,
        orderId: template!.orderId,
        ticketTypeId: template!.ticketTypeId,
        eventId: show.eventId,
        userId: holder.id,
        code: randomBytes(16).toString("hex"),
        status: "checked_in" as const,
        checkedInAt: NOW,
      })),
    )
    .returning({ id: tickets.id, userId: tickets.userId });
  return [
    { id: first!.id, ticketId: first!.ticketId },
    ...copies.map((ticket) => ({ id: ticket.userId!, ticketId: ticket.id })),
  ];
}

/**
 * People's Choice under real contention: PGlite runs one transaction at a time, so this runs on
 * PostgreSQL only (DATABASE_URL set), with two connection pools standing for two app servers.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  "People's Choice under contention (PostgreSQL only: set DATABASE_URL)",
  { timeout: 300_000 },
  () => {
    const database = freshDatabasePerFile();
    const servers = appServerPools(database, { count: 2, max: 15 });

    it("2,000 votes from 1,000 tickets on two servers: one ballot per ticket and category, and the tally checks out", async () => {
      const { db } = database();
      const show = await createShow(db, { cars: CARS });
      const [paintId] = (
        await db
          .insert(voteCategories)
          .values({ eventId: show.eventId, slug: "best-paint", name: "Best paint", position: 1 })
          .returning({ id: voteCategories.id })
      ).map((row) => row.id);
      const voters = await admittedInBulk(db, show, TICKETS);
      expect(voters).toHaveLength(TICKETS);

      // Even tickets vote twice in People's Choice at once, for two cars, on the two servers: the
      // two votes race for one ballot. Odd tickets vote once in each category.
      const votes = voters.flatMap((voter, index) => {
        const car = (offset: number) => show.entries[(index + offset) % CARS]!.voteKey;
        const base = { eventId: show.eventId, ticketId: voter.ticketId, voterId: voter.id, now: NOW };
        return index % 2 === 0
          ? [
              { ...base, voteKey: car(0), categoryId: show.categoryId },
              { ...base, voteKey: car(1), categoryId: show.categoryId },
            ]
          : [
              { ...base, voteKey: car(0), categoryId: show.categoryId },
              { ...base, voteKey: car(3), categoryId: paintId! },
            ];
      });
      expect(votes).toHaveLength(2 * TICKETS);
      const outcomes = await Promise.all(votes.map((vote, index) => castVote(servers[index % 2]!, vote)));
      expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([]);

      const rows = await db
        .select({ ticketId: ballots.ticketId, categoryId: ballots.categoryId, n: sql<number>`count(*)::int` })
        .from(ballots)
        .where(eq(ballots.eventId, show.eventId))
        .groupBy(ballots.ticketId, ballots.categoryId);
      expect(rows).toHaveLength(TICKETS + TICKETS / 2);
      expect(rows.every((row) => Number(row.n) === 1)).toBe(true);
      // Both racing votes of a ticket answered with its one ballot's id.
      for (let index = 0; index < votes.length; index += 4) {
        const [a, b] = [outcomes[index]!, outcomes[index + 1]!];
        expect(a.ok && b.ok && a.ballotId === b.ballotId).toBe(true);
      }

      // Voting closes; several servers count at once, and all freeze the same list.
      const frozen = await Promise.all(
        Array.from({ length: 6 }, (_, index) => tallyOnce(servers[index % 2]!, show.eventId, LATER)),
      );
      expect(new Set(frozen.map((tally) => tally!.commitment)).size).toBe(1);
      expect(new Set(frozen.map((tally) => tally!.talliedAt.getTime())).size).toBe(1);
      const list = parseBallotList(frozen[0]!.ballotList);
      expect(list).toHaveLength(TICKETS + TICKETS / 2);

      // The totals are the ballots', counted by the database itself.
      const counted = await db.execute<{ slug: string; car: number; votes: number }>(sql`
        select c.slug, e.show_number as car, count(*)::int as votes
        from ballots b
        join vote_categories c on c.id = b.category_id
        join show_entries e on e.application_id = b.application_id
        where b.event_id = ${show.eventId}
        group by c.slug, e.show_number`);
      const totals: Record<string, Record<string, number>> = {};
      for (const row of (counted as unknown as { rows: { slug: string; car: number; votes: number }[] }).rows) {
        totals[row.slug] = { ...totals[row.slug], [String(row.car)]: Number(row.votes) };
      }
      expect(tallyOf(list)).toEqual(totals);
      expect(Object.values(totals["best-paint"]!).reduce((sum, votes) => sum + votes, 0)).toBe(TICKETS / 2);

      const check = await checkTally({
        ballots: list,
        commitment: frozen[0]!.commitment,
        totals,
        ballotId: outcomes[0]!.ok ? outcomes[0]!.ballotId : "",
      });
      expect(check).toMatchObject({ listMatches: true, totalsMatch: true, problems: [] });
    });

    it("votes racing the count as voting closes: every ballot left in the database is on the frozen list", async () => {
      const { db } = database();
      const show = await createShow(db, { cars: CARS });
      const voters = await admittedInBulk(db, show, 200);
      // Each ticket votes twice (a vote, then a change of mind) on alternate servers, while four
      // counts start among them: votes the count has not seen must be refused, never left out.
      const votes = voters.flatMap((voter, index) =>
        [0, 1].map((offset) => ({
          eventId: show.eventId,
          voteKey: show.entries[(index + offset) % CARS]!.voteKey,
          ticketId: voter.ticketId,
          categoryId: show.categoryId,
          voterId: voter.id,
          now: NOW,
        })),
      );
      // The counts start once some votes are in, while the rest are still on their way: on a third
      // server, whose connections are not all taken by votes already waiting.
      const counts: Promise<unknown>[] = [];
      let answered = 0;
      const outcomes = await Promise.all(
        votes.map((vote, index) =>
          castVote(servers[index % 2]!, vote).then((outcome) => {
            answered++;
            if (answered % 60 === 0 && counts.length < 4) {
              counts.push(tallyOnce(db, show.eventId, LATER));
            }
            return outcome;
          }),
        ),
      );
      await Promise.all(counts);
      const refused = outcomes.filter((outcome) => !outcome.ok);
      // Votes in flight hold the settings row FOR SHARE, so a count usually waits for them all; any
      // vote that reaches the row after the count finds the list frozen and is refused.
      expect(refused.every((outcome) => "message" in outcome && outcome.message === "Voting has closed")).toBe(true);
      const frozen = (await tallyOnce(db, show.eventId, LATER))!;
      const listed = parseBallotList(frozen.ballotList);
      const stored = await db
        .select({ id: ballots.id, car: sql<number>`${showEntries.showNumber}` })
        .from(ballots)
        .innerJoin(showEntries, eq(showEntries.applicationId, ballots.applicationId))
        .where(eq(ballots.eventId, show.eventId));
      expect(listed.map((ballot) => `${ballot.id} ${ballot.car}`).sort()).toEqual(
        stored.map((ballot) => `${ballot.id} ${ballot.car}`).sort(),
      );
    });
  },
);
