import { MapPin, UserRound } from "lucide-react";
import { Link } from "react-router";
import { CarTiles } from "~/features/community/car-tile";
import { getCommunityProfile } from "~/features/community/showcase.server";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import { viewerFrom } from "~/web/viewer.server";
import type { Route } from "./+types/profile";

export async function loader({ context, params }: Route.LoaderArgs) {
  const { db } = context.get(runtimeContext);
  const profile = await getCommunityProfile(db, viewerFrom(context), params.handle);
  if (!profile) notFound();
  return profile;
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export default function CommunityProfile({ loaderData }: Route.ComponentProps) {
  const { member, cars, isMe, preview, hiddenFromOthers } = loaderData;
  const hidden = [hiddenFromOthers?.town && "town", hiddenFromOthers?.photo && "photo"].filter(Boolean).join(" and ");
  return (
    <main id="main" className="mx-auto max-w-[1200px] px-4 py-10 sm:px-6 md:py-14">
      {isMe && (preview || hidden) ? (
        <div role="status" className="mb-8 space-y-1 rounded-xl border border-line bg-surface-raised p-4">
          {preview ? (
            <p>
              Only you can see this page. It opens to everyone once you share a car publicly: set a car's visibility to
              public in{" "}
              <Link to="/members/garage" className="text-link underline">
                your garage
              </Link>
              .
            </p>
          ) : null}
          {hidden ? (
            <p>
              Others do not see your {hidden}.{" "}
              <Link to="/settings#profile" className="text-link underline">
                Choose what to show in your settings
              </Link>
              .
            </p>
          ) : null}
        </div>
      ) : null}
      <header className="flex flex-wrap items-center gap-5">
        {member.image ? (
          <img
            src={member.image}
            alt=""
            width={96}
            height={96}
            className="size-24 rounded-full object-cover ring-2 ring-line"
          />
        ) : (
          <span className="grid size-24 place-items-center rounded-full bg-surface-sunken ring-2 ring-line">
            <UserRound aria-hidden className="size-10 text-muted" />
          </span>
        )}
        <div className="min-w-0">
          <h1 className="wide text-3xl font-black sm:text-4xl">{member.name}</h1>
          <p className="mt-1 text-muted">@{member.handle}</p>
          {member.town ? (
            <p className="mt-1 inline-flex items-center gap-1 text-muted">
              <MapPin aria-hidden className="size-4" /> {member.town}
            </p>
          ) : null}
        </div>
      </header>
      <section aria-labelledby="their-cars" className="mt-10">
        <h2 id="their-cars" className="wide mb-5 text-2xl font-extrabold">
          {isMe ? "Your cars" : "Cars"}
        </h2>
        {cars.length > 0 ? (
          <CarTiles cars={cars} firstPriority />
        ) : (
          <p className="rounded-2xl border border-dashed border-line p-8 text-center text-muted">
            {isMe ? (
              <>
                No cars yet —{" "}
                <Link to="/members/newGarage" className="text-link underline">
                  add your first car
                </Link>
                .
              </>
            ) : (
              "No cars to show yet."
            )}
          </p>
        )}
      </section>
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  if (!data) return [{ title: pageTitle(matches, "Member not found") }];
  const title = pageTitle(matches, `${data.member.name} (@${data.member.handle})`);
  const description = `${data.member.name}'s cars in the community.`;
  return [
    { title },
    // The member's own preview of a page nobody else can open yet.
    ...(data.preview ? [{ name: "robots", content: "noindex" }] : []),
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: "profile" },
  ];
};
