import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { ticketHandBacks } from "../../../db/schema";

/**
 * The places handed back for resale and not yet bought, by ticket type. Each is still its
 * holder's valid ticket, so it is counted in `sold`; the stock reads count it as free again, and
 * a buyer who takes it over ends the holder's ticket (app/features/transfers/hand-backs.server.ts).
 */
export async function placesHandedBack(db: Db, ticketTypeIds: readonly string[]) {
  const listed = new Map<string, number>();
  if (ticketTypeIds.length === 0) return listed;
  const rows = await db
    .select({
      ticketTypeId: ticketHandBacks.ticketTypeId,
      places: sql<number>`count(*)::int`.mapWith(Number),
    })
    .from(ticketHandBacks)
    .where(and(inArray(ticketHandBacks.ticketTypeId, [...ticketTypeIds]), eq(ticketHandBacks.status, "listed")))
    .groupBy(ticketHandBacks.ticketTypeId);
  for (const row of rows) listed.set(row.ticketTypeId, row.places);
  return listed;
}
