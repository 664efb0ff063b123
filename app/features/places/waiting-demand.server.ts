import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { events, ticketTypes, waitingListEntries } from "../../../db/schema";

/**
 * The places people are waiting for, by ticket type, on the lists running at `now` (switched on,
 * the event published and the list not yet closed). Stock reads set free places aside for them.
 */
export async function waitingDemand(db: Db, ticketTypeIds: readonly string[], now: Date) {
  const demand = new Map<string, number>();
  if (ticketTypeIds.length === 0) return demand;
  const rows = await db
    .select({
      ticketTypeId: waitingListEntries.ticketTypeId,
      places: sql<number>`sum(${waitingListEntries.quantity})::int`.mapWith(Number),
    })
    .from(waitingListEntries)
    .innerJoin(ticketTypes, eq(ticketTypes.id, waitingListEntries.ticketTypeId))
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(
      and(
        inArray(waitingListEntries.ticketTypeId, [...ticketTypeIds]),
        eq(waitingListEntries.status, "waiting"),
        eq(events.waitingListEnabled, true),
        eq(events.status, "published"),
        gt(sql`${events.startsAt} - make_interval(hours => ${events.waitingListClosesHours})`, now),
      ),
    )
    .groupBy(waitingListEntries.ticketTypeId);
  for (const row of rows) demand.set(row.ticketTypeId, row.places);
  return demand;
}
