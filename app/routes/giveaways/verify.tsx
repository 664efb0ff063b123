import { drawPage } from "~/features/draws/catalogue.server";
import { ALGORITHM } from "~/features/draws/fairness";
import { VerifyPanel } from "~/features/draws/verify-panel";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import { formatCount } from "~/ui/plural";
import type { Route } from "./+types/verify";

export async function loader({ context, params }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  const page = await drawPage(db, params.slug, new Date());
  if (!page) notFound();
  return { page, siteUrl: env.SITE_URL };
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

function Value({ label, value, pending }: { label: string; value: string | null; pending: string }) {
  return (
    <div className="space-y-1">
      <dt className="font-semibold">{label}</dt>
      <dd className="font-mono text-sm break-all">
        {value ?? <span className="font-sans text-muted">{pending}</span>}
      </dd>
    </div>
  );
}

export default function VerifyDraw({ loaderData }: Route.ComponentProps) {
  const { page, siteUrl } = loaderData;
  const closed = page.status === "closed" || page.status === "drawn";
  return (
    <main id="main" className="mx-auto max-w-[880px] space-y-8 px-4 py-10 sm:px-6 md:py-14">
      <header className="space-y-2">
        <h1 className="wide text-3xl font-black sm:text-4xl">Check the draw: {page.title}</h1>
        <p className="text-muted">
          Every input of this draw is below. The winner is the entry picked by HMAC-SHA-512, keyed by the seed, over the
          entry list's hash and the beacon, without modulo bias ({ALGORITHM}). The seed was fixed before the draw opened
          (its SHA-256 was published then) and the beacon was only known after it closed, so nobody could choose the
          result.
        </p>
      </header>
      <Card as="section" aria-labelledby="inputs" className="space-y-4 p-5 sm:p-6">
        <h2 id="inputs" className="text-xl font-bold">
          Inputs
        </h2>
        <dl className="space-y-4">
          <Value
            label="Commitment (SHA-256 of the seed), published at go-live"
            value={page.commitment}
            pending="Published when the draw goes live"
          />
          <Value label="Seed" value={page.seed} pending="Revealed after the draw" />
          <Value
            label="Entry list hash (SHA-256), frozen at close"
            value={page.listHash}
            pending="Published when the draw closes"
          />
          <Value
            label="Eligible entries"
            value={page.eligibleCount === null ? null : formatCount(page.eligibleCount)}
            pending="Known at close"
          />
          <Value label={`Beacon: ${page.beaconSource}`} value={page.beaconValue} pending="Entered when it is known" />
          <Value
            label="Winning entry"
            value={page.winner ? `${page.winner.number}${page.winner.name ? ` (${page.winner.name})` : ""}` : null}
            pending="After the draw"
          />
          {page.instantWins ? (
            <>
              <Value
                label={`Instant wins (${page.instantWins.count}): commitment published at go-live`}
                value={page.instantWins.commitment}
                pending="Published when the draw goes live"
              />
              <Value label="Instant wins: salt" value={page.instantWins.salt} pending="Revealed when the draw closes" />
              <Value
                label="Instant wins: the list"
                value={page.instantWins.revealed?.map((win) => `${win.number}: ${win.prize}`).join("; ") ?? null}
                pending="Revealed when the draw closes"
              />
            </>
          ) : null}
        </dl>
      </Card>
      {closed ? (
        <Card as="section" aria-labelledby="recompute" className="space-y-3 p-5 sm:p-6">
          <h2 id="recompute" className="text-xl font-bold">
            Recomputed in your browser
          </h2>
          <VerifyPanel slug={page.slug} />
          <p className="text-sm text-muted">
            Or from a terminal, with this site's source:{" "}
            <code>
              npm run verify-draw -- {page.slug} --site {siteUrl}
            </code>
            . The record it checks is{" "}
            <a className="text-link underline" href={`/giveaways/${page.slug}/verify.json`}>
              verify.json
            </a>
            .
          </p>
        </Card>
      ) : (
        <p>The entry list is published when the draw closes; come back then to check it.</p>
      )}
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) => [
  { title: pageTitle(matches, data ? `Check the draw: ${data.page.title}` : "Draw not found") },
];
