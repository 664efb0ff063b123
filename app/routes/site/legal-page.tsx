import { getSitePage, type SitePageSlug } from "~/features/content/pages.server";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext } from "~/server/context.server";
import { formatDay } from "~/ui/day";
import { notFound } from "~/ui/not-found";
import { pageTitle, siteNameOf } from "~/ui/page-title";
import type { Route } from "./+types/legal-page";

export async function loader({ context, url }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  const slug = url.pathname.slice(1) as SitePageSlug;
  const page = await getSitePage(db, slug, env.SITE_NAME);
  if (!page) notFound();
  return page;
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export default function LegalPage({ loaderData }: Route.ComponentProps) {
  const updated = formatDay(new Date(loaderData.updatedAt), "UTC");
  return (
    <main id="main" className="mx-auto max-w-[1200px] px-4 py-12 sm:px-6 sm:py-16">
      <h1 className="wide mb-2 text-3xl font-extrabold sm:text-4xl">{loaderData.title}</h1>
      <p className="mb-10 text-sm text-muted">Updated {updated}</p>
      {/* Rendered from Markdown on the server with raw HTML escaped. */}
      <article className="prose-pitlane" dangerouslySetInnerHTML={{ __html: loaderData.html }} />
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data: page, matches }) => {
  const site = siteNameOf(matches);
  return [
    { title: page ? pageTitle(matches, page.title) : site },
    { name: "description", content: page ? `${page.title} of ${site}.` : "" },
  ];
};
