import { data, redirect } from "react-router";
import { type VoteErrors, VotePageView } from "~/features/judging/vote-page";
import { castVote, VoteSchema, votePage } from "~/features/judging/voting.server";
import { requireUser } from "~/server/auth/session.server";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext, userContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import type { Route } from "./+types/vote";

/** A signed-in voter's page shows their tickets and ballots: never kept by a shared cache. */
const PRIVATE = { "Cache-Control": "private, no-store" };

/**
 * A car's People's Choice page, opened from the QR on its windscreen card (docs/car-shows.md).
 * Public: a visitor sees the car and is asked to sign in; a member sees their tickets and ballots.
 */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const { db } = context.get(runtimeContext);
  const user = context.get(userContext);
  const page = await votePage(db, {
    eventId: params.id,
    voteKey: params.voteKey,
    viewerId: user?.id ?? null,
    now: new Date(),
  });
  if (!page) notFound();
  // One address per car: a link by the event's id moves to its slug for good.
  if (params.id !== page.event.slug) throw redirect(`/events/${page.event.slug}/vote/${params.voteKey}`, 301);
  const signInHref = user ? null : `/login?redirectTo=${encodeURIComponent(url.pathname)}`;
  return data({ page, signInHref }, { headers: user ? PRIVATE : publicPageHeaders() });
}

/** Casts (or changes) the chosen ticket's ballot in the chosen category for this car. Members only. */
export async function action({ context, params, request, url }: Route.ActionArgs) {
  const user = requireUser({ context, url });
  const { db } = context.get(runtimeContext);
  const parsed = VoteSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    const errors: VoteErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === "ticketId" || issue.path[0] === "categoryId" ? issue.path[0] : "form";
      errors[field] = [...(errors[field] ?? []), issue.message];
    }
    return data({ errors }, { status: 400, headers: PRIVATE });
  }
  const outcome = await castVote(db, {
    eventId: params.id,
    voteKey: params.voteKey,
    ...parsed.data,
    voterId: user.id,
    now: new Date(),
  });
  if (!outcome.ok && "notFound" in outcome) notFound();
  if (!outcome.ok) {
    return data(
      { errors: { [outcome.field || "form"]: [outcome.message] } as VoteErrors },
      { status: 400, headers: PRIVATE },
    );
  }
  return redirectWithFlash(url.pathname, {
    kind: "success",
    message: `${outcome.changed ? "Vote changed" : "Vote cast"}: car ${outcome.showNumber} in ${outcome.categoryName}. Your ballot id is ${outcome.ballotId}.`,
  });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, actionHeaders }) =>
  actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;

export default function VoteForCar({ loaderData, actionData }: Route.ComponentProps) {
  const { page, signInHref } = loaderData;
  return (
    <VotePageView
      page={page}
      signInHref={signInHref}
      resultsHref={`/events/${page.event.slug}/results`}
      errors={actionData?.errors}
    />
  );
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  {
    title: pageTitle(
      matches,
      loaderData ? `Vote for car ${loaderData.page.car.showNumber}: ${loaderData.page.event.title}` : "Car not found",
    ),
  },
  // The address holds the car's vote key: not for search engines.
  { name: "robots", content: "noindex" },
];
