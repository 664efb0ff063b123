import { and, asc, eq, inArray } from "drizzle-orm";
import type { CartLineView, KindCart } from "~/features/commerce/item-kind";
import type { Db } from "~/server/db/client.server";
import { cartItems, carts, events, exhibitorPasses, showCarApplications } from "../../../db/schema";
import { feeLineProblem } from "./application-rules";
import { issuePass } from "./passes.server";

/**
 * An approved application's fee in the one cart and checkout (docs/applications.md, "The fee"):
 * the `application` line in the cart, the order lines checkout makes of it, and what settlement
 * and refunds do to the application. fee-kind.server.ts hands these to the commerce core.
 */

/** What the fee rules (`feeLineProblem`) read of an application and its event, joined. */
const feeFactColumns = {
  status: showCarApplications.status,
  fee: showCarApplications.fee,
  eventStatus: events.status,
  applicationsDeadline: events.applicationsDeadline,
  endsAt: events.endsAt,
};

type FeeEvent = Parameters<typeof feeLineProblem>[1];
type FeeFacts = Parameters<typeof feeLineProblem>[0] & Omit<FeeEvent, "status"> & { eventStatus: FeeEvent["status"] };

/** Why the fee of an application read with `feeFactColumns` cannot be paid now; null when it can. */
function feeProblem(row: FeeFacts, now: Date) {
  return feeLineProblem(row, { ...row, status: row.eventStatus }, now);
}

/**
 * Settlement of an order's application lines: each application (still approved) becomes paid
 * and gets its pass. Called inside settlement's transaction after the order is marked paid.
 */
export async function settleApplicationFees(
  tx: Db,
  input: { orderId: string; userId: string | null; applicationIds: string[]; now: Date },
) {
  if (input.applicationIds.length === 0) return 0;
  const paid = await tx
    .update(showCarApplications)
    .set({ status: "paid", paidAt: input.now, updatedAt: input.now })
    .where(and(inArray(showCarApplications.id, input.applicationIds), eq(showCarApplications.status, "approved")))
    .returning({
      id: showCarApplications.id,
      eventId: showCarApplications.eventId,
      userId: showCarApplications.userId,
    });
  for (const row of paid) {
    await issuePass(tx, {
      applicationId: row.id,
      eventId: row.eventId,
      userId: row.userId,
      orderId: input.orderId,
      now: input.now,
    });
  }
  return paid.length;
}

/**
 * Why an order's application lines can no longer be honoured at settlement (not approved any
 * more, or past the deadline); null when they can.
 */
export async function applicationFeesProblem(tx: Db, applicationIds: string[], now: Date): Promise<string | null> {
  if (applicationIds.length === 0) return null;
  const rows = await tx
    .select({
      ...feeFactColumns,
    })
    .from(showCarApplications)
    .innerJoin(events, eq(events.id, showCarApplications.eventId))
    .where(inArray(showCarApplications.id, applicationIds))
    .for("update", { of: showCarApplications });
  if (rows.length !== applicationIds.length) return "A show-car application in the order no longer exists";
  for (const row of rows) {
    const problem = feeProblem(row, now);
    if (problem) return problem;
  }
  return null;
}

/**
 * A refund of application fees: the passes are cancelled and the applications withdrawn, which
 * frees their spots for the waiting list.
 */
export async function cancelRefundedApplications(tx: Db, applicationIds: string[], now: Date) {
  if (applicationIds.length === 0) return;
  await tx
    .update(exhibitorPasses)
    .set({ status: "cancelled" })
    .where(inArray(exhibitorPasses.applicationId, applicationIds));
  await tx
    .update(showCarApplications)
    .set({ status: "withdrawn", updatedAt: now })
    .where(inArray(showCarApplications.id, applicationIds));
}

export type PayFeeResult = { ok: true; cartId: string } | { ok: false; message: string };

/**
 * "Pay the fee": the approved application's fee goes into the member's cart as one
 * `application` line (a second click changes nothing). Checkout and settlement check it again.
 */
