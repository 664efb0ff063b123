import { Clock } from "lucide-react";
import { Suspense } from "react";
import { data } from "react-router";
import { formatEventInstant } from "~/features/dates/event-dates";
import { drawPage, memberEntries, offeredTo, publicDraw } from "~/features/draws/catalogue.server";
import { DrawGallery, EntryForm } from "~/features/draws/draw-parts";
import { entryChoiceFrom } from "~/features/draws/draw-rules";
import { SoldBar, timeLeft } from "~/features/draws/draw-tiles";
import { drawJsonLd } from "~/features/draws/json-ld";
import { prizeClaimFor } from "~/features/draws/results.server";
import { serializeJsonLd } from "~/features/events/json-ld";
import { membershipBuyer } from "~/features/membership/memberships.server";
import { playStatus } from "~/features/play/play-settings.server";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext, userContext } from "~/server/context.server";
import { later } from "~/ui/later";
import { useNonce } from "~/ui/nonce";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import type { Route } from "./+types/detail";
import { drawPageAction } from "./draw-action.server";

const PRIVATE = { "Cache-Control": "private, no-store" };

// The photos and the entry form are the page's own code. The description and rules, instant
// wins, the result, a prize claim and the postal route are in the server's HTML too, their code
// loaded after the page's, hydrated when it arrives (app/ui/later.ts).
const loadDetails = () => import("~/features/draws/draw-page-details");
const details = import.meta.env.SSR ? await loadDetails() : undefined;
const DrawBody = later(loadDetails, "DrawBody", details);
const InstantWinList = later(loadDetails, "InstantWinList", details);
const DrawResult = later(loadDetails, "DrawResult", details);
const PrizeClaimForm = later(loadDetails, "PrizeClaimForm", details);
const PostalRoute = later(loadDetails, "PostalRoute", details);

/** Moving here from another page: those parts' code arrives with the data, so nothing pops in. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [loaded] = await Promise.all([serverLoader(), loadDetails()]);
  return loaded;
}

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  const user = context.get(userContext);
  const now = new Date();
  const page = await drawPage(db, params.slug, now);
  if (!page) notFound();
  const [mine, claim, play, membership] = user
    ? await Promise.all([
        memberEntries(db, page.id, user.id),
        page.status === "drawn" ? prizeClaimFor(db, page.id, user.id) : null,
        page.phase === "open" ? playStatus(db, user.id, now, env.TIME_ZONE) : null,
        // A member sees the bundles' member prices (a visitor's page is the same for every visitor).
        page.phase === "open" ? membershipBuyer(db, user.id, now) : null,
      ])
    : [[], null, null, null];
  const pageUrl = `${env.SITE_URL}/giveaways/${page.slug}`;
  return data(
    {
      page: offeredTo(page, membership ?? { member: false }, env.CURRENCY),
      mine: mine.map((entry) => entry.number),
      claim,
      play: play ? { blocked: play.blocked?.message ?? null, left: play.left } : null,
      viewer: user ? ("member" as const) : ("visitor" as const),
      // What a visitor chose before signing in comes back in the address.
      choice: entryChoiceFrom(url.searchParams, page),
      now: now.getTime(),
      timeZone: env.TIME_ZONE,
      jsonLd: serializeJsonLd(
        drawJsonLd(page, { pageUrl, siteName: env.SITE_NAME, currency: env.CURRENCY, siteUrl: env.SITE_URL }),
      ),
    },
    user ? { headers: PRIVATE } : undefined,
  );
}

/** Add to cart (a competition) or Enter (a giveaway): one plain form, so it works without JavaScript. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const draw = await publicDraw(context.get(runtimeContext).db, params.slug);
  if (!draw) notFound();
  return drawPageAction({ request, context, drawId: draw.id, slug: draw.slug });
}

// A member's page carries their entry numbers: never kept by a shared cache.
export const headers: Route.HeadersFunction = ({ loaderHeaders }) =>
  loaderHeaders.get("Cache-Control") ? PRIVATE : publicPageHeaders();

export default function DrawDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { page, mine, claim, play, viewer, choice, now, timeZone } = loaderData;
  const nonce = useNonce();
  return (
    <main id="main" className="mx-auto max-w-[1200px] space-y-10 px-4 py-10 sm:px-6 md:py-14">
      <script
        type="application/ld+json"
        nonce={nonce}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: loaderData.jsonLd }}
      />
      <div className="grid gap-10 lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-start">
        <div className="min-w-0 space-y-8">
          <header className="space-y-3">
            <p className="text-sm font-bold uppercase tracking-wider text-accent-ink">
              {page.kind === "giveaway" ? "Free giveaway" : "Competition"}
            </p>
            <h1 className="wide text-3xl font-black sm:text-4xl">{page.title}</h1>
            {page.summary ? <p className="text-lg text-muted">{page.summary}</p> : null}
          </header>
          <DrawGallery images={page.images} title={page.title} />
          <Suspense fallback={null}>
            <DrawBody page={page} />
            <InstantWinList page={page} />
          </Suspense>
        </div>
        <aside className="space-y-6 lg:sticky lg:top-24">
          <div className="space-y-3">
            <SoldBar percent={page.percentSold} label={`${page.title}: entries sold`} />
            <p className="flex items-center gap-2 font-semibold">
              <Clock aria-hidden className="size-4 text-accent-ink" />
              <span>
                {page.phase === "closed" ? "Closed" : timeLeft(page.closesAt, now)} ·{" "}
                <time dateTime={page.closesAt}>{formatEventInstant(new Date(page.closesAt), timeZone)}</time>
              </span>
            </p>
            {page.phase === "upcoming" ? (
              <p>
                Opens <time dateTime={page.opensAt}>{formatEventInstant(new Date(page.opensAt), timeZone)}</time>.
              </p>
            ) : null}
          </div>
          {mine.length > 0 ? (
            <section aria-labelledby="my-numbers" className="space-y-2 rounded-2xl bg-surface-sunken p-4">
              <h2 id="my-numbers" className="font-bold">
                Your entry numbers
              </h2>
              <p className="tabular">{mine.join(", ")}</p>
            </section>
          ) : null}
          <EntryForm
            page={page}
            viewer={viewer}
            mine={mine.length}
            play={play}
            choice={choice}
            message={actionData?.message ?? null}
          />
          <Suspense fallback={null}>
            <DrawResult page={page} />
            {claim ? <PrizeClaimForm claim={claim} message={actionData?.message ?? null} /> : null}
            <PostalRoute page={page} />
          </Suspense>
        </aside>
      </div>
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  if (!data) return [{ title: pageTitle(matches, "Draw not found") }];
  const title = pageTitle(matches, data.page.title);
  const description = data.page.summary || `Win ${data.page.prize}.`;
  return [
    { title },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
  ];
};
