import { Suspense } from "react";
import { redirect } from "react-router";
import { applySectionFor } from "~/features/applications/member-queries.server";
import { addToCartQuantities } from "~/features/cart/quantities";
import { eventLocation } from "~/features/events/calendar";
import { getEventPage } from "~/features/events/catalogue.server";
import { EventActionBar, EventBanner, EventHero } from "~/features/events/event-page-parts";
import { coverImageUrl, eventJsonLd, serializeJsonLd } from "~/features/events/json-ld";
import { TicketList } from "~/features/events/ticket-list";
import { membershipBuyer } from "~/features/membership/memberships.server";
import { memberListsOnEvent } from "~/features/waiting-lists/waiting-lists.server";
import { queueNoticeFor } from "~/features/waiting-room/queue-page.server";
import { queueEventOf } from "~/features/waiting-room/waiting-room.server";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext, userContext } from "~/server/context.server";
import { later } from "~/ui/later";
import { useNonce } from "~/ui/nonce";
import { notFound } from "~/ui/not-found";
import { linkPreviewMeta } from "~/ui/page-meta";
import { pageTitle, siteNameOf } from "~/ui/page-title";
import type { Route } from "./+types/detail";
import { addToCartFromEventPage } from "./add-to-cart.server";
import { APPLY_INTENTS, applyFromEventPage } from "./apply-action.server";
import { joinListFromEventPage, WAITING_LIST_INTENT } from "./waiting-list-action.server";

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  // The queue's settings are found by the same address as the page, so both are read at once.
  const user = context.get(userContext);
  const now = new Date();
  // A member sees their prices (their tier's where set), members-only tickets and presales (a visitor's page is cached).
  const buyer = await membershipBuyer(db, user?.id, now);
  const [page, queueEvent] = await Promise.all([getEventPage(db, params.id, now, buyer), queueEventOf(db, params.id)]);
  if (!page) notFound();
  // One address per event: a link by id moves to the slug for good.
  if (params.id !== page.event.slug) throw redirect(`/events/${page.event.slug}${url.search}`, 301);
  const apply = page.applications
    ? await applySectionFor(db, { userId: user?.id ?? null, eventId: page.event.id })
    : null;
  // A member's places in line and offers, by ticket type (a visitor's page, cached, has none).
  const lists = user ? await memberListsOnEvent(db, user.id, page.event.id, now) : {};
  const site = { name: env.SITE_NAME, url: env.SITE_URL, currency: env.CURRENCY, countryCode: env.DEFAULT_COUNTRY };
  return {
    ...page,
    apply,
    lists,
    queue: queueEvent ? queueNoticeFor(queueEvent, new Date()) : null,
    tickets: page.tickets.map((ticket) => ({ ...ticket, quantities: addToCartQuantities(ticket) })),
    pageUrl: `${env.SITE_URL}/events/${page.event.slug}`,
    imageUrl: page.event.cover.hash ? coverImageUrl(env.SITE_URL, page.event.cover.hash) : null,
    mapQuery: eventLocation(page.event),
    mapsKey: env.GOOGLE_MAPS_API_KEY ?? null,
    jsonLd: serializeJsonLd(eventJsonLd(page.event, page.tickets, site)),
  };
}

/**
 * Add to cart: a plain form per ticket type, so it works before (or without) JavaScript; joining
 * a sold-out type's waiting list; and the "Apply with your car" section's apply and withdraw.
 */
