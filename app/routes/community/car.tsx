import { lazy, Suspense } from "react";
import { Form, Link } from "react-router";
import { carHistory } from "~/features/car-history/car-history.server";
import { CarGallery, CarSpecs, CarStory, LikeButton, ReportForm, ShareLink } from "~/features/community/car-page-parts";
import { carTitle } from "~/features/community/car-tile";
import { carJsonLd } from "~/features/community/json-ld";
import { getCommunityCar, isCarId } from "~/features/community/showcase.server";
import { serializeJsonLd } from "~/features/events/json-ld";
import { carPhotoShareUrl } from "~/features/media/car-photo-urls";
import { hasRole } from "~/server/auth/session.server";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext, userContext } from "~/server/context.server";
import { useNonce } from "~/ui/nonce";
import { notFound } from "~/ui/not-found";
import { pageTitle, siteNameOf } from "~/ui/page-title";
import { viewerFrom } from "~/web/viewer.server";
import type { Route } from "./+types/car";
import { carPageAction } from "./car-action.server";

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  const viewer = viewerFrom(context);
  // A car the viewer may not see answers exactly like one that does not exist. Its show history is
  // read alongside and dropped with it.
  const [car, history] = await Promise.all([
    getCommunityCar(db, viewer, params.carId),
    isCarId(params.carId) ? carHistory(db, { carId: params.carId, owner: false }) : [],
  ]);
  if (!car) notFound();
  const pageUrl = `${env.SITE_URL}/community/cars/${car.id}`;
  const cover = car.photos.find((photo) => !photo.hidden);
  const imageUrl = cover ? carPhotoShareUrl(cover.hash, env.SITE_URL) : null;
  const user = context.get(userContext);
  return {
    car,
    history,
    pageUrl,
    imageUrl,
    signInHref: `/login?redirectTo=${encodeURIComponent(url.pathname)}`,
    can: !viewer ? ("sign-in" as const) : car.isMine ? ("own" as const) : ("like" as const),
    staff: user ? hasRole(user, "organizer") : false,
    featured: car.featuredAt !== null,
    jsonLd:
      car.visibility === "public" && !car.hidden
        ? serializeJsonLd(carJsonLd(car, { pageUrl, siteUrl: env.SITE_URL }))
        : null,
  };
}

