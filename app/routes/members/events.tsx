import { Ticket } from "lucide-react";
import type { ReactNode } from "react";
import { data, Link } from "react-router";
import { withdrawApplication } from "~/features/applications/apply.server";
import { addFeeToCart } from "~/features/applications/fees.server";
import { applicationsOfMember } from "~/features/applications/member-queries.server";
import { MyApplications } from "~/features/applications/my-applications";
import { PayFeeSchema, WithdrawSchema } from "~/features/applications/schemas";
import { eventDateLabels } from "~/features/dates/event-dates";
import { fieldMessages } from "~/features/forms/fields";
import type { EventTickets } from "~/features/orders/order-views.server";
import { ticketsForMember } from "~/features/orders/order-views.server";
import { TicketCard, type TicketWithQr } from "~/features/orders/ticket-card";
import { qrSvg, withQrSvgs } from "~/features/tickets/qr.server";
import { handBackTicket, withdrawHandBack } from "~/features/transfers/hand-backs.server";
import { PassingOnPanel, type PassingOnProblem } from "~/features/transfers/passing-on";
import {
  CancelTransferSchema,
  HandBackSchema,
  PASSING_ON_INTENTS,
  SendTransferSchema,
} from "~/features/transfers/schemas";
import { cancelTransfer, passingOnForTickets, sendTransfer } from "~/features/transfers/transfers.server";
import { MyWaitingLists } from "~/features/waiting-lists/my-waiting-lists";
import { MemberListSchema } from "~/features/waiting-lists/schemas";
import { claimOffer, leaveWaitingList, waitingListsOfMember } from "~/features/waiting-lists/waiting-lists.server";
import { walletsOn } from "~/features/wallet/passes.server";
import { WalletButtons } from "~/features/wallet/wallet-buttons";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import type { Db } from "~/server/db/client.server";
import { redirectWithFlash } from "~/server/flash.server";
import type { Outbox } from "~/server/messages.server";
import { Card } from "~/ui/card";
import { countOf } from "~/ui/plural";
import type { Route } from "./+types/events";

/**
 * "My tickets": upcoming events with each ticket's QR code, and past ones for the record, without
 * codes; then the member's show-car applications, with "Pay the fee" and their exhibitor passes.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db, env } = context.get(runtimeContext);
  const { upcoming, past } = await ticketsForMember(db, { userId: user.id, now: new Date(), secret: env.AUTH_SECRET });
  const withCodes = (groups: EventTickets[]) =>
    Promise.all(groups.map(async (group) => ({ ...group, tickets: await withQrSvgs(group.tickets) })));
  const now = new Date();
  const mine = await applicationsOfMember(db, { userId: user.id, secret: env.AUTH_SECRET, now });
  const applications = await Promise.all(
    mine.map(async ({ event, pass, ...application }) => ({
      ...application,
      event: {
        slug: event.slug,
        title: event.title,
        when: eventDateLabels(event.startsAt, event.endsAt, event.timeZone).dates,
      },
      pass: pass ? { ...pass, qrSvg: pass.qrPayload ? await qrSvg(pass.qrPayload) : null } : null,
    })),
  );
  const passingOn = await passingOnForTickets(db, {
    userId: user.id,
    ticketIds: upcoming.flatMap((group) => group.tickets.map((ticket) => ticket.id)),
    now,
  });
  return {
    upcoming: await withCodes(upcoming),
    wallets: walletsOn(env),
    past: await withCodes(past),
    applications,
    waitingLists: await waitingListsOfMember(db, user.id, now, env.TIME_ZONE),
    passingOn,
    currency: env.CURRENCY,
  };
}

/** "Send this ticket", "Cancel the transfer", "Hand it back" and "Take it off sale". */
async function passTicketOn(
  values: Record<string, FormDataEntryValue>,
  { db, env, outbox, userId, now }: PassingOnServices,
) {
  const refused = (problem: PassingOnProblem) => data({ passingOn: problem }, { status: 400 });
  if (values.intent === "send-transfer") {
    const parsed = SendTransferSchema.safeParse(values);
    const ticketId = typeof values.ticketId === "string" ? values.ticketId : "";
    if (!parsed.success) {
      return refused({ ticketId, message: "Check the details", fields: fieldMessages(parsed.error) });
    }
    const sent = await sendTransfer(db, {
      userId,
      ticketId: parsed.data.ticketId,
      toName: parsed.data.toName,
      toEmail: parsed.data.toEmail,
      now,
      brand: { siteName: env.SITE_NAME, siteUrl: env.SITE_URL },
    });
    if (!sent.ok) return refused({ ticketId, message: sent.message });
    await outbox.sendEmail(sent.email);
    return redirectWithFlash("/members/events", {
      kind: "success",
      message: `Ticket sent to ${parsed.data.toName}. It moves to them when they accept it.`,
    });
  }
  if (values.intent === "cancel-transfer") {
    const parsed = CancelTransferSchema.safeParse(values);
    if (!parsed.success || !(await cancelTransfer(db, { userId, transferId: parsed.data.transferId, now }))) {
      return refused({ ticketId: "", message: "This transfer was already accepted or cancelled." });
    }
    return redirectWithFlash("/members/events", {
      kind: "success",
      message: "Transfer cancelled. The ticket is yours.",
    });
  }
  const parsed = HandBackSchema.safeParse(values);
  if (!parsed.success) return refused({ ticketId: "", message: parsed.error.issues[0]!.message });
  const { ticketId } = parsed.data;
  const outcome =
    parsed.data.intent === "hand-back"
      ? await handBackTicket(db, { userId, ticketId, now })
      : await withdrawHandBack(db, { userId, ticketId, now });
  if (!outcome.ok) return refused({ ticketId, message: outcome.message });
  return redirectWithFlash("/members/events", {
    kind: "success",
    message:
      parsed.data.intent === "hand-back"
        ? "Your ticket is back on sale. It stays yours until someone buys it."
        : "Your ticket is off sale and stays yours.",
  });
}

