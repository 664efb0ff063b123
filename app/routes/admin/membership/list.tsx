import { Users } from "lucide-react";
import { Link } from "react-router";
import { periodWords } from "~/features/membership/membership-labels";
import { tiersForStaff } from "~/features/membership/tiers.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Badge } from "~/ui/badge";
import { Card } from "~/ui/card";
import { ListPageHeader } from "~/ui/list-page";
import { formatMoney } from "~/ui/money";
import { pageTitle } from "~/ui/page-title";
import { useSite } from "~/ui/site";
import type { Route } from "./+types/list";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db } = context.get(runtimeContext);
  return { tiers: await tiersForStaff(db, new Date()) };
}

export default function AdminMembership({ loaderData }: Route.ComponentProps) {
  const { tiers } = loaderData;
  const { currency } = useSite();
  return (
    <div className="mx-auto max-w-[1100px]">
      <ListPageHeader
        area="Organize"
        title="Membership"
        intro="The tiers members join: their price, how their year runs, what they give. Members keep the terms they paid for; changes apply to joining and renewals from now on."
        create={{ to: "/admin/membership/new", label: "New tier" }}
        actions={
          <Link
            to="/admin/membership/members"
            className="inline-flex items-center gap-2 rounded-full px-5 py-3 font-bold ring-1 ring-line hover:bg-surface-sunken"
          >
            <Users aria-hidden className="size-5" /> Members
          </Link>
        }
      />
      {tiers.length === 0 ? (
        <Card variant="empty" className="mt-8 p-10">
          <p className="font-semibold">No tiers yet.</p>
          <p className="mt-1 text-muted">Add the first one: an annual membership, a family tier…</p>
        </Card>
      ) : (
        <Card as="ul" variant="list" className="mt-8">
          {tiers.map((tier) => (
            <li key={tier.id} className="flex flex-wrap items-center gap-4 p-4 sm:flex-nowrap">
              <div className="min-w-0 flex-1 space-y-1">
                <p className="flex flex-wrap items-center gap-2">
                  <Link to={`/admin/membership/${tier.id}`} className="font-bold text-link underline">
                    {tier.name}
                  </Link>
                  {tier.onSale ? <Badge tone="success">On sale</Badge> : <Badge tone="quiet">Not on sale</Badge>}
                </p>
                <p className="text-sm text-muted">
                  {formatMoney(tier.price, currency)} · {periodWords(tier)}
                </p>
              </div>
              <p className="tabular text-sm font-semibold">
                {tier.members} {tier.members === 1 ? "member" : "members"}
                {tier.capacity !== null ? ` of ${tier.capacity}` : ""}
              </p>
            </li>
          ))}
        </Card>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => {
  return [{ title: pageTitle(matches, "Membership", "Dashboard") }, { name: "robots", content: "noindex" }];
};