export function action({ request, context, params, url }: Route.ActionArgs) {
  return carPageAction({ request, context, url, carId: params.carId });
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

// The show history sits under the gallery and the story: it is in the server's HTML, and in the
// browser its code is a chunk of its own, loaded after the page's (as the home page's sections).
const loadTimeline = () => import("~/features/car-history/car-timeline");
const CarTimeline = import.meta.env.SSR
  ? (await loadTimeline()).CarTimeline
  : lazy(() => loadTimeline().then((module) => ({ default: module.CarTimeline })));

/** Moving here from another page: the history's code arrives with the data, so nothing pops in. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), loadTimeline()]);
  return data;
}

export default function CommunityCarPage({ loaderData, actionData }: Route.ComponentProps) {
  const { car, pageUrl, can, signInHref, staff, featured } = loaderData;
  const nonce = useNonce();
  const title = carTitle(car);
  const likeMessage =
    actionData && "like" in actionData && "message" in actionData.like ? actionData.like.message : undefined;
  const report = actionData && "report" in actionData ? actionData.report : undefined;
  return (
    <main id="main" className="mx-auto max-w-[1200px] px-4 py-8 sm:px-6 md:py-12">
      {loaderData.jsonLd ? (
        <script type="application/ld+json" nonce={nonce} dangerouslySetInnerHTML={{ __html: loaderData.jsonLd }} />
      ) : null}
      {car.hidden ? (
        <p role="status" className="mb-6 rounded-xl border border-line bg-surface-raised p-4">
          Moderators have hidden this car: only its owner and the club's staff can see it.
        </p>
      ) : null}
      <div className="grid gap-10 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0 space-y-8">
          <header>
            <p className="text-sm font-bold uppercase tracking-[0.2em] text-accent-ink">{car.make}</p>
            <h1 className="wide mt-1 text-3xl font-black leading-tight sm:text-5xl">{title}</h1>
            {car.variant ? <p className="mt-2 text-lg text-muted">{car.variant}</p> : null}
          </header>
          <CarGallery car={car} photos={car.photos} />
          {car.story.trim() ? (
            <section aria-labelledby="story" className="space-y-4">
              <h2 id="story" className="wide text-2xl font-extrabold">
                The story
              </h2>
              <CarStory story={car.story} />
            </section>
          ) : null}
          {car.modifications.length > 0 ? (
            <section aria-labelledby="mods" className="space-y-4">
              <h2 id="mods" className="wide text-2xl font-extrabold">
                Modifications
              </h2>
              <ul className="grid gap-2 sm:grid-cols-2">
                {car.modifications.map((modification) => (
                  <li key={modification} className="rounded-xl border border-line bg-surface-raised px-4 py-3">
                    {modification}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {loaderData.history.length > 0 ? (
            <Suspense fallback={null}>
              <CarTimeline entries={loaderData.history} />
            </Suspense>
          ) : null}
        </div>
        <aside className="space-y-6">
          <section id="likes" aria-label="Likes" className="scroll-mt-24">
            <LikeButton
              carId={car.id}
              likeCount={car.likeCount}
              likedByMe={car.likedByMe}
              can={can}
              signInHref={signInHref}
              message={likeMessage}
            />
          </section>
          <section aria-labelledby="owner" className="rounded-2xl border border-line bg-surface-raised p-5">
            <h2 id="owner" className="text-xs font-bold uppercase tracking-[0.14em] text-muted">
              Owner
            </h2>
            {car.ownerHandle && car.ownerProfileOpen ? (
              <Link to={`/community/${car.ownerHandle}`} className="mt-1 block text-lg font-bold text-link underline">
                {car.ownerName} <span className="font-normal text-muted">@{car.ownerHandle}</span>
              </Link>
            ) : (
              <p className="mt-1 text-lg font-bold">{car.ownerName}</p>
            )}
          </section>
          <section aria-labelledby="specs" className="space-y-3">
            <h2 id="specs" className="wide text-xl font-extrabold">
              Specs
            </h2>
            <CarSpecs car={car} />
          </section>
          <section aria-label="Share">
            <ShareLink url={pageUrl} />
          </section>
          {can === "like" ? <ReportForm car={car} photos={car.photos} lastResult={report} /> : null}
          {staff ? (
            <Form method="post" className="rounded-2xl border border-line p-4">
              <input type="hidden" name="intent" value="feature" />
              <input type="hidden" name="carId" value={car.id} />
              <input type="hidden" name="featured" value={featured ? "off" : "on"} />
              <p className="mb-3 text-sm text-muted">
                {featured ? "This car is featured on the home page." : "Staff: show this car on the home page."}
              </p>
              <button
                type="submit"
                className="inline-flex h-11 items-center justify-center rounded-full bg-surface-sunken px-5 font-bold text-text hover:bg-line"
              >
                {featured ? "Stop featuring" : "Feature on the home page"}
              </button>
            </Form>
          ) : null}
        </aside>
      </div>
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data: page, matches }) => {
  const site = siteNameOf(matches);
  if (!page) return [{ title: pageTitle(matches, "Car not found") }];
  const { car } = page;
  const title = carTitle(car);
  const description =
    car.story.trim().slice(0, 160) || `${title}${car.variant ? ` ${car.variant}` : ""} in the ${site} community.`;
  const image = page.imageUrl
    ? [
        { property: "og:image", content: page.imageUrl },
        { property: "og:image:alt", content: title },
        { name: "twitter:image", content: page.imageUrl },
      ]
    : [];
  const shared = car.visibility === "public" && !car.hidden;
  return [
    { title: pageTitle(matches, title) },
    { name: "description", content: description },
    ...(shared
      ? [{ tagName: "link", rel: "canonical", href: page.pageUrl }]
      : [{ name: "robots", content: "noindex" }]),
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: page.pageUrl },
    { property: "og:type", content: "article" },
    { property: "og:site_name", content: site },
    { name: "twitter:card", content: page.imageUrl ? "summary_large_image" : "summary" },
    ...image,
  ];
};