type PassingOnServices = {
  db: Db;
  env: { SITE_NAME: string; SITE_URL: string };
  outbox: Pick<Outbox, "sendEmail">;
  userId: string;
  now: Date;
};

/**
 * "Pay the fee" puts an approved application's fee in the cart; "Withdraw" withdraws it. "Buy my
 * places" puts a waiting-list offer in the cart; "Leave the list" leaves it (or turns the offer down).
 */
export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireUser({ context, url });
  const { db, env, outbox } = context.get(runtimeContext);
  const values = Object.fromEntries(await request.formData());
  const now = new Date();
  if ((PASSING_ON_INTENTS as readonly unknown[]).includes(values.intent)) {
    return passTicketOn(values, { db, env, outbox, userId: user.id, now });
  }
  const refused = (applicationId: string, message: string) =>
    data({ error: { applicationId, message } }, { status: 400 });
  if (values.intent === "claim-offer" || values.intent === "leave-waiting-list") {
    const parsed = MemberListSchema.safeParse(values);
    if (!parsed.success) return refused("", parsed.error.issues[0]!.message);
    const { entryId } = parsed.data;
    if (parsed.data.intent === "leave-waiting-list") {
      if (!(await leaveWaitingList(db, { userId: user.id, entryId, now }))) {
        return refused("", "You are no longer on this waiting list");
      }
      return redirectWithFlash("/members/events#waiting-lists", {
        kind: "success",
        message: "You have left the list.",
      });
    }
    const claimed = await claimOffer(db, { userId: user.id, entryId, now });
    if (!claimed.ok) return refused("", claimed.message);
    return redirectWithFlash("/cart", {
      kind: "success",
      message: `${claimed.quantity} × ${claimed.name} ${claimed.quantity === 1 ? "is" : "are"} in your cart, held for you.`,
    });
  }
  if (values.intent === "pay-application") {
    const parsed = PayFeeSchema.safeParse(values);
    if (!parsed.success) return refused("", parsed.error.issues[0]!.message);
    const result = await addFeeToCart(db, { userId: user.id, applicationId: parsed.data.applicationId, now });
    if (!result.ok) return refused(parsed.data.applicationId, result.message);
    return redirectWithFlash("/cart", { kind: "success", message: "The show-car fee is in your cart." });
  }
  const parsed = WithdrawSchema.safeParse(values);
  if (!parsed.success) return refused("", parsed.error.issues[0]?.message ?? "Choose what to do");
  const result = await withdrawApplication(db, { userId: user.id, applicationId: parsed.data.applicationId, now });
  if (!result.ok) return refused(parsed.data.applicationId, result.message);
  return redirectWithFlash("/members/events#applications-title", {
    kind: "success",
    message: "Application withdrawn.",
  });
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function MyTickets({ loaderData, actionData }: Route.ComponentProps) {
  const { upcoming, past, applications, waitingLists, passingOn, currency, wallets } = loaderData;
  const error = actionData && "error" in actionData ? actionData.error : undefined;
  const problem = actionData && "passingOn" in actionData ? actionData.passingOn : undefined;
  return (
    <div className="space-y-10" data-print-page>
      <header>
        <h1 className="wide text-3xl font-black sm:text-4xl">My tickets</h1>
        <p className="mt-1 text-muted">Show the QR code at the gate, on your phone or printed.</p>
      </header>
      {actionData && "passingOn" in actionData && !actionData.passingOn.ticketId ? (
        <p role="alert" className="font-semibold text-red-700 dark:text-red-300">
          {actionData.passingOn.message}
        </p>
      ) : null}
      {actionData && "error" in actionData && !actionData.error.applicationId ? (
        <p role="alert" className="font-semibold text-red-700 dark:text-red-300">
          {actionData.error.message}
        </p>
      ) : null}
      {upcoming.length === 0 && past.length === 0 && applications.length === 0 && waitingLists.length === 0 ? (
        <Card variant="empty" className="p-10">
          <Ticket aria-hidden className="mx-auto size-10 text-muted" />
          <p className="mt-3 text-lg font-semibold">
            No tickets yet —{" "}
            <Link to="/events" className="text-link underline">
              find an event
            </Link>
          </p>
        </Card>
      ) : null}
      {waitingLists.length > 0 ? <MyWaitingLists lists={waitingLists} /> : null}
      {upcoming.length > 0 ? (
        <EventGroups
          id="upcoming"
          title="Upcoming"
          groups={upcoming}
          passingOn={(ticket) => {
            const state = passingOn[ticket.id];
            return (
              <>
                {ticket.status === "valid" ? (
                  <WalletButtons base={`/members/tickets/${ticket.id}`} wallets={wallets} />
                ) : null}
                {state ? (
                  <PassingOnPanel ticketId={ticket.id} state={state} currency={currency} problem={problem} />
                ) : null}
              </>
            );
          }}
        />
      ) : null}
      <MyApplications applications={applications} currency={currency} error={error} />
      {past.length > 0 ? <EventGroups id="past" title="Past events" groups={past} /> : null}
    </div>
  );
}

