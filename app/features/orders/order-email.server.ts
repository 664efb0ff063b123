import { and, eq, gte, isNull, lte, or } from "drizzle-orm";
import { qrPng } from "~/features/tickets/qr.server";
import type { Db } from "~/server/db/client.server";
import type { Env } from "~/server/env.server";
import { defineJob, type JobQueue } from "~/server/jobs/queue.server";
import type { EmailAttachment, MailTransport, OutboundEmail } from "~/server/mail/mail.server";
import { lapsedEmailClaim, sendOnce } from "~/server/mail/sent-once.server";
import { formatMoney } from "~/ui/money";
import { plural } from "~/ui/plural";
import { orderEmails, orders } from "../../../db/schema";
import { type ConfirmationView, type OrderView, orderForConfirmation } from "./order-views.server";

/**
 * The email a buyer gets once an order is paid (buyers get emails for
 * payment and tickets): every e-ticket with its QR code, and the receipt.
 */

type Brand = { siteName: string; siteUrl: string };

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function orderEmailSubject(
  order: Pick<OrderView, "number" | "tickets" | "entries"> & { passes?: OrderView["passes"] },
) {
  const titles = [...new Set(order.tickets.map((ticket) => ticket.event.title))];
  if (titles.length === 0 && order.passes?.length) return `Your exhibitor pass — order ${order.number}`;
  if (titles.length === 0) {
    if (order.entries.some((draw) => draw.instantWins.length > 0))
      return `You have an instant win — order ${order.number}`;
    return order.entries.length > 0 ? `Your entry numbers — order ${order.number}` : `Your order ${order.number}`;
  }
  const what = titles.length === 1 ? titles[0] : `${titles[0]} and ${titles.length - 1} more`;
  return `Your tickets for ${what} — order ${order.number}`;
}

