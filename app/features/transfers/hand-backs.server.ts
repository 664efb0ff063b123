import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { accountEmail, type Branding } from "~/features/accounts/emails.server";
import { recordAudit } from "~/features/audit/audit.server";
import { refundOrder } from "~/features/selling/selling.server";
import { readTicketStock } from "~/features/tickets/ticket-stock.server";
import type { Db } from "~/server/db/client.server";
import { transactionWithRetry } from "~/server/db/retry.server";
import { defineJob, type JobQueue } from "~/server/jobs/queue.server";
import { getLog } from "~/server/log.server";
import type { OutboundEmail } from "~/server/mail/mail.server";
import type { Outbox } from "~/server/messages.server";
import { formatMoney } from "~/ui/money";
import { events, orderItems, ticketHandBacks, tickets, ticketTransfers, ticketTypes, users } from "../../../db/schema";
import { Refused, rulesView, ticketWithEvent } from "./passing-on-ticket.server";
import { handBackRefusal } from "./transfer-rules";

export type HandBackOutcome = { ok: true } | { ok: false; message: string };

/**
 * Puts the member's ticket back on sale at face value: the waiting list is offered its place
 * first, then the public. The ticket stays theirs and valid until a buyer's order takes the place.
 */
export async function handBackTicket(
  db: Db,
  input: { userId: string; ticketId: string; now: Date },
): Promise<HandBackOutcome> {
  try {
    return await transactionWithRetry(db, async (tx) => {
      const [owned] = await tx
        .select({ eventId: tickets.eventId })
        .from(tickets)
        .where(and(eq(tickets.id, input.ticketId), eq(tickets.userId, input.userId)));
      if (!owned) throw new Refused("This ticket is not yours to hand back.");
      // The event's rows first, as checkout and refunds lock them, then the ticket's.
      await readTicketStock(tx, [owned.eventId], input.now, { lock: true, forWaitingLists: true });
      const row = await ticketWithEvent(tx, input.ticketId, true);
      if (!row || row.userId !== input.userId) throw new Refused("This ticket is not yours to hand back.");
      const { ticket, event } = rulesView(row);
      const refusal = handBackRefusal(ticket, event, { capacity: row.capacity }, input.now);
      if (refusal) throw new Refused(refusal);
      const [pending] = await tx
        .select({ id: ticketTransfers.id })
        .from(ticketTransfers)
        .where(and(eq(ticketTransfers.ticketId, row.id), eq(ticketTransfers.status, "pending")));
      if (pending) throw new Refused("This ticket is on its way to someone. Cancel the transfer first.");
      const [listed] = await tx
        .insert(ticketHandBacks)
        .values({
          ticketId: row.id,
          ticketTypeId: row.ticketTypeId,
          eventId: row.eventId,
          userId: input.userId,
          fee: row.fee,
          createdAt: input.now,
        })
        .onConflictDoNothing()
        .returning({ id: ticketHandBacks.id });
      if (!listed) throw new Refused("This ticket is already back on sale.");
      // Its place goes back on sale: the waiting list is offered it first, then the public.
      await tx
        .update(ticketTypes)
        .set({ sold: sql`${ticketTypes.sold} - 1`, updatedAt: input.now })
        .where(eq(ticketTypes.id, row.ticketTypeId));
      await recordAudit(tx, {
        actorId: input.userId,
        action: "ticket.handed_back",
        subjectType: "ticket",
        subjectId: row.id,
        details: { handBackId: listed.id, fee: row.fee },
      });
      return { ok: true as const };
    });
  } catch (error) {
    if (error instanceof Refused) return { ok: false, message: error.message };
    throw error;
  }
}

/**
 * Takes a handed-back ticket off sale, unless a buyer is already paying for its place (it is
 * held in their checkout or kept for a waiting-list offer): then it has to stay on sale.
 */
export async function withdrawHandBack(
  db: Db,
  input: { userId: string; ticketId: string; now: Date },
): Promise<HandBackOutcome> {
  return transactionWithRetry(db, async (tx) => {
    const [listing] = await tx
      .select({ id: ticketHandBacks.id, eventId: ticketHandBacks.eventId, ticketTypeId: ticketHandBacks.ticketTypeId })
      .from(ticketHandBacks)
      .where(
        and(
          eq(ticketHandBacks.ticketId, input.ticketId),
          eq(ticketHandBacks.userId, input.userId),
          eq(ticketHandBacks.status, "listed"),
        ),
      );
    if (!listing) return { ok: false, message: "This ticket is not on sale." };
    // Locks the event and its types as checkout does, so no buyer can take the place meanwhile.
    const stock = await readTicketStock(tx, [listing.eventId], input.now, { lock: true, forWaitingLists: true });
    const type = stock.types.get(listing.ticketTypeId);
    const event = stock.events.get(listing.eventId);
    const typeFree = type?.capacity == null ? 1 : type.capacity - type.sold - type.held;
    const eventTaken = stock.typesOfEvent(listing.eventId).reduce((sum, each) => sum + each.sold + each.held, 0);
    const eventFree = event?.capacity == null ? 1 : event.capacity - eventTaken;
    if (typeFree < 1 || eventFree < 1) {
      return {
        ok: false,
        message: "Someone is buying this place right now, so it stays on sale. If they do not, you can take it back.",
      };
    }
    const [withdrawn] = await tx
      .update(ticketHandBacks)
      .set({ status: "withdrawn", endedAt: input.now })
      .where(and(eq(ticketHandBacks.id, listing.id), eq(ticketHandBacks.status, "listed")))
      .returning({ id: ticketHandBacks.id });
    if (!withdrawn) return { ok: false, message: "This ticket is not on sale." };
    // The place is the holder's again.
    await tx
      .update(ticketTypes)
      .set({ sold: sql`${ticketTypes.sold} + 1`, updatedAt: input.now })
      .where(eq(ticketTypes.id, listing.ticketTypeId));
    await recordAudit(tx, {
      actorId: input.userId,
      action: "ticket.hand_back_withdrawn",
      subjectType: "ticket",
      subjectId: input.ticketId,
      details: { handBackId: listing.id },
    });
    return { ok: true };
  });
}

