import { data, redirect } from "react-router";
import { joinFromQueuePage } from "~/features/waiting-room/join.server";
import { queueViewFor } from "~/features/waiting-room/queue-page.server";
import { QueuePanel, queueRefreshes } from "~/features/waiting-room/queue-panel";
import { queueEventOf } from "~/features/waiting-room/waiting-room.server";
import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import type { Route } from "./+types/queue";

/** Every answer is about one visitor's place: never kept by a shared cache. */
const PRIVATE = { "Cache-Control": "private, no-store" };

export async function loader({ context, params }: Route.LoaderArgs) {
  const { db } = context.get(runtimeContext);
  const event = await queueEventOf(db, params.id);
  if (!event) notFound();
  if (params.id !== event.slug) throw redirect(`/events/${event.slug}/queue`, 301);
  const user = context.get(userContext);
  const view = await queueViewFor(db, event, { userId: user?.id ?? null }, new Date());
  return data({ event: { slug: event.slug, title: event.title }, view }, { headers: PRIVATE });
}

/** Join: takes a place for the signed-in member; anyone else is sent to sign in first. */
export async function action({ context, params }: Route.ActionArgs) {
  const { db } = context.get(runtimeContext);
  const event = await queueEventOf(db, params.id);
  if (!event) notFound();
  const user = context.get(userContext);
  const result = await joinFromQueuePage(db, event, {
    userId: user?.id ?? null,
    ip: context.get(requestContext).ip,
    now: new Date(),
  });
  const back = `/events/${event.slug}/queue`;
  if (!result.ok && result.signIn) {
    throw redirect(`/login?redirectTo=${encodeURIComponent(back)}`, { status: 303, headers: PRIVATE });
  }
  if (!result.ok) {
    const headers = new Headers(PRIVATE);
    if (result.retryAfterSeconds) headers.set("Retry-After", String(result.retryAfterSeconds));
    return data({ error: result.message }, { status: result.status, headers });
  }
  throw redirect(back, { status: 303, headers: PRIVATE });
}

export const headers: Route.HeadersFunction = () => PRIVATE;

export default function Queue({ loaderData, actionData }: Route.ComponentProps) {
  const { event, view } = loaderData;
  return (
    <main id="main" className="mx-auto max-w-[880px] space-y-8 px-4 py-10 sm:px-6 md:py-14">
      <header className="space-y-2">
        <p className="text-sm font-semibold text-muted">Ticket queue</p>
        <h1 className="wide text-3xl font-black sm:text-4xl">{event.title}</h1>
      </header>
      <QueuePanel view={view} slug={event.slug} error={actionData?.error} />
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data: page, matches }) => {
  if (!page) return [{ title: pageTitle(matches, "Event not found") }];
  const refresh = queueRefreshes(page.view) ? [{ httpEquiv: "refresh", content: "15" }] : [];
  return [
    { title: pageTitle(matches, `Queue: ${page.event.title}`) },
    { name: "robots", content: "noindex" },
    ...refresh,
  ];
};