export async function action({ request, context, params, url }: Route.ActionArgs) {
  const form = await request.clone().formData();
  const intent = form.get("intent");
  if (typeof intent === "string" && APPLY_INTENTS.includes(intent)) {
    return applyFromEventPage({ request, context, url, idOrSlug: params.id, form });
  }
  if (intent === WAITING_LIST_INTENT) return joinListFromEventPage({ context, url, idOrSlug: params.id, form });
  return addToCartFromEventPage({ request, context, idOrSlug: params.id });
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

// Above the tickets, the page's own code: the hero, the banner and the ticket list. The rest is in
// the server's HTML too, but in the browser its code comes after, and React hydrates each part
// when it arrives (docs/events.md): the sections below the tickets and the sidebar, and what few
// visitors see (the queue's notice, a waiting list, applying with a car).
const loadDetails = () => import("~/features/events/event-page-details");
const loadApply = () => import("~/features/applications/apply-section");
const loadWaitingList = () => import("~/features/waiting-lists/ticket-waiting-list");
const loadQueueNotice = () => import("~/features/waiting-room/queue-notice");
const details = import.meta.env.SSR ? await loadDetails() : undefined;
const ApplicationPanel = later(loadDetails, "ApplicationPanel", details);
const VenueSection = later(loadDetails, "VenueSection", details);
const EventSidebar = later(loadDetails, "EventSidebar", details);
const ApplyWithYourCar = later(loadApply, "ApplyWithYourCar", import.meta.env.SSR ? await loadApply() : undefined);
const TicketWaitingList = later(
  loadWaitingList,
  "TicketWaitingList",
  import.meta.env.SSR ? await loadWaitingList() : undefined,
);
const QueueNotice = later(loadQueueNotice, "QueueNotice", import.meta.env.SSR ? await loadQueueNotice() : undefined);

/** Moving here from another page: the later parts' code arrives with the data, so nothing pops in. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), loadDetails(), loadApply(), loadWaitingList(), loadQueueNotice()]);
  return data;
}

export default function EventDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { event, sales, tickets, applications, pageUrl } = loaderData;
  const nonce = useNonce();
  return (
    <main id="main">
      {/* A data block, not a script: serialised with "<" escaped so it cannot end the element. */}
      <script type="application/ld+json" nonce={nonce} dangerouslySetInnerHTML={{ __html: loaderData.jsonLd }} />
      <EventHero event={event} sales={sales} />
      <div className="mx-auto grid max-w-[1200px] gap-10 px-4 py-10 sm:px-6 md:py-14 lg:grid-cols-[minmax(0,1fr)_20rem] lg:gap-14">
        <div className="min-w-0 space-y-12">
          <EventBanner event={event} sales={sales} waitingList={tickets.some((ticket) => ticket.waitingList)} />
          {event.summary ? <p className="max-w-prose text-xl leading-relaxed">{event.summary}</p> : null}
          <section id="tickets" aria-labelledby="tickets-heading" className="scroll-mt-24 space-y-5">
            <h2 id="tickets-heading" className="wide text-2xl font-extrabold">
              Tickets
            </h2>
            {loaderData.queue ? (
              <Suspense fallback={null}>
                <QueueNotice notice={loaderData.queue} />
              </Suspense>
            ) : null}
            <TicketList
              tickets={tickets}
              membersOnlyHidden={loaderData.membersOnlyHidden}
              problems={actionData && "cart" in actionData ? actionData.cart : undefined}
              // Only a ticket type with something to show loads the waiting list's code.
              waitingList={(ticket) =>
                ticket.waitingList || loaderData.lists[ticket.id] ? (
                  <Suspense fallback={null}>
                    <TicketWaitingList
                      ticket={ticket}
                      entry={loaderData.lists[ticket.id]}
                      problem={actionData && "waiting" in actionData ? actionData.waiting[ticket.id] : undefined}
                    />
                  </Suspense>
                ) : null
              }
            />
          </section>
          <Suspense fallback={null}>
            {applications ? <ApplicationPanel applications={applications} /> : null}
            {loaderData.apply ? (
              <ApplyWithYourCar
                section={loaderData.apply}
                eventSlug={event.slug}
                errors={actionData && "apply" in actionData ? actionData.apply : undefined}
              />
            ) : null}
          </Suspense>
          {event.descriptionHtml ? (
            <section aria-labelledby="about" className="space-y-4">
              <h2 id="about" className="wide text-2xl font-extrabold">
                About this event
              </h2>
              {/* Rendered from Markdown on the server with raw HTML escaped. */}
              <div className="prose-pitlane" dangerouslySetInnerHTML={{ __html: event.descriptionHtml }} />
            </section>
          ) : null}
          <Suspense fallback={null}>
            <VenueSection event={event} mapQuery={loaderData.mapQuery} mapsKey={loaderData.mapsKey} />
          </Suspense>
        </div>
        <Suspense fallback={null}>
          <EventSidebar event={event} pageUrl={pageUrl} />
        </Suspense>
      </div>
      <EventActionBar event={event} sales={sales} />
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data: page, matches }) => {
  const site = siteNameOf(matches);
  if (!page) return [{ title: pageTitle(matches, "Event not found") }];
  const { event } = page;
  const description = event.summary || `${event.dates.dates} at ${event.venue}, ${event.town}.`;
  return [
    { title: pageTitle(matches, `${event.status === "cancelled" ? "Cancelled: " : ""}${event.title}`) },
    { name: "description", content: description },
    ...linkPreviewMeta({
      url: page.pageUrl,
      title: event.title,
      description,
      type: "website",
      site,
      image: page.imageUrl ? { url: page.imageUrl, width: 1600, height: 900, alt: event.cover.alt } : null,
    }),
  ];
};
