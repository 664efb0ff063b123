import { Trophy } from "lucide-react";
import { listDraws } from "~/features/draws/catalogue.server";
import { DrawTiles } from "~/features/draws/draw-tiles";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { pageTitle, siteNameOf } from "~/ui/page-title";
import type { Route } from "./+types/list";

export async function loader({ context }: Route.LoaderArgs) {
  const { db } = context.get(runtimeContext);
  const now = new Date();
  return { ...(await listDraws(db, now)), now: now.getTime() };
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

export default function GiveawaysPage({ loaderData }: Route.ComponentProps) {
  const { live, ended, now } = loaderData;
  return (
    <main id="main">
      <header className="dark-band bg-asphalt-950 text-white">
        <div className="mx-auto max-w-[1200px] space-y-3 px-4 py-12 sm:px-6 md:py-16">
          <h1 className="wide text-4xl font-black sm:text-5xl">Competitions and giveaways</h1>
          <p className="max-w-2xl text-lg text-asphalt-200">
            Win cars, parts and track days. Every draw has a free postal route, a limit per person, and a result anyone
            can check.
          </p>
        </div>
      </header>
      <section aria-labelledby="live" className="mx-auto max-w-[1200px] space-y-6 px-4 py-10 sm:px-6 md:py-14">
        <h2 id="live" className="wide text-2xl font-extrabold">
          Open now
        </h2>
        {live.length > 0 ? (
          <DrawTiles tiles={live} now={now} firstPriority />
        ) : (
          <Card variant="empty" className="grid justify-items-center gap-3 px-6 py-12">
            <Trophy aria-hidden className="size-8 text-accent-ink" />
            <p className="font-semibold">No draws are open right now. Check back soon.</p>
          </Card>
        )}
      </section>
      {ended.length > 0 ? (
        <section aria-labelledby="ended" className="mx-auto max-w-[1200px] space-y-6 px-4 pb-14 sm:px-6">
          <h2 id="ended" className="wide text-2xl font-extrabold">
            Closed and drawn
          </h2>
          <DrawTiles tiles={ended} now={now} />
        </section>
      ) : null}
    </main>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const title = pageTitle(matches, "Competitions and giveaways");
  const description = `Prize competitions and free giveaways from ${siteNameOf(matches)}: fair, capped and checkable.`;
  return [
    { title },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
  ];
};
