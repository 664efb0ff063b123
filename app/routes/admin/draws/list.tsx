import { DrawListRow, emptyDrawList } from "~/features/draws/organizer/draw-list";
import { listDrawsForAdmin } from "~/features/draws/organizer/queries.server";
import { DRAW_FILTERS, type DrawFilter, DrawsQuerySchema } from "~/features/draws/organizer/schemas";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { FilterTabs, ListPageHeader, ListResults, listHref } from "~/ui/list-page";
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
  const href = (filter: DrawFilter, target = 1) =>
    listHref({ show: filter, page: target }, { show: "active", page: 1 });
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
      <ListResults
        total={total}
        noun={["draw", "draws"]}
        empty={draws.length === 0 ? emptyDrawList(show) : null}
        page={page}
        pageCount={pageCount}
        href={(target) => href(show, target)}
      >
        {draws.map((draw) => (
          <DrawListRow key={draw.id} draw={draw} />
        ))}
      </ListResults>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => dashboardMeta(matches, "Draws");
