import { inArray } from "drizzle-orm";
import { formatEventInstant } from "~/features/dates/event-dates";
import type { Db } from "~/server/db/client.server";
import { formatMoney } from "~/ui/money";
import { type CreditEntryKind, orders } from "../../../db/schema";
import { creditStatement } from "./credit.server";

const KIND_LABELS: Record<CreditEntryKind, string> = {
  refund: "Refund to credit",
  spend: "Spent",
  spend_returned: "Given back",
  expiry: "Ran out",
  adjustment: "Adjustment",
};

export type CreditView = {
  available: string;
  expiring: { amount: string; when: string }[];
  lines: {
    id: string;
    label: string;
    amount: string;
    when: string;
    orderNumber: number | null;
    reason: string;
    expires: string | null;
  }[];
};

/**
 * The "Account credit" section of the member's orders page: what they can spend, what runs out
 * when, and every line of the ledger, newest first. Null for a member who never had credit.
 */
export async function creditViewFor(
  db: Db,
  input: { userId: string; now: Date; timeZone: string },
): Promise<CreditView | null> {
  const statement = await creditStatement(db, input);
  const currency = statement.currency;
  if (!currency) return null;
  const orderIds = [...new Set(statement.lines.flatMap((line) => (line.orderId ? [line.orderId] : [])))];
  const numbers = new Map(
    orderIds.length === 0
      ? []
      : (
          await db.select({ id: orders.id, number: orders.number }).from(orders).where(inArray(orders.id, orderIds))
        ).map((order) => [order.id, order.number]),
  );
  const money = (amount: number) => formatMoney(amount, currency);
  const when = (at: Date) => formatEventInstant(at, input.timeZone);
  // A spend over two grants shows as two lines, each with its order.
  return {
    available: money(statement.available),
    expiring: statement.expiring.map((grant) => ({ amount: money(grant.amount), when: when(grant.expiresAt) })),
    lines: statement.lines.map((line) => ({
      id: line.id,
      label: KIND_LABELS[line.kind],
      amount: line.amount > 0 ? `+${money(line.amount)}` : `−${money(-line.amount)}`,
      when: when(line.at),
      orderNumber: line.orderId ? (numbers.get(line.orderId) ?? null) : null,
      reason: line.reason,
      expires: line.expiresAt && line.amount > 0 ? when(line.expiresAt) : null,
    })),
  };
}
