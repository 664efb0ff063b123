import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, inArray } from "drizzle-orm";
import { ATTEMPT_RULES, countAttempt, describeWait } from "~/features/accounts/attempts.server";
import { accountEmail, type Branding } from "~/features/accounts/emails.server";
import { recordAudit } from "~/features/audit/audit.server";
import { formatEventInstant } from "~/features/dates/event-dates";
import { newTicketCode } from "~/features/tickets/ticket-codes.server";
import type { Db } from "~/server/db/client.server";
import { isUniqueViolation, transactionWithRetry } from "~/server/db/retry.server";
import type { OutboundEmail } from "~/server/mail/mail.server";
import { formatCount } from "~/ui/plural";
import { events, orderItems, ticketHandBacks, tickets, ticketTransfers, ticketTypes, users } from "../../../db/schema";
import { handBacksOf } from "./hand-backs.server";
import { Refused, rulesView, type TicketWithEvent, ticketWithEvent } from "./passing-on-ticket.server";
import { handBackRefund, handBackRefusal, normaliseEmail, passingOnClosesAt, transferRefusal } from "./transfer-rules";

export type TransferOutcome = { ok: true; email: OutboundEmail } | { ok: false; message: string };

/** The link's token is kept only as its hash, so a copy of the database cannot accept a ticket. */
function hashToken(token: string) {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Sends the member's ticket to someone by email: a pending transfer with a single-use link. The
 * ticket stays the sender's, and valid, until the recipient accepts; one transfer at a time.
 */
export async function sendTransfer(
  db: Db,
  input: { userId: string; ticketId: string; toName: string; toEmail: string; now: Date; brand: Branding },
): Promise<TransferOutcome> {
  const token = randomBytes(32).toString("base64url");
  const toEmail = normaliseEmail(input.toEmail);
  // Each transfer emails an address the member chose: a day's sends are limited, cancelled or not.
  const limit = ATTEMPT_RULES.ticketTransferByMember;
  const allowed = await countAttempt(db, `ticket-transfer:${input.userId}`, limit, input.now);
  if (!allowed.allowed) {
    return {
      ok: false,
      message: `You have sent ${formatCount(limit.max)} tickets in a day, the most we allow. Try again in ${describeWait(allowed.retryAfterSeconds)}.`,
    };
  }
  try {
    return await transactionWithRetry(db, async (tx) => {
      const row = await ticketWithEvent(tx, input.ticketId, true);
      if (!row || row.userId !== input.userId) throw new Refused("This ticket is not yours to transfer.");
      const { ticket, event } = rulesView(row);
      const refusal = transferRefusal(ticket, event, input.now);
      if (refusal) throw new Refused(refusal);
      const [sender] = await tx
        .select({ name: users.name, email: users.email })
        .from(users)
        .where(eq(users.id, input.userId));
      if (normaliseEmail(sender?.email ?? "") === toEmail) throw new Refused("This ticket is already yours.");
      const [listed] = await tx
        .select({ id: ticketHandBacks.id })
        .from(ticketHandBacks)
        .where(and(eq(ticketHandBacks.ticketId, row.id), eq(ticketHandBacks.status, "listed")));
      if (listed) throw new Refused("This ticket is back on sale. Take it off sale before you transfer it.");
      const [transfer] = await tx
        .insert(ticketTransfers)
        .values({
          ticketId: row.id,
          fromUserId: input.userId,
          toEmail,
          toName: input.toName,
          tokenHash: hashToken(token),
          createdAt: input.now,
        })
        .returning({ id: ticketTransfers.id });
      await recordAudit(tx, {
        actorId: input.userId,
        action: "ticket.transfer_sent",
        subjectType: "ticket",
        subjectId: row.id,
        details: { transferId: transfer!.id, to: toEmail, event: row.eventTitle },
      });
      return {
        ok: true as const,
        email: transferEmail(input.brand, {
          ...row,
          token,
          toEmail,
          toName: input.toName,
          from: sender?.name ?? "A member",
        }),
      };
    });
  } catch (error) {
    if (error instanceof Refused) return { ok: false, message: error.message };
    if (isUniqueViolation(error))
      return { ok: false, message: "This ticket is already on its way to someone. Cancel that first." };
    throw error;
  }
}

function transferEmail(
  brand: Branding,
  transfer: Pick<TicketWithEvent, "eventTitle" | "ticketTypeName" | "startsAt" | "timeZone" | "transfersCloseHours"> & {
    token: string;
    toEmail: string;
    toName: string;
    from: string;
  },
): OutboundEmail {
  const closes = formatEventInstant(passingOnClosesAt(transfer), transfer.timeZone);
  return accountEmail(brand, transfer.toEmail, `${transfer.from} sent you a ticket for ${transfer.eventTitle}`, {
    greeting: `Hi ${transfer.toName},`,
    lines: [
      `${transfer.from} is passing a ${transfer.ticketTypeName} ticket for ${transfer.eventTitle} (${formatEventInstant(transfer.startsAt, transfer.timeZone)}) on to you.`,
      `Accept it by ${closes} and it will be in your account with its own QR code. You can sign in or create an account as you accept.`,
    ],
    action: { label: "Accept the ticket", url: `${brand.siteUrl}/tickets/accept/${transfer.token}` },
    footnote: "Not expecting this? Ignore this email: the ticket stays with the sender.",
  });
}

/** Takes back a ticket the member sent that was not accepted yet. */
export async function cancelTransfer(db: Db, input: { userId: string; transferId: string; now: Date }) {
  return db.transaction(async (tx) => {
    const [cancelled] = await tx
      .update(ticketTransfers)
      .set({ status: "cancelled", decidedAt: input.now })
      .where(
        and(
          eq(ticketTransfers.id, input.transferId),
          eq(ticketTransfers.fromUserId, input.userId),
          eq(ticketTransfers.status, "pending"),
        ),
      )
      .returning({ ticketId: ticketTransfers.ticketId });
    if (!cancelled) return false;
    await recordAudit(tx, {
      actorId: input.userId,
      action: "ticket.transfer_cancelled",
      subjectType: "ticket",
      subjectId: cancelled.ticketId,
      details: { transferId: input.transferId },
    });
    return true;
  });
}

export type TransferByLink = {
  status: "pending" | "accepted" | "cancelled" | "lapsed";
  eventTitle: string;
  eventSlug: string;
  ticketTypeName: string;
  when: string;
  fromName: string;
  toName: string;
  closesAt: string;
  /** Whether the member looking is the one who sent it. */
  sentByViewer: boolean;
  /** Whether the member looking is the one who accepted it. */
  acceptedByViewer: boolean;
};

/** What the link in a transfer email shows, or null when it is no link of ours. */
export async function transferByToken(
  db: Db,
  input: { token: string; viewerId: string | null; now: Date },
): Promise<TransferByLink | null> {
  const [row] = await db
    .select({
      status: ticketTransfers.status,
      fromUserId: ticketTransfers.fromUserId,
      toUserId: ticketTransfers.toUserId,
      toName: ticketTransfers.toName,
      fromName: users.name,
      eventTitle: events.title,
      eventSlug: events.slug,
      startsAt: events.startsAt,
      timeZone: events.timeZone,
      transfersCloseHours: events.transfersCloseHours,
      ticketTypeName: ticketTypes.name,
    })
    .from(ticketTransfers)
    .innerJoin(tickets, eq(tickets.id, ticketTransfers.ticketId))
    .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
    .innerJoin(events, eq(events.id, tickets.eventId))
    .innerJoin(users, eq(users.id, ticketTransfers.fromUserId))
    .where(eq(ticketTransfers.tokenHash, hashToken(input.token)));
  if (!row) return null;
  const closesAt = passingOnClosesAt(row);
  const lapsed = row.status === "pending" && input.now >= closesAt;
  return {
    status: lapsed ? "lapsed" : row.status,
    eventTitle: row.eventTitle,
    eventSlug: row.eventSlug,
    ticketTypeName: row.ticketTypeName,
    when: formatEventInstant(row.startsAt, row.timeZone),
    fromName: row.fromName,
    toName: row.toName,
    closesAt: formatEventInstant(closesAt, row.timeZone),
    sentByViewer: input.viewerId === row.fromUserId,
    acceptedByViewer: input.viewerId !== null && input.viewerId === row.toUserId,
  };
}

export type AcceptOutcome =
  | { ok: true; eventTitle: string; email: OutboundEmail | null }
  | { ok: false; message: string };

/**
 * Accepts a transfer for the signed-in member: in one transaction the sender's ticket becomes
 * `transferred` (its QR is refused at the gate from this moment) and a new ticket, with a new
 * code, is issued to the member under their own name. The sender is told by email.
 */
export async function acceptTransfer(
  db: Db,
  input: { token: string; userId: string; now: Date; brand: Branding },
): Promise<AcceptOutcome> {
  try {
    return await transactionWithRetry(db, async (tx) => {
      const [transfer] = await tx
        .select()
        .from(ticketTransfers)
        .where(eq(ticketTransfers.tokenHash, hashToken(input.token)))
        .for("update");
      if (!transfer) throw new Refused("This link is not valid.");
      if (transfer.fromUserId === input.userId) {
        throw new Refused("You sent this ticket. It moves when the person you sent it to accepts it.");
      }
      if (transfer.status === "accepted") {
        throw new Refused(
          transfer.toUserId === input.userId
            ? "You already accepted this ticket."
            : "This ticket was already accepted.",
        );
      }
      if (transfer.status === "cancelled") throw new Refused("The sender took this ticket back.");
      if (transfer.status === "lapsed") throw new Refused("This transfer ran out before it was accepted.");
      const row = await ticketWithEvent(tx, transfer.ticketId, true);
      if (!row) throw new Refused("This ticket no longer exists.");
      const { ticket, event } = rulesView(row);
      // The once-per-ticket rule was checked when it was sent; the cut-off and the ticket still admitting count now.
      const refusal = transferRefusal({ ...ticket, transfers: 0 }, event, input.now);
      if (refusal) {
        // Past the cut-off (or the ticket no longer admits): the transfer ends here, for good.
        await tx
          .update(ticketTransfers)
          .set({ status: "lapsed", decidedAt: input.now })
          .where(eq(ticketTransfers.id, transfer.id));
        return { ok: false as const, message: refusal };
      }
      const [recipient] = await tx.select({ name: users.name }).from(users).where(eq(users.id, input.userId));
      await tx
        .update(tickets)
        .set({ status: "transferred", updatedAt: input.now })
        .where(and(eq(tickets.id, row.id), inArray(tickets.status, ["valid"])));
      const [issued] = await tx
        .insert(tickets)
        .values({
          orderItemId: row.orderItemId,
          orderId: row.orderId,
          ticketTypeId: row.ticketTypeId,
          eventId: row.eventId,
          userId: input.userId,
          attendeeName: recipient?.name ?? transfer.toName,
          code: newTicketCode(),
          transfers: row.transfers + 1,
          createdAt: input.now,
          updatedAt: input.now,
        })
        .returning({ id: tickets.id });
      await tx
        .update(ticketTransfers)
        .set({ status: "accepted", toUserId: input.userId, newTicketId: issued!.id, decidedAt: input.now })
        .where(eq(ticketTransfers.id, transfer.id));
      await recordAudit(tx, {
        actorId: input.userId,
        action: "ticket.transfer_accepted",
        subjectType: "ticket",
        subjectId: row.id,
        details: { transferId: transfer.id, newTicketId: issued!.id, from: transfer.fromUserId },
      });
      const [sender] = await tx
        .select({ name: users.name, email: users.email })
        .from(users)
        .where(eq(users.id, transfer.fromUserId));
      const email = sender
        ? accountEmail(input.brand, sender.email, `${recipient?.name ?? transfer.toName} accepted your ticket`, {
            greeting: `Hi ${sender.name},`,
            lines: [
              `${recipient?.name ?? transfer.toName} accepted the ${row.ticketTypeName} ticket for ${row.eventTitle} you sent. It is theirs now, with a new QR code; your old one no longer admits anyone.`,
            ],
          })
        : null;
      return { ok: true as const, eventTitle: row.eventTitle, email };
    });
  } catch (error) {
    if (error instanceof Refused) return { ok: false, message: error.message };
    throw error;
  }
}

/** What the member's page shows and offers under one of their tickets, about passing it on. */
export type PassingOn = {
  /** Why it cannot be sent on, or null when it can. */
  transferRefusal: string | null;
  /** Why it cannot be handed back, or null when it can. */
  handBackRefusal: string | null;
  /** The transfer waiting for its recipient. */
  pending: { id: string; toName: string; toEmail: string } | null;
  /** Back on sale, or bought by someone else. */
  handBack: { status: "listed" | "sold"; refund: number } | null;
  /** Who accepted it, when it was passed on. */
  transferredTo: string | null;
  closesAt: string;
};

/** For each of the member's tickets: what they may do to pass it on, and what is under way. */
export async function passingOnForTickets(
  db: Db,
  input: { userId: string; ticketIds: readonly string[]; now: Date },
): Promise<Record<string, PassingOn>> {
  if (input.ticketIds.length === 0) return {};
  const [rows, transfers, handBacks] = await Promise.all([
    db
      .select({
        id: tickets.id,
        status: tickets.status,
        transfers: tickets.transfers,
        paid: orderItems.unitPrice,
        capacity: ticketTypes.capacity,
        eventStatus: events.status,
        startsAt: events.startsAt,
        timeZone: events.timeZone,
        transferRule: events.transfers,
        transfersCloseHours: events.transfersCloseHours,
        handBackEnabled: events.handBackEnabled,
        fee: events.handBackFee,
      })
      .from(tickets)
      .innerJoin(orderItems, eq(orderItems.id, tickets.orderItemId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
      .innerJoin(events, eq(events.id, tickets.eventId))
      .where(and(inArray(tickets.id, [...input.ticketIds]), eq(tickets.userId, input.userId))),
    db
      .select({
        id: ticketTransfers.id,
        ticketId: ticketTransfers.ticketId,
        status: ticketTransfers.status,
        toName: ticketTransfers.toName,
        toEmail: ticketTransfers.toEmail,
        acceptedBy: users.name,
      })
      .from(ticketTransfers)
      .leftJoin(users, eq(users.id, ticketTransfers.toUserId))
      .where(
        and(
          inArray(ticketTransfers.ticketId, [...input.ticketIds]),
          inArray(ticketTransfers.status, ["pending", "accepted"]),
        ),
      ),
    handBacksOf(db, input.ticketIds),
  ]);
  const result: Record<string, PassingOn> = {};
  for (const row of rows) {
    const { ticket, event } = rulesView(row);
    const pending = transfers.find((each) => each.ticketId === row.id && each.status === "pending");
    const accepted = transfers.find((each) => each.ticketId === row.id && each.status === "accepted");
    const handBack = handBacks.get(row.id);
    result[row.id] = {
      transferRefusal: transferRefusal(ticket, event, input.now),
      handBackRefusal: handBackRefusal(ticket, event, { capacity: row.capacity }, input.now),
      pending: pending ? { id: pending.id, toName: pending.toName, toEmail: pending.toEmail } : null,
      handBack: handBack
        ? {
            status: handBack.status,
            // Once resold, what was refunded; while on sale, what the holder would get back.
            refund: handBack.refunded ?? handBackRefund(row.paid, handBack.fee),
          }
        : null,
      transferredTo: accepted ? (accepted.acceptedBy ?? accepted.toName) : null,
      closesAt: formatEventInstant(passingOnClosesAt(event), row.timeZone),
    };
  }
  return result;
}

export type PassingOnSettings = {
  transfers: "off" | "once" | "unlimited";
  closesHours: number;
  handBackEnabled: boolean;
  handBackFee: number;
};

/**
 * The organizer's view of one event's tickets passed on: the settings, transfers waiting or done,
 * and tickets handed back, newest first. Null when there is no such event.
 */
export async function passingOnPage(db: Db, eventId: string) {
  const [event] = await db
    .select({
      transfers: events.transfers,
      closesHours: events.transfersCloseHours,
      handBackEnabled: events.handBackEnabled,
      handBackFee: events.handBackFee,
      startsAt: events.startsAt,
      timeZone: events.timeZone,
    })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event) return null;
  const [transfers, handBacks] = await Promise.all([
    db
      .select({
        id: ticketTransfers.id,
        status: ticketTransfers.status,
        from: users.name,
        toName: ticketTransfers.toName,
        toEmail: ticketTransfers.toEmail,
        ticketTypeName: ticketTypes.name,
        createdAt: ticketTransfers.createdAt,
      })
      .from(ticketTransfers)
      .innerJoin(tickets, eq(tickets.id, ticketTransfers.ticketId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
      .innerJoin(users, eq(users.id, ticketTransfers.fromUserId))
      .where(eq(tickets.eventId, eventId))
      .orderBy(desc(ticketTransfers.createdAt))
      .limit(200),
    db
      .select({
        id: ticketHandBacks.id,
        status: ticketHandBacks.status,
        holder: users.name,
        ticketTypeName: ticketTypes.name,
        createdAt: ticketHandBacks.createdAt,
      })
      .from(ticketHandBacks)
      .innerJoin(ticketTypes, eq(ticketTypes.id, ticketHandBacks.ticketTypeId))
      .leftJoin(users, eq(users.id, ticketHandBacks.userId))
      .where(eq(ticketHandBacks.eventId, eventId))
      .orderBy(desc(ticketHandBacks.createdAt))
      .limit(200),
  ]);
  const when = (at: Date) => formatEventInstant(at, event.timeZone);
  return {
    settings: {
      transfers: event.transfers,
      closesHours: event.closesHours,
      handBackEnabled: event.handBackEnabled,
      handBackFee: event.handBackFee,
    } satisfies PassingOnSettings,
    closesLabel: when(passingOnClosesAt({ startsAt: event.startsAt, transfersCloseHours: event.closesHours })),
    transfers: transfers.map(({ createdAt, ...row }) => ({ ...row, sentAt: when(createdAt) })),
    handBacks: handBacks.map(({ createdAt, holder, ...row }) => ({
      ...row,
      holder: holder ?? "A former member",
      listedAt: when(createdAt),
    })),
  };
}

/** Saves an event's passing-on settings, in the audit log. False when there is no such event. */
export async function savePassingOnSettings(
  db: Db,
  eventId: string,
  settings: PassingOnSettings,
  actor: { actorId: string; ip: string | null; now: Date },
) {
  return db.transaction(async (tx) => {
    const [saved] = await tx
      .update(events)
      .set({
        transfers: settings.transfers,
        transfersCloseHours: settings.closesHours,
        handBackEnabled: settings.handBackEnabled,
        handBackFee: settings.handBackFee,
        updatedAt: actor.now,
      })
      .where(eq(events.id, eventId))
      .returning({ id: events.id });
    if (!saved) return false;
    await recordAudit(tx, {
      actorId: actor.actorId,
      action: "event.passing_on",
      subjectType: "event",
      subjectId: eventId,
      ip: actor.ip,
      details: { ...settings },
    });
    return true;
  });
}