/** Builds the email; each QR travels as an inline picture (a CID attachment) that mail clients show. */
export async function orderEmail(brand: Brand, order: ConfirmationView): Promise<OutboundEmail> {
  const money = (minor: number) => formatMoney(minor, order.currency);
  const orderUrl = `${brand.siteUrl}/success?order=${order.id}`;
  const attachments: EmailAttachment[] = [];
  for (const [index, ticket] of order.tickets.entries()) {
    if (!ticket.qrPayload) continue;
    attachments.push({
      filename: `ticket-${index + 1}.png`,
      contentType: "image/png",
      contentBase64: qrPng(ticket.qrPayload).toString("base64"),
      cid: `ticket-${index + 1}-${order.id}@pitlane`,
    });
  }
  for (const [index, pass] of order.passes.entries()) {
    if (!pass.qrPayload) continue;
    attachments.push({
      filename: `exhibitor-pass-${index + 1}.png`,
      contentType: "image/png",
      contentBase64: qrPng(pass.qrPayload).toString("base64"),
      cid: `exhibitor-pass-${index + 1}-${order.id}@pitlane`,
    });
  }
  const passCid = (index: number) =>
    attachments.find((file) => file.filename === `exhibitor-pass-${index + 1}.png`)?.cid;
  const cidOf = (index: number) => attachments.find((file) => file.filename === `ticket-${index + 1}.png`)?.cid;
  const paid = order.paidAt ? `Paid ${order.paidAt}` : `Placed ${order.placedAt}`;

  const ticketText = order.tickets.map((ticket, index) =>
    [
      `Ticket ${index + 1}: ${ticket.event.title} — ${ticket.ticketTypeName}`,
      `  ${ticket.event.dates}, ${ticket.event.times} (${ticket.event.zone}) · ${ticket.event.venue}, ${ticket.event.town}`,
      ...(ticket.validDays.length > 0 ? [`  Admits on ${ticket.validDays.join(" and ")}`] : []),
      ...(ticket.attendeeName ? [`  Attendee: ${ticket.attendeeName}`] : []),
      `  Code: ${ticket.shortCode}`,
    ].join("\n"),
  );
  const entryText = order.entries.map(
    (draw) =>
      `${draw.drawTitle}: entry ${plural(draw.numbers.length, "number", "numbers")} ${draw.numbers.join(", ")}\n${draw.instantWins
        .map((win) => `  INSTANT WIN: entry ${win.number} wins ${win.prize}. We will be in touch to arrange it.\n`)
        .join("")}  ${brand.siteUrl}/giveaways/${draw.drawSlug}`,
  );
  const passText = order.passes.map((pass) =>
    [`Exhibitor pass: ${pass.carLabel} at ${pass.eventTitle}`, `  Code: ${pass.shortCode}`].join("\n"),
  );
  const receiptText = [
    ...order.items.map(
      (item) => `${item.description}  ${item.quantity} × ${money(item.unitPrice)} = ${money(item.lineTotal)}`,
    ),
    ...(order.discount > 0 ? [`Code ${order.voucherCode ?? ""}  −${money(order.discount)}`] : []),
    ...(order.shipping > 0 ? [`Shipping  ${money(order.shipping)}`] : []),
    ...(order.credit > 0 ? [`Account credit  −${money(order.credit)}`] : []),
    `Total  ${money(order.total)}`,
    ...(order.delivery ? ["", `${order.delivery.heading}:`, ...order.delivery.lines.map((line) => `  ${line}`)] : []),
  ];
  const text = [
    `Thank you for your order ${order.number}.`,
    "",
    order.tickets.length > 0
      ? "Your e-tickets are below. Show the QR code at the gate, on your phone or printed; staff can also type the code under it."
      : "",
    "",
    ...ticketText.flatMap((block) => [block, ""]),
    ...(entryText.length > 0 ? ["Your competition entries:", ...entryText, ""] : []),
    ...(passText.length > 0
      ? ["Show this exhibitor pass at the gate; staff can also type the code.", ...passText, ""]
      : []),
    `Receipt — order ${order.number}`,
    paid,
    ...receiptText,
    "",
    `Your order online: ${orderUrl}`,
    `All your tickets: ${brand.siteUrl}/members/events`,
    "",
    `— ${brand.siteName}`,
  ].join("\n");

  const cell = "padding:8px 0;border-bottom:1px solid #e9eaec;vertical-align:top";
  const ticketHtml = order.tickets
    .map((ticket, index) => {
      const cid = cidOf(index);
      return `<tr><td style="padding:0 0 16px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border:2px solid #16181b;border-radius:14px"><tr>
<td width="150" style="padding:14px;vertical-align:top">${cid ? `<img src="cid:${cid}" width="132" height="132" alt="QR code for ticket ${escapeHtml(ticket.shortCode)}" style="display:block;background:#ffffff">` : ""}</td>
<td style="padding:14px 14px 14px 0;vertical-align:top;font-size:14px;line-height:1.5">
<div style="font-size:12px;font-weight:700;letter-spacing:.08em;text-transform:uppercase;color:#a3410a">${escapeHtml(ticket.ticketTypeName)}</div>
<div style="font-size:17px;font-weight:800">${escapeHtml(ticket.event.title)}</div>
<div>${escapeHtml(ticket.event.dates)} · ${escapeHtml(ticket.event.times)} ${escapeHtml(ticket.event.zone)}</div>
<div>${escapeHtml(ticket.event.venue)}, ${escapeHtml(ticket.event.town)}</div>
${ticket.validDays.length > 0 ? `<div>Admits on ${escapeHtml(ticket.validDays.join(" and "))}</div>` : ""}
${ticket.attendeeName ? `<div>Attendee: <strong>${escapeHtml(ticket.attendeeName)}</strong></div>` : ""}
<div style="margin-top:6px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;letter-spacing:.04em">${escapeHtml(ticket.shortCode)}</div>
</td></tr></table></td></tr>`;
    })
    .join("\n");
  const receiptRows = [
    ...order.items.map(
      (item) =>
        `<tr><td style="${cell}">${escapeHtml(item.description)}<br><span style="color:#4b5058">${item.quantity} × ${escapeHtml(money(item.unitPrice))}</span></td><td align="right" style="${cell};white-space:nowrap">${escapeHtml(money(item.lineTotal))}</td></tr>`,
    ),
    ...(order.discount > 0
      ? [
          `<tr><td style="${cell}">Code ${escapeHtml(order.voucherCode ?? "")}</td><td align="right" style="${cell};white-space:nowrap">−${escapeHtml(money(order.discount))}</td></tr>`,
        ]
      : []),
    ...(order.shipping > 0
      ? [
          `<tr><td style="${cell}">Shipping</td><td align="right" style="${cell}">${escapeHtml(money(order.shipping))}</td></tr>`,
        ]
      : []),
    ...(order.credit > 0
      ? [
          `<tr><td style="${cell}">Account credit</td><td align="right" style="${cell};white-space:nowrap">−${escapeHtml(money(order.credit))}</td></tr>`,
        ]
      : []),
    `<tr><td style="padding:10px 0;font-weight:800">Total</td><td align="right" style="padding:10px 0;font-weight:800">${escapeHtml(money(order.total))}</td></tr>`,
    ...(order.delivery
      ? [
          `<tr><td colspan="2" style="padding:10px 0"><strong>${escapeHtml(order.delivery.heading)}</strong><br>${order.delivery.lines.map(escapeHtml).join("<br>")}</td></tr>`,
        ]
      : []),
  ].join("\n");

  const html = `<!doctype html><html lang="en"><body style="margin:0;background:#f6f6f7;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#16181b">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:600px;background:#ffffff;border-radius:16px;overflow:hidden">
<tr><td style="background:#111214;padding:20px 28px;color:#ffffff;font-weight:800;font-size:20px;letter-spacing:.02em;text-transform:uppercase">${escapeHtml(brand.siteName)}</td></tr>
<tr><td style="padding:28px 28px 8px;font-size:16px;line-height:1.6">
<p style="margin:0 0 8px;font-size:22px;font-weight:800">You're in. Order ${escapeHtml(order.number)}</p>
${order.tickets.length > 0 ? `<p style="margin:0 0 20px">Show the QR code at the gate, on your phone or printed. Staff can also type the code under it.</p>` : ""}
</td></tr>
${order.tickets.length > 0 ? `<tr><td style="padding:0 28px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0">${ticketHtml}</table></td></tr>` : ""}
${order.passes
  .map((pass, index) => {
    const cid = passCid(index);
    return `<tr><td style="padding:0 28px 16px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border:2px solid #16181b;border-radius:14px"><tr>
<td width="150" style="padding:14px;vertical-align:top">${cid ? `<img src="cid:${cid}" width="132" height="132" alt="QR code for exhibitor pass ${escapeHtml(pass.shortCode)}" style="display:block;background:#ffffff">` : ""}</td>
<td style="padding:14px 14px 14px 0;vertical-align:top;font-size:14px;line-height:1.5">
<div style="font-size:12px;font-weight:700;letter-spacing:.08em;text-transform:uppercase;color:#a3410a">Exhibitor pass</div>
<div style="font-size:17px;font-weight:800">${escapeHtml(pass.carLabel)}</div>
<div>${escapeHtml(pass.eventTitle)}</div>
<div style="margin-top:6px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;letter-spacing:.04em">${escapeHtml(pass.shortCode)}</div>
</td></tr></table></td></tr>`;
  })
  .join("\n")}
${
  order.entries.length > 0
    ? `<tr><td style="padding:0 28px 12px;font-size:15px;line-height:1.6"><p style="margin:0 0 4px;font-size:18px;font-weight:800">Your entry numbers</p>${order.entries
        .map(
          (draw) =>
            `<p style="margin:0 0 8px"><a href="${escapeHtml(`${brand.siteUrl}/giveaways/${draw.drawSlug}`)}" style="color:#1d4ed8">${escapeHtml(draw.drawTitle)}</a><br><strong style="font-family:ui-monospace,Menlo,Consolas,monospace">${escapeHtml(draw.numbers.join(", "))}</strong></p>${draw.instantWins
              .map(
                (win) =>
                  `<p style="margin:0 0 8px;padding:8px 12px;border-radius:8px;background:#fef3c7;color:#111214;font-weight:700">Instant win! Entry ${win.number} wins ${escapeHtml(win.prize)}. We will be in touch to arrange it.</p>`,
              )
              .join("")}`,
        )
        .join("")}</td></tr>`
    : ""
}
<tr><td style="padding:12px 28px 8px;font-size:15px;line-height:1.5">
<p style="margin:0 0 4px;font-size:18px;font-weight:800">Receipt</p>
<p style="margin:0 0 8px;color:#4b5058">Order ${escapeHtml(order.number)} · ${escapeHtml(paid)}</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">${receiptRows}</table>
</td></tr>
<tr><td style="padding:16px 28px 28px;font-size:15px">
<a href="${escapeHtml(orderUrl)}" style="display:inline-block;background:#ff7a1a;color:#111214;font-weight:700;text-decoration:none;padding:12px 22px;border-radius:999px">View your order</a>
<p style="margin:16px 0 0;font-size:13px;color:#4b5058">All your tickets are also under <a href="${escapeHtml(`${brand.siteUrl}/members/events`)}" style="color:#1d4ed8">My tickets</a>.</p>
</td></tr>
<tr><td style="padding:16px 28px;border-top:1px solid #e9eaec;font-size:12px;color:#4b5058"><a href="${escapeHtml(brand.siteUrl)}" style="color:#1d4ed8">${escapeHtml(brand.siteUrl)}</a></td></tr>
</table></td></tr></table></body></html>`;

  return { to: order.email, subject: orderEmailSubject(order), text, html, attachments };
}

