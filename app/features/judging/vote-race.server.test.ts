import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBuyers, NOW } from "~/features/checkout/stock.test-support";
import { appServerPools } from "~/server/db/server-pools.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { ballots, tickets, voteCategories } from "../../../db/schema";
import { admittedVisitors, createShow } from "./shows.test-support";
import { parseBallotList } from "./tally-check";
import { checkTally, tallyOf } from "./tally-proof";
import { castVote, tallyOnce } from "./voting.server";

const TICKETS = 1_000;
const CARS = 10;
const LATER = new Date(NOW.getTime() + 2 * 3_600_000);

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
      // One ticket bought through the real checkout; the other 999 copy its order line in one
      // statement (the checkout would take minutes), each held by its own member, all checked in.
      const [first] = await admittedVisitors(db, show, 1);
      const [template] = await db.select().from(tickets).where(eq(tickets.id, first!.ticketId));
      const holders = await createBuyers(db, TICKETS - 1);
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
      const voters = [
        { id: first!.id, ticketId: first!.ticketId },
        ...copies.map((ticket) => ({ id: ticket.userId!, ticketId: ticket.id })),
      ];
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
  },
);
