import { Plus } from "lucide-react";
import { Link } from "react-router";
import { Pagination } from "~/features/admin/members-list";
import { DrawFilterTabs, DrawListRow, EmptyDrawList } from "~/features/draws/organizer/draw-list";
import { listDrawsForAdmin } from "~/features/draws/organizer/queries.server";
import { type DrawFilter, DrawsQuerySchema } from "~/features/draws/organizer/schemas";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { pageTitle } from "~/ui/page-title";
import { countOf } from "~/ui/plural";
import type { Route } from "./+types/list";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const query = DrawsQuerySchema.parse(Object.fromEntries(url.searchParams));
  const list = await listDrawsForAdmin(db, { ...query, timeZone: env.TIME_ZONE });
  return { ...list, show: query.show };
}

export default function DrawsList({ loaderData }: Route.ComponentProps) {
  const { draws, counts, total, page, pageCount, show } = loaderData;
  const href = (filter: DrawFilter, target = 1) => {
    const params = new URLSearchParams();
    if (filter !== "active") params.set("show", filter);
    if (target > 1) params.set("page", String(target));
    const search = params.toString();
    return search ? `?${search}` : ".";
  };
  return (
    <div className="mx-auto max-w-[1100px]">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm font-bold uppercase tracking-[0.18em] text-accent-ink">Organize</p>
          <h1 className="wide mt-1 text-3xl font-extrabold sm:text-4xl">Draws</h1>
          <p className="mt-2 max-w-prose text-muted">
            Paid competitions and free giveaways: their prizes, entries, postal entries and results. New draws stay
            drafts until you publish them.
          </p>
        </div>
        <Link
          to="/admin/draws/new"
          className="inline-flex items-center gap-2 rounded-full bg-accent px-6 py-3 font-bold text-on-accent hover:bg-accent-strong"
        >
          <Plus aria-hidden className="size-5" /> New draw
        </Link>
      </div>
      <div className="mt-8">
        <DrawFilterTabs show={show} counts={counts} href={(filter) => href(filter)} />
      </div>
      <p className="sr-only" role="status">
        {countOf(total, "draw", "draws")}
      </p>
      {draws.length === 0 ? (
        <EmptyDrawList show={show} />
      ) : (
        <Card as="ul" variant="list" className="mt-3">
          {draws.map((draw) => (
            <DrawListRow key={draw.id} draw={draw} />
          ))}
        </Card>
      )}
      <Pagination page={page} pageCount={pageCount} href={(target) => href(show, target)} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  return [{ title: pageTitle(matches, "Draws", "Dashboard") }, { name: "robots", content: "noindex" }];
};
