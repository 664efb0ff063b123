import { listMembers } from "~/features/membership/member-list.server";
import { MEMBER_VIEWS } from "~/features/membership/member-views";
import { membershipDate } from "~/features/membership/membership-labels";
import { MembersQuerySchema } from "~/features/membership/schemas";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { csvDownload, toCsv } from "~/ui/csv-download";
import type { Route } from "./+types/members-csv";

/** The member list (or its search and view) as CSV, every match. */
export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const query = MembersQuerySchema.parse(Object.fromEntries(url.searchParams));
  const now = new Date();
  const list = await listMembers(db, { q: query.q, view: query.show, page: 1, now, perPage: null });
  return csvDownload(
    toCsv([
      ["Name", "Email", "Tier", "Also covers", "Status", "Joined", "Paid until", "Renews"],
      ...list.members.map((member) => [
        member.name,
        member.email,
        member.tier,
        member.people.join("; "),
        MEMBER_VIEWS[member.state],
        membershipDate(member.joinedAt, env.TIME_ZONE),
        membershipDate(member.paidUntil, env.TIME_ZONE),
        member.renews && !member.endedAt ? "Yes" : "No",
      ]),
    ]),
    "members.csv",
  );
}
