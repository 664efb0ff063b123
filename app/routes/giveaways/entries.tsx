import { Link } from "react-router";
import { publicEntryList } from "~/features/draws/catalogue.server";
import { publicPageHeaders } from "~/server/cache.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { notFound } from "~/ui/not-found";
import { pageTitle } from "~/ui/page-title";
import { countOf } from "~/ui/plural";
import { HeaderRow } from "~/ui/table";
import type { Route } from "./+types/entries";

const SOURCES = { paid: "Online", postal: "Post", free: "Free" } as const;

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { db } = context.get(runtimeContext);
  const asked = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const page = Number.isInteger(asked) && asked >= 1 && asked <= 100_000 ? asked : 1;
  const list = await publicEntryList(db, params.slug, page);
  if (!list || (page > list.pages && page !== 1)) notFound();
  return { list, page };
}

export const headers: Route.HeadersFunction = () => publicPageHeaders();

/** The entry list after close: every valid entry, by number, with masked names and eligibility. */
export default function DrawEntries({ loaderData }: Route.ComponentProps) {
  const { list, page } = loaderData;
  const href = (to: number) => `/giveaways/${list.slug}/entries${to > 1 ? `?page=${to}` : ""}`;
  return (
    <main id="main" className="mx-auto max-w-[880px] space-y-6 px-4 py-10 sm:px-6 md:py-14">
      <header className="space-y-2">
        <p>
          <Link to={`/giveaways/${list.slug}`} className="text-link underline">
            {list.title}
          </Link>
        </p>
        <h1 className="wide text-3xl font-black">Entry list</h1>
        <p className="text-muted">
          {countOf(list.total, "entry", "entries")}, frozen when the draw closed. Only entries with the right answer
          went into the draw; names are shortened for privacy.
        </p>
      </header>
      <Card className="overflow-x-auto p-0">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">
            Entries {(page - 1) * 500 + 1} onwards of {list.title}
          </caption>
          <thead>
            <HeaderRow
              className="border-b border-line"
              cellClassName="px-4 py-2"
              columns={["Entry", "Entrant", "Entered", "In the draw"]}
            />
          </thead>
          <tbody>
            {list.entries.map((entry) => (
              <tr key={entry.number} className="border-b border-line last:border-0">
                <td className="tabular px-4 py-1.5 font-bold">{entry.number}</td>
                <td className="px-4 py-1.5">{entry.name}</td>
                <td className="px-4 py-1.5">{SOURCES[entry.source]}</td>
                <td className="px-4 py-1.5">{entry.eligible ? "Yes" : "No (wrong answer)"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      {list.pages > 1 ? (
        <nav aria-label="Entry list pages" className="flex items-center justify-between gap-4">
          {page > 1 ? (
            <Link to={href(page - 1)} className="font-semibold text-link underline">
              Previous
            </Link>
          ) : (
            <span />
          )}
          <span>
            Page {page} of {list.pages}
          </span>
          {page < list.pages ? (
            <Link to={href(page + 1)} className="font-semibold text-link underline">
              Next
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data, matches }) => [
  { title: pageTitle(matches, data ? `Entry list: ${data.list.title}` : "Draw not found") },
];
