import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { recordAudit } from "~/features/audit/audit.server";
import type { Db } from "~/server/db/client.server";
import { transactionWithRetry } from "~/server/db/retry.server";
import { defineJob } from "~/server/jobs/queue.server";
import { getLog } from "~/server/log.server";
import { type CreditEntryKind, creditEntries } from "../../../db/schema";
import {
  availableAt,
  balanceOf,
  type CreditLine,
  creditToSpend,
  drawsFor,
  expiriesDue,
  grantsLeft,
  latestExpiry,
} from "./credit-rules";

/** The first key of the member's credit lock; the second is a hash of their id. */
const CREDIT_LOCK = 4_272_700;

export const EXPIRY_REASON = "The credit reached its expiry date";
const RETURNED_REASON = "The order it paid for was not paid: the credit is back";

/**
 * Takes the member's credit lock until the transaction ends. Everything that adds to or draws on
 * a member's credit takes it first, so two checkouts at once wait for each other and never both
 * spend the same credit. Callers take it after any order row they lock (ADR 0007's order).
 */
async function lockCredit(tx: Db, userId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(${CREDIT_LOCK}, hashtext(${userId}))`);
}

const lineColumns = {
  id: creditEntries.id,
  amount: creditEntries.amount,
  expiresAt: creditEntries.expiresAt,
  grantId: creditEntries.grantId,
  createdAt: creditEntries.createdAt,
  kind: creditEntries.kind,
  orderId: creditEntries.orderId,
  reason: creditEntries.reason,
  currency: creditEntries.currency,
};

type LedgerLine = CreditLine & { kind: CreditEntryKind; orderId: string | null; reason: string; currency: string };

function readLedger(db: Db, userId: string): Promise<LedgerLine[]> {
  return db
    .select(lineColumns)
    .from(creditEntries)
    .where(eq(creditEntries.userId, userId))
    .orderBy(asc(creditEntries.createdAt), asc(creditEntries.position));
}

/** Writes the expiries due at `now` for the member's ledger `lines`; answers the lines written. */
async function writeExpiries(tx: Db, userId: string, lines: readonly LedgerLine[], now: Date) {
  const due = expiriesDue(lines, now);
  if (due.length === 0) return [];
  const currencyOf = new Map(lines.map((line) => [line.id, line.currency]));
  const written = await tx
    .insert(creditEntries)
    .values(
      due.map((part) => ({
        userId,
        amount: -part.amount,
        currency: currencyOf.get(part.grantId) ?? "GBP",
        kind: "expiry" as const,
        grantId: part.grantId,
        reason: EXPIRY_REASON,
        createdAt: now,
      })),
    )
    .returning(lineColumns);
  await recordAudit(tx, {
    actorId: null,
    action: "credit.expire",
    subjectType: "user",
    subjectId: userId,
    details: { amount: due.reduce((sum, part) => sum + part.amount, 0) },
  });
  return written;
}

/**
 * Spends the member's credit on an order, up to `upTo`, inside the checkout's transaction and
 * under the member's credit lock: the credit that runs out first is spent first, and credit that
 * has run out is written off first. Answers how much was spent (0 when there is none).
 */
export async function spendCredit(
  tx: Db,
  input: { userId: string; orderId: string; upTo: number; currency: string; now: Date },
): Promise<number> {
  if (input.upTo <= 0) return 0;
  // Most members never had credit: one read answers for them, with no lock. Credit given to them
  // meanwhile is simply not spent on this order.
  const [any] = await tx
    .select({ id: creditEntries.id })
    .from(creditEntries)
    .where(eq(creditEntries.userId, input.userId))
    .limit(1);
  if (!any) return 0;
  await lockCredit(tx, input.userId);
  const all = await readLedger(tx, input.userId);
  const lines = [...all, ...(await writeExpiries(tx, input.userId, all, input.now))].filter(
    (line) => line.currency === input.currency,
  );
  const spend = creditToSpend(input.upTo, availableAt(lines, input.now));
  if (spend === 0) return 0;
  const draws = drawsFor(lines, spend, input.now);
  await tx.insert(creditEntries).values(
    draws.map((part) => ({
      userId: input.userId,
      amount: -part.amount,
      currency: input.currency,
      kind: "spend" as const,
      orderId: input.orderId,
      grantId: part.grantId,
      reason: "Spent at checkout",
      createdAt: input.now,
    })),
  );
  return spend;
}

type OrderCredit = { userId: string; currency: string; spent: number; returned: number; latest: Date | null };

const drawnOn = alias(creditEntries, "drawn_on");

/** What each of these orders spent of its member's credit, and how much of it has come back. */
async function creditOfOrders(tx: Db, orderIds: readonly string[]): Promise<Map<string, OrderCredit>> {
  const found = new Map<string, OrderCredit>();
  if (orderIds.length === 0) return found;
  const rows = await tx
    .select({
      orderId: creditEntries.orderId,
      userId: creditEntries.userId,
      currency: creditEntries.currency,
      kind: creditEntries.kind,
      amount: creditEntries.amount,
      grantExpiresAt: drawnOn.expiresAt,
    })
    .from(creditEntries)
    .leftJoin(drawnOn, eq(drawnOn.id, creditEntries.grantId))
    .where(
      and(inArray(creditEntries.orderId, [...orderIds]), inArray(creditEntries.kind, ["spend", "spend_returned"])),
    );
  const spends = new Map<string, { expiresAt: Date | null }[]>();
  for (const row of rows) {
    if (!row.orderId) continue;
    const credit = found.get(row.orderId) ?? {
      userId: row.userId,
      currency: row.currency,
      spent: 0,
      returned: 0,
      latest: null,
    };
    if (row.kind === "spend") {
      credit.spent -= row.amount;
      spends.set(row.orderId, [...(spends.get(row.orderId) ?? []), { expiresAt: row.grantExpiresAt }]);
    } else credit.returned += row.amount;
    found.set(row.orderId, credit);
  }
  for (const [orderId, credit] of found) credit.latest = latestExpiry(spends.get(orderId) ?? []);
  return found;
}

/**
 * Gives back the credit these orders spent and have not had back: they ended unpaid (cancelled,
 * expired, replaced by a newer checkout). The credit keeps the latest expiry of the credit it was
 * spent from. Called in the transaction that ends them, after their rows are locked.
 */
export async function returnCreditOfUnpaidOrders(tx: Db, orderIds: readonly string[], now: Date) {
  const credits = await creditOfOrders(tx, orderIds);
  const owed = [...credits.entries()]
    .filter(([, credit]) => credit.spent > credit.returned)
    .sort(([, a], [, b]) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  for (const [orderId, credit] of owed) {
    await lockCredit(tx, credit.userId);
    await tx.insert(creditEntries).values({
      userId: credit.userId,
      amount: credit.spent - credit.returned,
      currency: credit.currency,
      kind: "spend_returned",
      orderId,
      expiresAt: credit.latest,
      reason: RETURNED_REASON,
      createdAt: now,
    });
  }
}

/**
 * A refund of a paid order that spent credit gives that credit back first: up to `upTo` of what
 * it spent and has not had back, as credit running out at `expiresAt`. Answers how much.
 */
export async function returnCreditForRefund(
  tx: Db,
  input: { orderId: string; upTo: number; expiresAt: Date | null; actorId: string | null; reason: string; now: Date },
): Promise<number> {
  const credit = (await creditOfOrders(tx, [input.orderId])).get(input.orderId);
  if (!credit) return 0;
  const back = Math.max(0, Math.min(input.upTo, credit.spent - credit.returned));
  if (back === 0) return 0;
  await lockCredit(tx, credit.userId);
  await tx.insert(creditEntries).values({
    userId: credit.userId,
    amount: back,
    currency: credit.currency,
    kind: "spend_returned",
    orderId: input.orderId,
    expiresAt: input.expiresAt,
    reason: input.reason,
    actorId: input.actorId,
    createdAt: input.now,
  });
  return back;
}

/** Credit given by staff: a refund to credit (with its order) or an adjustment. */
export async function grantCredit(
  tx: Db,
  input: {
    userId: string;
    amount: number;
    currency: string;
    kind: "refund" | "adjustment";
    orderId: string | null;
    expiresAt: Date | null;
    reason: string;
    actorId: string | null;
    now: Date;
  },
) {
  if (!Number.isInteger(input.amount) || input.amount <= 0) {
    throw new Error(`Credit is given in whole pence above nothing, not ${input.amount}`);
  }
  await lockCredit(tx, input.userId);
  const [line] = await tx
    .insert(creditEntries)
    .values({
      userId: input.userId,
      amount: input.amount,
      currency: input.currency,
      kind: input.kind,
      orderId: input.orderId,
      expiresAt: input.expiresAt,
      reason: input.reason,
      actorId: input.actorId,
      createdAt: input.now,
    })
    .returning({ id: creditEntries.id });
  if (!line) throw new Error("The credit was not written");
  await recordAudit(tx, {
    actorId: input.actorId,
    action: "credit.grant",
    subjectType: "user",
    subjectId: input.userId,
    details: {
      amount: input.amount,
      currency: input.currency,
      kind: input.kind,
      orderId: input.orderId,
      expiresAt: input.expiresAt?.toISOString() ?? null,
      reason: input.reason,
    },
  });
  return line.id;
}

/**
 * The expiry sweep: writes off what is left of every grant whose expiry has come, one member at
 * a time under their credit lock. Answers how many members' credit ran out.
 */
export async function expireCredit(db: Db, input: { now: Date }) {
  const due = await db
    .selectDistinct({ userId: creditEntries.userId })
    .from(creditEntries)
    .where(lte(creditEntries.expiresAt, input.now));
  let expired = 0;
  for (const { userId } of due) {
    const written = await transactionWithRetry(db, async (tx) => {
      await lockCredit(tx, userId);
      return writeExpiries(tx, userId, await readLedger(tx, userId), input.now);
    });
    if (written.length > 0) expired++;
  }
  return { expired };
}

export type CreditStatement = {
  /** What the member can spend now. */
  available: number;
  /** The sum of the ledger (credit run out but not yet written off included). */
  balance: number;
  currency: string | null;
  /** What is left of each grant that runs out, soonest first. */
  expiring: { amount: number; expiresAt: Date }[];
  /** The ledger's lines, newest first. */
  lines: {
    id: string;
    kind: CreditEntryKind;
    amount: number;
    reason: string;
    orderId: string | null;
    at: Date;
    expiresAt: Date | null;
  }[];
};

/** The member's account credit as their account page shows it. */
export async function creditStatement(db: Db, input: { userId: string; now: Date }): Promise<CreditStatement> {
  const lines = await readLedger(db, input.userId);
  const live = grantsLeft(lines).filter((grant) => grant.expiresAt === null || grant.expiresAt > input.now);
  return {
    available: availableAt(lines, input.now),
    balance: balanceOf(lines),
    currency: lines[0]?.currency ?? null,
    expiring: live.flatMap((grant) => (grant.expiresAt ? [{ amount: grant.left, expiresAt: grant.expiresAt }] : [])),
    lines: lines
      .map((line) => ({
        id: line.id,
        kind: line.kind,
        amount: line.amount,
        reason: line.reason,
        orderId: line.orderId,
        at: line.createdAt,
        expiresAt: line.expiresAt,
      }))
      .reverse(),
  };
}

/** What the member could spend at checkout now (read without their lock: the cart's preview). */
export async function spendableCredit(db: Db, input: { userId: string; now: Date }) {
  return availableAt(await readLedger(db, input.userId), input.now);
}

export const LATE_CREDIT_REASON =
  "The payment arrived after the order expired, and the account credit it used had been given back";

/**
 * A payment that arrives after its order expired, for an order whose account credit was given
 * back when it expired: the order would be short of that credit, so the payment is refunded
 * instead (the member still has the credit). Null when nothing stands in the way.
 */
export async function lateCreditRefusal(tx: Db, orderId: string): Promise<string | null> {
  const credit = (await creditOfOrders(tx, [orderId])).get(orderId);
  return credit && credit.returned > 0 ? LATE_CREDIT_REASON : null;
}

/** Every hour, one run at a time across every server: writes off credit past its expiry date. */
export const creditExpiryJob = defineJob<object, { db: Db }>({
  name: "credit-expiry",
  expireInSeconds: 600,
  schedule: "7 * * * *",
  policy: "stately",
  retryLimit: 2,
  retryDelay: 60,
  handler: async (_data, { db }) => {
    const { expired } = await expireCredit(db, { now: new Date() });
    if (expired > 0) getLog().info({ members: expired }, "account credit expired");
  },
});
