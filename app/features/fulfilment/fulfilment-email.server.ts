import { accountEmail, type Branding } from "~/features/accounts/emails.server";
import type { OutboundEmail } from "~/server/mail/mail.server";
import { lineLabel, type MerchLine } from "./lines";

/** The emails a buyer gets as their merch moves: posted (with the tracking link), or waiting at an event. */

export function shippedEmail(
  brand: Branding,
  notice: {
    to: string;
    reference: string;
    orderId: string;
    carrier: string;
    trackingNumber: string;
    trackingUrl: string;
    lines: MerchLine[];
  },
): OutboundEmail {
  return accountEmail(brand, notice.to, `Your order ${notice.reference} is on its way`, {
    greeting: "Hi,",
    lines: [
      `Your merch from order ${notice.reference} has been posted with ${notice.carrier}.`,
      ...notice.lines.map(lineLabel),
      `Tracking number: ${notice.trackingNumber}`,
    ],
    action: { label: "Track your parcel", url: notice.trackingUrl },
    footnote: `Your order online: ${brand.siteUrl}/transactions/${notice.orderId}`,
  });
}

export function collectionEmail(
  brand: Branding,
  notice: {
    to: string;
    reference: string;
    orderId: string;
    event: { title: string; startsAt: Date; timeZone: string; venue: string; town: string };
    lines: MerchLine[];
  },
): OutboundEmail {
  const day = new Intl.DateTimeFormat("en-GB", {
    timeZone: notice.event.timeZone,
    weekday: "long",
    day: "numeric",
    month: "long",
  }).format(notice.event.startsAt);
  return accountEmail(brand, notice.to, `Your order ${notice.reference} is waiting at ${notice.event.title}`, {
    greeting: "Hi,",
    lines: [
      `Your merch from order ${notice.reference} is packed and waiting for you at ${notice.event.title} (${day}, ${notice.event.venue}, ${notice.event.town}).`,
      ...notice.lines.map(lineLabel),
      "Show your ticket at the gate: staff will hand it over when they scan it.",
    ],
    action: { label: "See your order", url: `${brand.siteUrl}/transactions/${notice.orderId}` },
  });
}