/** Orders whose tickets still stand: a fully refunded order gets no tickets email. */
const EMAILABLE = new Set(["paid", "fulfilled", "partly_refunded"]);

export type OrderEmailDeps = {
  db: Db;
  mail: MailTransport;
  env: Pick<Env, "SITE_NAME" | "SITE_URL" | "AUTH_SECRET" | "TIME_ZONE">;
};

/**
 * Sends the order's confirmation once, however often it is asked (a replayed settlement, a job
 * retried or run on two servers at once): `sendOnce` claims the order's row, sends, then records
 * the message. No transaction stays open while the mail server answers (a rush of orders needs the
 * pool's connections for settling). A failed send gives the claim up, so the job's retry sends it;
 * a claim its server never recorded lapses after EMAIL_CLAIM_MS and the next sender (the
 * reconciliation sweep finds the order again) takes it over.
 */
export async function sendOrderConfirmation(
  deps: OrderEmailDeps,
  orderId: string,
): Promise<"sent" | "already_sent" | "not_found" | "not_paid"> {
  const { db, mail, env } = deps;
  const order = await orderForConfirmation(db, { orderId, secret: env.AUTH_SECRET, siteTimeZone: env.TIME_ZONE });
  if (!order) return "not_found";
  if (!EMAILABLE.has(order.status)) return "not_paid";
  // Drawn before the claim: a claim is held for as long as its email takes to draw and send.
  const email = await orderEmail({ siteName: env.SITE_NAME, siteUrl: env.SITE_URL }, order);
  return sendOnce(db, mail, { table: orderEmails, key: { orderId, kind: "confirmation" }, email });
}