type Resold = {
  email: string;
  name: string;
  eventTitle: string;
  ticketTypeName: string;
  refund: number;
  /** The part of `refund` that went back to account credit (the credit the order spent). */
  credit: number;
  currency: string;
};

/**
 * Hands over the places buyers took: for each event with tickets on sale, while a ticket type (or
 * the event) has more tickets admitting than its capacity, the oldest handed-back ticket of it is
 * refunded to its holder, less the organizer's fee, and its QR stops admitting. Runs after every paid order
 * and every minute; safe on any number of servers (the event's rows are locked as checkout locks
 * them), and it never touches an event whose places were not oversold.
 */
export async function settleHandBacks(db: Db, now: Date): Promise<Resold[]> {
  const eventIds = await db
    .selectDistinct({ id: ticketHandBacks.eventId })
    .from(ticketHandBacks)
    .where(eq(ticketHandBacks.status, "listed"));
  const resold: Resold[] = [];
  for (const { id } of eventIds) resold.push(...(await transactionWithRetry(db, (tx) => settleEvent(tx, id, now))));
  return resold;
}

async function settleEvent(tx: Db, eventId: string, now: Date): Promise<Resold[]> {
  const stock = await readTicketStock(tx, [eventId], now, { lock: true, forWaitingLists: true });
  const listed = await tx
    .select({
      id: ticketHandBacks.id,
      ticketId: ticketHandBacks.ticketId,
      ticketTypeId: ticketHandBacks.ticketTypeId,
      fee: ticketHandBacks.fee,
      orderId: tickets.orderId,
      orderItemId: tickets.orderItemId,
      status: tickets.status,
    })
    .from(ticketHandBacks)
    .innerJoin(tickets, eq(tickets.id, ticketHandBacks.ticketId))
    .where(and(eq(ticketHandBacks.eventId, eventId), eq(ticketHandBacks.status, "listed")))
    .orderBy(asc(ticketHandBacks.createdAt), asc(ticketHandBacks.id));
  // A listed ticket gave its place back (`sold` no longer counts it) but still admits: while
  // sold and listed together pass a capacity, a buyer has taken a listed place.
  const types = stock.typesOfEvent(eventId);
  const admitting = new Map(
    types.map((type) => [type.id, type.sold + listed.filter((each) => each.ticketTypeId === type.id).length]),
  );
  const capacity = stock.events.get(eventId)?.capacity ?? null;
  const overType = (typeId: string) => {
    const type = stock.types.get(typeId);
    return type?.capacity == null ? 0 : (admitting.get(typeId) ?? 0) - type.capacity;
  };
  const overEvent = () =>
    capacity === null ? 0 : [...admitting.values()].reduce((sum, count) => sum + count, 0) - capacity;

  const resold: Resold[] = [];
  for (const listing of listed) {
    if (overType(listing.ticketTypeId) <= 0 && overEvent() <= 0) continue;
    // The refund ends the listing without giving the place back twice. A ticket used at the gate
    // after all is not refunded: the holder keeps it.
    const refunded =
      listing.status === "valid"
        ? await refundOrder(tx, {
            orderId: listing.orderId,
            items: [{ orderItemId: listing.orderItemId, quantity: 1, unitIds: [listing.ticketId] }],
            actorId: null,
            reason: "Handed back and bought by someone else",
            now,
            keepBack: listing.fee > 0 ? { amount: listing.fee, description: "Resale fee" } : undefined,
          })
        : null;
    await tx
      .update(ticketHandBacks)
      .set(
        refunded?.ok
          ? { status: "sold", refunded: refunded.amount, endedAt: now }
          : { status: "withdrawn", endedAt: now },
      )
      .where(eq(ticketHandBacks.id, listing.id));
    admitting.set(listing.ticketTypeId, (admitting.get(listing.ticketTypeId) ?? 0) - 1);
    if (!refunded?.ok) {
      // Its holder keeps the place after all, so the type stays one over its capacity: staff should know.
      getLog().warn(
        { eventId, ticketId: listing.ticketId, problem: refunded && !refunded.ok ? refunded.problem : "checked in" },
        "a handed-back ticket that was bought could not be refunded; its holder keeps it",
      );
      continue;
    }
    await recordAudit(tx, {
      actorId: null,
      action: "ticket.resold",
      subjectType: "ticket",
      subjectId: listing.ticketId,
      details: { handBackId: listing.id, refund: refunded.amount, fee: listing.fee },
    });
    const [holder] = await tx
      .select({ name: users.name, email: users.email, eventTitle: events.title, ticketTypeName: ticketTypes.name })
      .from(tickets)
      .innerJoin(users, eq(users.id, tickets.userId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
      .innerJoin(events, eq(events.id, tickets.eventId))
      .where(eq(tickets.id, listing.ticketId));
    if (holder) {
      resold.push({ ...holder, refund: refunded.amount, credit: refunded.credit, currency: refunded.currency });
    }
  }
  return resold;
}

function resoldEmail(brand: Branding, resold: Resold): OutboundEmail {
  return accountEmail(brand, resold.email, `Your ticket for ${resold.eventTitle} was resold`, {
    greeting: `Hi ${resold.name},`,
    lines: [
      `Someone bought the ${resold.ticketTypeName} place you handed back for ${resold.eventTitle}, so your ticket no longer admits anyone.`,
      refundLine(resold),
    ],
    action: { label: "My tickets", url: `${brand.siteUrl}/members/events` },
  });
}

/** Where the holder's money goes: back to the card, to their account credit, or both. */
function refundLine({ refund, credit, currency }: Resold) {
  const money = (amount: number) => formatMoney(amount, currency);
  if (refund === 0) return "Nothing was paid for it, so there is nothing to refund.";
  if (credit === refund) return `We have put ${money(refund)} back in your account credit, as you paid with it.`;
  const card = `We are refunding ${money(refund - credit)} to the card you paid with; it usually shows within 5–10 days.`;
  return credit > 0 ? `${card} The ${money(credit)} of account credit you paid with is back in your account.` : card;
}

type JobServices = {
  db: Db;
  env: { SITE_NAME: string; SITE_URL: string };
  outbox: Pick<Outbox, "sendEmail">;
};

/** Settles hand-backs and tells each holder whose ticket was bought. */
export async function runHandBacks(services: JobServices, now: Date) {
  const resold = await settleHandBacks(services.db, now);
  const brand = { siteName: services.env.SITE_NAME, siteUrl: services.env.SITE_URL };
  for (const each of resold) await services.outbox.sendEmail(resoldEmail(brand, each));
  return resold.length;
}

/** After each paid order (queued by the settlement follow-up) and every minute, one run at a time. */
export const handBackJob = defineJob<object, JobServices>({
  name: "hand-backs",
  expireInSeconds: 300,
  schedule: "* * * * *",
  policy: "stately",
  retryLimit: 2,
  retryDelay: 10,
  handler: async (_data, services) => {
    await runHandBacks(services, new Date());
  },
});

type HandBackState = { status: "listed" | "sold"; fee: number; refunded: number | null };

/** The listings of these tickets that are on sale or were sold, for the member's page. */
export async function handBacksOf(db: Db, ticketIds: readonly string[]) {
  if (ticketIds.length === 0) return new Map<string, HandBackState>();
  const rows = await db
    .select({
      ticketId: ticketHandBacks.ticketId,
      status: ticketHandBacks.status,
      fee: ticketHandBacks.fee,
      refunded: ticketHandBacks.refunded,
    })
    .from(ticketHandBacks)
    .where(and(inArray(ticketHandBacks.ticketId, [...ticketIds]), inArray(ticketHandBacks.status, ["listed", "sold"])));
  return new Map(
    rows.map((row) => [
      row.ticketId,
      { status: row.status as HandBackState["status"], fee: row.fee, refunded: row.refunded },
    ]),
  );
}

/** Whether this paid order bought places of a ticket type that has tickets handed back on sale. */
async function tookHandedBackPlaces(db: Db, orderId: string) {
  const [found] = await db
    .select({ one: ticketHandBacks.id })
    .from(ticketHandBacks)
    .innerJoin(orderItems, eq(orderItems.ticketTypeId, ticketHandBacks.ticketTypeId))
    .where(and(eq(orderItems.orderId, orderId), eq(ticketHandBacks.status, "listed")))
    .limit(1);
  return Boolean(found);
}

/**
 * After a paid order: when it bought places of a type with tickets handed back, the hand-backs
 * are settled at once rather than at the next minute's run.
 */
export async function settleHandBacksAfter(runtime: { db: Db; jobs: Pick<JobQueue, "enqueue"> }, orderId: string) {
  if (await tookHandedBackPlaces(runtime.db, orderId)) {
    await runtime.jobs.enqueue(handBackJob, {}, { singletonKey: "hand-backs" });
  }
}
