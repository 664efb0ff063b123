import { and, eq, gte, inArray, ne, sql } from "drizzle-orm";
import { wallTimeAt, wallTimeToInstant } from "~/features/dates/time-zones";
import type { Db } from "~/server/db/client.server";
import { draws, orderItems, orders } from "../../../db/schema";
import { CREDIT_CARD_MONTHLY_CAP, formatPlayMoney, PLAY_TIME_ZONE } from "./play-rules";

export const CREDIT_CARD_INSTANT_WIN_REASON =
  "Entries in draws with instant wins cannot be paid by credit card: the payment is refunded. Pay with a debit card instead";

/** The first instant of the calendar month `now` falls in, in UK time. */
function monthStart(now: Date, timeZone = PLAY_TIME_ZONE) {
  const wall = wallTimeAt(now, timeZone);
  return wallTimeToInstant({ year: wall.year, month: wall.month, day: 1, hour: 0, minute: 0 }, timeZone) ?? now;
}

/**
 * Why a credit card cannot pay for this order's entries, or null when it can (docs/responsible-play.md):
 * never for a draw with instant wins, and at most £250 of entries a calendar month by credit card.
 * Called by settlement, under its locks, with the funding type the provider reported.
 */
export async function creditCardRefusal(
  db: Db,
  input: { orderId: string; userId: string | null; now: Date; currency?: string },
): Promise<string | null> {
  const lines = await db
    .select({
      amount: sql<number>`(${orderItems.unitPrice} * ${orderItems.quantity})::int`,
      instantWins: sql<number>`jsonb_array_length(${draws.instantWins})::int`,
    })
    .from(orderItems)
    .innerJoin(draws, eq(draws.id, orderItems.drawId))
    .where(and(eq(orderItems.orderId, input.orderId), eq(orderItems.kind, "entry")));
  if (lines.length === 0) return null;
  if (lines.some((line) => Number(line.instantWins) > 0)) return CREDIT_CARD_INSTANT_WIN_REASON;

  const adding = lines.reduce((sum, line) => sum + Number(line.amount), 0);
  let spent = 0;
  if (input.userId) {
    const [row] = await db
      .select({
        spent: sql<number>`coalesce(sum(${orderItems.unitPrice} * (${orderItems.quantity} - ${orderItems.refundedQuantity})), 0)::int`,
      })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(
        and(
          eq(orders.userId, input.userId),
          ne(orders.id, input.orderId),
          eq(orders.cardFunding, "credit"),
          inArray(orders.status, ["paid", "fulfilled", "partly_refunded"]),
          gte(orders.paidAt, monthStart(input.now)),
          eq(orderItems.kind, "entry"),
        ),
      );
    spent = Number(row?.spent ?? 0);
  }
  if (spent + adding <= CREDIT_CARD_MONTHLY_CAP) return null;
  const money = (minor: number) => formatPlayMoney(minor, input.currency);
  return `Credit cards can pay for at most ${money(CREDIT_CARD_MONTHLY_CAP)} of prize-draw entries a calendar month, and ${money(Math.max(0, CREDIT_CARD_MONTHLY_CAP - spent))} is left this month: the payment is refunded. Pay with a debit card instead`;
}
