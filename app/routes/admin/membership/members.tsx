import { Download, Upload } from "lucide-react";
import { Link } from "react-router";
import { listMembers } from "~/features/membership/member-list.server";
import { MEMBER_VIEWS } from "~/features/membership/member-views";
import { membershipDate } from "~/features/membership/membership-labels";
import { MembershipStateBadge } from "~/features/membership/membership-state-badge";
import { MembersQuerySchema } from "~/features/membership/schemas";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { ListPageHeader, ListResults, listHref } from "~/ui/list-page";
import { ListFilter, ListSearch } from "~/ui/list-search";
import type { Route } from "./+types/members";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const query = MembersQuerySchema.parse(Object.fromEntries(url.searchParams));
  const list = await listMembers(db, { q: query.q, view: query.show, page: query.page, now: new Date() });
  return {
    ...list,
    members: list.members.map((member) => ({
      ...member,
      paidUntilLabel: membershipDate(member.paidUntil, env.TIME_ZONE),
    })),
    q: query.q,
    show: query.show,
  };
}

export default function Members({ loaderData }: Route.ComponentProps) {
  const { members, total, page, pageCount, q, show } = loaderData;
  const href = (target: number) => listHref({ q, show, page: target }, { show: "all", page: 1 });
  const csv = `/admin/membership/members.csv?${new URLSearchParams({ q, show })}`;
  return (
    <div className="mx-auto max-w-[1100px]">
      <ListPageHeader
        area="Membership"
        title="Members"
        actions={
          <>
            <Link
              to="/admin/membership/import"
              className="inline-flex items-center gap-2 rounded-full px-5 py-3 font-bold ring-1 ring-line hover:bg-surface-sunken"
            >
              <Upload aria-hidden className="size-5" /> Import CSV
            </Link>
            <a
              href={csv}
              className="inline-flex items-center gap-2 rounded-full px-5 py-3 font-bold ring-1 ring-line hover:bg-surface-sunken"
            >
              <Download aria-hidden className="size-5" /> Download CSV
            </a>
          </>
        }
      />
      <ListSearch id="member-search" label="Name or email" q={q} resetKey={`${q}|${show}`} className="mt-8">
        <ListFilter id="member-state" name="show" label="Status" value={show} options={MEMBER_VIEWS} />
      </ListSearch>
      <ListResults
        total={total}
        noun={["member", "members"]}
        q={q}
        showCount
        empty={members.length === 0 ? "No members match. Try part of a name or an email address." : null}
        page={page}
        pageCount={pageCount}
        href={href}
      >
        {members.map((member) => (
          <li key={member.id} className="flex flex-wrap items-center gap-4 p-4 sm:flex-nowrap">
            <div className="min-w-0 flex-1 space-y-1">
              <p className="flex flex-wrap items-center gap-2">
                <Link to={`/admin/membership/members/${member.id}`} className="font-semibold text-link underline">
                  {member.name}
                </Link>
                <MembershipStateBadge state={member.state} />
              </p>
              <p className="truncate text-sm text-muted">
                {member.email}
                {member.people.length > 0 ? ` · with ${member.people.join(", ")}` : ""}
              </p>
            </div>
            <div className="text-sm sm:text-right">
              <p className="font-semibold">{member.tier}</p>
              <p className="text-muted">
                Paid until {member.paidUntilLabel}
                {member.renews && !member.endedAt ? " · renews" : " · renewal off"}
              </p>
            </div>
          </li>
        ))}
      </ListResults>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => dashboardMeta(matches, "Members", "Membership");
