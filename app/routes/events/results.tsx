import { redirect } from "react-router";
import { resultsPage } from "~/features/judging/results.server";
import { ResultsPageView } from "~/features/judging/results-page";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext, userContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import { linkPreviewMeta } from "~/ui/page-meta";
import { pageTitle, siteNameOf } from "~/ui/page-title";
import type { Route } from "./+types/results";

/**
 * A show's results (docs/car-shows.md): not found until staff publish them, though organizers and
 * admins may preview them. `?ballot=` checks a ballot on the server for a browser without
 * JavaScript; with it, the page checks in the browser.
 */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  const user = context.get(userContext);
  const ballotId = url.searchParams.get("ballot");
  const page = await resultsPage(db, {
    idOrSlug: params.id,
    viewer: user,
    now: new Date(),
    ballotId: ballotId === null ? null : ballotId.slice(0, 200),
  });
  if (!page) notFound();
  // One address per show's results: a link by the event's id moves to its slug for good.
  if (params.id !== page.event.slug) throw redirect(`/events/${page.event.slug}/results${url.search}`, 301);
  const first = page.awards[0];
  return {
    page,
    pageUrl: `${env.SITE_URL}/events/${page.event.slug}/results`,
    imageUrl: first ? `${env.SITE_URL}/events/${page.event.slug}/results/awards/${first.id}.png` : null,
  };
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export default function ShowResults({ loaderData }: Route.ComponentProps) {
  return <ResultsPageView page={loaderData.page} />;
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [{ title: pageTitle(matches, "Results not found") }];
  const { page } = loaderData;
  const title = `Show results: ${page.event.title}`;
  const first = page.awards[0];
  const description = first
    ? `${first.title}: ${first.car.label}. Every class's placings and the People's Choice count.`
    : `Every class's placings and the People's Choice count at ${page.event.title}.`;
  return [
    { title: pageTitle(matches, title) },
    { name: "description", content: description },
    ...(page.preview ? [{ name: "robots", content: "noindex" }] : []),
    ...linkPreviewMeta({
      url: loaderData.pageUrl,
      title,
      description,
      type: "website",
      site: siteNameOf(matches),
      image: loaderData.imageUrl
        ? { url: loaderData.imageUrl, width: 1200, height: 630, alt: `${first!.title}: ${first!.car.label}` }
        : null,
    }),
  ];
};