export const orderEmailJob = defineJob<{ orderId: string }, OrderEmailDeps>({
  name: "order-confirmation-email",
  expireInSeconds: 120,
  handler: async ({ orderId }, services) => {
    await sendOrderConfirmation(services, orderId);
  },
});

/**
 * Queues the confirmation after a settlement that paid the order. The singleton key keeps a
 * second request from queueing a second job while the first waits; the claim row in
 * `sendOrderConfirmation` is what guarantees one email even if both run.
 */
export async function enqueueOrderEmail(jobs: Pick<JobQueue, "enqueue">, orderId: string) {
  await jobs.enqueue(orderEmailJob, { orderId }, { singletonKey: orderId });
}

/**
 * Orders paid in the last two days whose confirmation has not gone out: a crash between a
 * settlement's commit and its follow-up would otherwise leave the buyer without their tickets.
 * Orders paid in the last two minutes are left to the settlement's own follow-up, unless
 * `afterMinutes` says otherwise (0 after a restart, when no follow-up of this server is running).
 */
export async function ordersAwaitingConfirmation(db: Db, now: Date, options: { afterMinutes?: number } = {}) {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .leftJoin(orderEmails, and(eq(orderEmails.orderId, orders.id), eq(orderEmails.kind, "confirmation")))
    .where(
      and(
        eq(orders.status, "paid"),
        gte(orders.paidAt, new Date(now.getTime() - 2 * 24 * 3600 * 1000)),
        lte(orders.paidAt, new Date(now.getTime() - (options.afterMinutes ?? 2) * 60 * 1000)),
        // No confirmation, or a claim on one that was never recorded and has lapsed.
        or(isNull(orderEmails.orderId), lapsedEmailClaim(orderEmails, now)),
      ),
    )
    .limit(500);
  return rows.map((row) => row.id);
}
