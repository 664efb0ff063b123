import { accountEmail, type Branding } from "~/features/accounts/emails.server";
import { formatEventInstant } from "~/features/dates/event-dates";
import { formatMoney } from "~/ui/money";
import type { DecisionResult } from "./decide.server";

type Decided = Extract<DecisionResult, { ok: true }>;

/** The email telling a member what staff decided, with the organizer's message. */
export function decisionEmail(brand: Branding & { currency: string }, decided: Decided, note: string) {
  if (!decided.member) return null;
  const { member, event, carLabel } = decided;
  const eventUrl = `${brand.siteUrl}/events/${event.slug}`;
  const myEvents = `${brand.siteUrl}/members/events`;
  const message = note.trim() ? [`Message from the organizers: ${note.trim()}`] : [];
  const greeting = member.name ? `Hi ${member.name},` : "Hi,";
  switch (decided.status) {
    case "paid":
      return accountEmail(brand, member.email, `Your ${carLabel} is in: ${event.title}`, {
        greeting,
        lines: [
          `Your application to show your ${carLabel} at ${event.title} is approved.`,
          ...message,
          "Your exhibitor pass with its QR code is in My events. Show it at the gate.",
        ],
        action: { label: "See my exhibitor pass", url: myEvents },
      });
    case "approved":
      return accountEmail(brand, member.email, `Approved: your ${carLabel} at ${event.title}`, {
        greeting,
        lines: [
          `Your application to show your ${carLabel} at ${event.title} is approved.`,
          ...message,
          `The fee is ${formatMoney(decided.fee, brand.currency)}. Pay it by ${formatEventInstant(decided.payBy, decided.timeZone)} to keep your spot; your exhibitor pass comes once it is paid.`,
        ],
        action: { label: "Pay the fee", url: myEvents },
      });
    case "waitlisted":
      return accountEmail(brand, member.email, `Waiting list: your ${carLabel} at ${event.title}`, {
        greeting,
        lines: [
          `Your application to show your ${carLabel} at ${event.title} is on the waiting list.`,
          ...message,
          "We will write again if a spot frees up.",
        ],
        action: { label: "See the event", url: eventUrl },
      });
    default:
      return accountEmail(brand, member.email, `Your application for ${event.title}`, {
        greeting,
        lines: [
          `Thank you for applying to show your ${carLabel} at ${event.title}; this time it was not accepted.`,
          ...message,
        ],
        action: { label: "See the event", url: eventUrl },
      });
  }
}
