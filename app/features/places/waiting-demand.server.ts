import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { events, products, productVariants, ticketTypes, waitingListEntries } from "../../../db/schema";

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
  for (const row of rows) demand.set(row.ticketTypeId!, row.places);
  return demand;
}

/**
 * The units people are waiting for, by merch variant, on the lines running now: the product on
 * sale with its waiting lists on, and the variant still offered. Stock reads set free units aside for them.
 */
export async function variantWaitingDemand(db: Db, variantIds: readonly string[]) {
  const demand = new Map<string, number>();
  if (variantIds.length === 0) return demand;
  const rows = await db
    .select({
      variantId: waitingListEntries.variantId,
      units: sql<number>`sum(${waitingListEntries.quantity})::int`.mapWith(Number),
    })
    .from(waitingListEntries)
    .innerJoin(productVariants, eq(productVariants.id, waitingListEntries.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      and(
        inArray(waitingListEntries.variantId, [...variantIds]),
        eq(waitingListEntries.status, "waiting"),
        eq(productVariants.active, true),
        eq(products.status, "active"),
        eq(products.waitingListEnabled, true),
      ),
    )
    .groupBy(waitingListEntries.variantId);
  for (const row of rows) demand.set(row.variantId!, row.units);
  return demand;
}