export async function addFeeToCart(
  db: Db,
  input: { userId: string; applicationId: string; now: Date },
): Promise<PayFeeResult> {
  const [row] = await db
    .select({
      id: showCarApplications.id,
      ...feeFactColumns,
    })
    .from(showCarApplications)
    .innerJoin(events, eq(events.id, showCarApplications.eventId))
    .where(and(eq(showCarApplications.id, input.applicationId), eq(showCarApplications.userId, input.userId)));
  if (!row) return { ok: false, message: "This application could not be found" };
  const problem = feeProblem(row, input.now);
  if (problem) return { ok: false, message: problem };
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(carts)
      .values({ userId: input.userId })
      .onConflictDoNothing()
      .returning({ id: carts.id });
    const cartId =
      created?.id ?? (await tx.select({ id: carts.id }).from(carts).where(eq(carts.userId, input.userId)))[0]!.id;
    await tx
      .insert(cartItems)
      .values({ cartId, kind: "application", applicationId: row.id, quantity: 1 })
      .onConflictDoNothing();
    await tx.update(carts).set({ updatedAt: input.now }).where(eq(carts.id, cartId));
    return { ok: true as const, cartId };
  });
}

export async function removeFeeFromCart(db: Db, input: { cartId: string; applicationId: string; now: Date }) {
  await db
    .delete(cartItems)
    .where(and(eq(cartItems.cartId, input.cartId), eq(cartItems.applicationId, input.applicationId)));
  await db.update(carts).set({ updatedAt: input.now }).where(eq(carts.id, input.cartId));
}

/** Fees of approved show-car applications on the cart page: one line each, no quantity. */
export const feeCart: KindCart = {
  sections: [
    { id: "cart-applications", title: "Show-car applications", intro: "Your exhibitor pass is issued when you pay." },
  ],
  lines: (db, _rows, context) => applicationCartLines(db, context),
};

/** The cart's application lines, with whatever stands in the way of paying. */
async function applicationCartLines(db: Db, input: { cartId: string; now: Date }): Promise<CartLineView[]> {
  const rows = await db
    .select({
      applicationId: showCarApplications.id,
      ...feeFactColumns,
      carLabel: showCarApplications.carLabel,
      eventTitle: events.title,
      eventSlug: events.slug,
    })
    .from(cartItems)
    .innerJoin(showCarApplications, eq(showCarApplications.id, cartItems.applicationId))
    .innerJoin(events, eq(events.id, showCarApplications.eventId))
    .where(and(eq(cartItems.cartId, input.cartId), eq(cartItems.kind, "application")))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.id));
  return rows.map((row) => {
    const problem = feeProblem(row, input.now);
    return {
      section: "cart-applications",
      ref: row.applicationId,
      label: `${row.eventTitle}, ${row.carLabel}`,
      header: { href: `/events/${row.eventSlug}`, of: row.eventTitle, name: "Show-car fee", detail: row.carLabel },
      unitPrice: row.fee,
      quantity: 1,
      target: { applicationId: row.applicationId },
      item: { kind: "application" },
      problem,
      problemId: `application-problem-${row.applicationId}`,
      closed: problem !== null,
      update: null,
      remove: { intent: "remove-application", label: `Remove the show-car fee for ${row.eventTitle}` },
    };
  });
}

/** The application lines checkout turns into order lines, checked under the application row locks. */
export async function applicationCheckoutItems(tx: Db, input: { applicationIds: string[]; now: Date }) {
  if (input.applicationIds.length === 0) return [];
  const rows = await tx
    .select({
      applicationId: showCarApplications.id,
      eventId: showCarApplications.eventId,
      ...feeFactColumns,
      carLabel: showCarApplications.carLabel,
      eventTitle: events.title,
    })
    .from(showCarApplications)
    .innerJoin(events, eq(events.id, showCarApplications.eventId))
    .where(inArray(showCarApplications.id, input.applicationIds))
    .orderBy(asc(showCarApplications.id))
    .for("update", { of: showCarApplications });
  return rows.map((row) => ({
    applicationId: row.applicationId,
    eventId: row.eventId,
    description: `${row.eventTitle} — show car: ${row.carLabel}`,
    unitPrice: row.fee,
    problem: feeProblem(row, input.now),
  }));
}
