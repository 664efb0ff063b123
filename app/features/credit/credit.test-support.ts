import { asc, eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { creditEntries } from "../../../db/schema";
import { grantCredit } from "./credit.server";

/** Account credit given to a member as staff would give it (an adjustment), running out at `expiresAt`. */
export function giveCredit(db: Db, input: { userId: string; amount: number; expiresAt: Date | null; now: Date }) {
  return db.transaction((tx) =>
    grantCredit(tx, {
      ...input,
      currency: "GBP",
      kind: "adjustment",
      orderId: null,
      reason: "Goodwill",
      actorId: null,
    }),
  );
}

/** The member's ledger, oldest first, as the tests compare it. */
export function ledgerOf(db: Db, userId: string) {
  return db
    .select({
      kind: creditEntries.kind,
      amount: creditEntries.amount,
      orderId: creditEntries.orderId,
      grantId: creditEntries.grantId,
      expiresAt: creditEntries.expiresAt,
    })
    .from(creditEntries)
    .where(eq(creditEntries.userId, userId))
    .orderBy(asc(creditEntries.createdAt), asc(creditEntries.position));
}
