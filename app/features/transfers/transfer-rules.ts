import type { TransferRule } from "../../../db/schema/events";

/** What the rules read of an event: its dates, status and passing-on settings. */
export type PassingOnEvent = {
  status: "draft" | "published" | "cancelled";
  startsAt: Date;
  transfers: TransferRule;
  transfersCloseHours: number;
  handBackEnabled: boolean;
};

/** What the rules read of a ticket: whether it still admits, and how often it was passed on. */
export type PassingOnTicket = {
  status: "valid" | "checked_in" | "cancelled" | "refunded" | "transferred";
  transfers: number;
};

const HOUR_MS = 3_600_000;

/** When a ticket of this event can no longer be sent on or handed back. */
export function passingOnClosesAt(event: Pick<PassingOnEvent, "startsAt" | "transfersCloseHours">) {
  return new Date(event.startsAt.getTime() - event.transfersCloseHours * HOUR_MS);
}

/** Why the ticket cannot be passed on at all right now (sent or handed back), or null when it can. */
function passingOnRefusal(ticket: PassingOnTicket, event: PassingOnEvent, now: Date): string | null {
  if (event.status === "cancelled") return "This event was cancelled.";
  if (ticket.status === "checked_in") return "This ticket was already used at the gate.";
  if (ticket.status !== "valid") return "This ticket no longer admits anyone.";
  if (now >= passingOnClosesAt(event)) return "Tickets for this event can no longer be passed on: it starts soon.";
  return null;
}

/**
 * Why this ticket may not be sent to someone else now, or null when it may: the organizer's rule
 * (never; once, so a ticket that was already passed on stays with its holder; or any number of
 * times), the cut-off before the start, and the ticket still being valid.
 */
export function transferRefusal(ticket: PassingOnTicket, event: PassingOnEvent, now: Date): string | null {
  if (event.transfers === "off") return "The organizer does not allow tickets for this event to be transferred.";
  if (event.transfers === "once" && ticket.transfers > 0) {
    return "This ticket was transferred to you, and this event allows a ticket to be transferred only once.";
  }
  return passingOnRefusal(ticket, event, now);
}

/**
 * Why this ticket may not be handed back for resale now, or null when it may. Only a ticket type
 * with a capacity of its own can sell out, so only its places can be taken over by a buyer; and
 * only the buyer's own ticket, as the refund goes back to what paid for it.
 */
export function handBackRefusal(
  ticket: PassingOnTicket,
  event: PassingOnEvent,
  type: { capacity: number | null },
  now: Date,
): string | null {
  if (!event.handBackEnabled) return "The organizer does not resell tickets for this event.";
  if (type.capacity === null) return "This ticket type never sells out, so there is no one to resell it to.";
  // A resold ticket is refunded to the card that paid for it: its buyer's, not the holder's.
  if (ticket.transfers > 0) return "This ticket was passed on to you, so only its buyer can hand it back.";
  return passingOnRefusal(ticket, event, now);
}

/** What the holder of a resold ticket gets back: what they paid for it, less the organizer's fee, never below nothing. */
export function handBackRefund(paid: number, fee: number) {
  return Math.max(0, paid - fee);
}

/** An email address as we compare them: trimmed and lower case. */
export function normaliseEmail(email: string) {
  return email.trim().toLowerCase();
}
