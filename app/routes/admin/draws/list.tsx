import { Pagination } from "~/features/admin/members-list";
import { DrawListRow, EmptyDrawList } from "~/features/draws/organizer/draw-list";
import { listDrawsForAdmin } from "~/features/draws/organizer/queries.server";
import { DRAW_FILTERS, type DrawFilter, DrawsQuerySchema } from "~/features/draws/organizer/schemas";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { FilterTabs, ListPageHeader } from "~/ui/list-page";
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
      <ListPageHeader
        area="Organize"
        title="Draws"
        intro="Paid competitions and free giveaways: their prizes, entries, postal entries and results. New draws stay drafts until you publish them."
        create={{ to: "/admin/draws/new", label: "New draw" }}
      />
      <div className="mt-8">
        <FilterTabs
          label="Which draws"
          names={DRAW_FILTERS}
          show={show}
          counts={counts}
          href={(filter) => href(filter)}
        />
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