function EventGroups({
  id,
  title,
  groups,
  passingOn,
}: {
  id: string;
  title: string;
  groups: { event: EventTickets["event"]; tickets: TicketWithQr[] }[];
  passingOn?: (ticket: TicketWithQr) => ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-6">
      <h2 id={`${id}-title`} className="text-sm font-bold uppercase tracking-[0.16em] text-muted">
        {title}
      </h2>
      {groups.map(({ event, tickets }) => (
        <section key={event.id} aria-labelledby={`event-${event.id}`} className="space-y-3">
          <div className="flex items-center gap-4">
            <div className="dark-band grid size-14 shrink-0 place-items-center rounded-xl bg-asphalt-950 text-center leading-none text-white">
              <span className="wide text-xl font-black tabular">{event.day}</span>
              <span className="text-xs font-bold uppercase text-accent-strong">{event.month}</span>
            </div>
            <div className="min-w-0">
              <h3 id={`event-${event.id}`} className="wide text-xl font-extrabold leading-tight">
                <Link to={`/events/${event.slug}`} className="hover:underline">
                  {event.title}
                </Link>
              </h3>
              <p className="text-sm text-muted">
                {event.dates} · {event.venue}, {event.town} · {countOf(tickets.length, "ticket", "tickets")}
              </p>
            </div>
          </div>
          <ul className="grid gap-4">
            {tickets.map((ticket) => (
              <li key={ticket.id}>
                <TicketCard ticket={ticket} showEvent={false}>
                  {passingOn?.(ticket)}
                </TicketCard>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "My tickets" }, { name: "robots", content: "noindex" }];
