import { Mail, ShieldCheck, UserPlus, Users } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { memberFigures, messagesSent, newestMembers } from "~/features/admin/overview.server";
import { LowStockCard } from "~/features/fulfilment/fulfilment-parts";
import { lowStockVariants } from "~/features/fulfilment/stock-alerts.server";
import { membersByMonth, membersChartHtml } from "~/features/membership/members-by-month.server";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Card } from "~/ui/card";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { countOf } from "~/ui/plural";
import { useSite } from "~/ui/site";
import type { Route } from "./+types/overview";

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const now = new Date();
  const [members, messages, newest, lowStock, byMonth] = await Promise.all([
    memberFigures(db, now),
    messagesSent(db, now),
    newestMembers(db),
    lowStockVariants(db, now, 10),
    membersByMonth(db, { now, timeZone: env.TIME_ZONE }),
  ]);
  return {
    firstName: user.name.split(" ")[0] ?? user.name,
    isAdmin: user.role === "admin",
    members,
    messages,
    newest,
    lowStock,
    // Drawn here, so the chart adds no script to the page.
    membersChart: membersChartHtml(byMonth),
  };
}

const number = new Intl.NumberFormat("en-GB");

export default function Overview({ loaderData }: Route.ComponentProps) {
  const { members, messages, newest, isAdmin } = loaderData;
  const { timeZone } = useSite();
  return (
    <div className="mx-auto max-w-[1100px]">
      <p className="text-sm font-bold uppercase tracking-[0.18em] text-accent-ink">Overview</p>
      <h1 className="wide mt-1 text-3xl font-extrabold sm:text-4xl">Welcome back, {loaderData.firstName}</h1>
      <p className="mt-2 max-w-prose text-muted">How the club is doing right now. Figures update on every visit.</p>

      <section aria-labelledby="figures" className="mt-8">
        <h2 id="figures" className="sr-only">
          Figures
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
          <Figure icon={<Users aria-hidden className="size-5" />} label="Members" value={members.members}>
            All accounts, staff included
          </Figure>
          <Figure icon={<UserPlus aria-hidden className="size-5" />} label="New members" value={members.newThisWeek}>
            Joined in the last 7 days
          </Figure>
          <Figure icon={<ShieldCheck aria-hidden className="size-5" />} label="Staff" value={members.staff}>
            {isAdmin ? (
              <Link to="/admin/members?role=staff" className="font-semibold text-link underline">
                Organizers and admins
              </Link>
            ) : (
              "Organizers and admins"
            )}
          </Figure>
          <Figure icon={<Mail aria-hidden className="size-5" />} label="Messages sent" value={messages.total}>
            In the last 24 hours: {countOf(messages.emails, "email", "emails")},{" "}
            {countOf(messages.texts, "text", "texts")}
          </Figure>
        </dl>
      </section>

      {loaderData.lowStock.length > 0 ? (
        <div className="mt-8 max-w-2xl">
          <LowStockCard variants={loaderData.lowStock} />
        </div>
      ) : null}

      <div className="mt-10 max-w-3xl" dangerouslySetInnerHTML={{ __html: loaderData.membersChart }} />

      <section aria-labelledby="newest" className="mt-10 max-w-2xl">
        <div className="flex items-baseline justify-between gap-4">
          <h2 id="newest" className="wide text-xl font-extrabold">
            Newest members
          </h2>
          {isAdmin ? (
            <Link to="/admin/members" className="text-sm font-semibold text-link underline">
              All members
            </Link>
          ) : null}
        </div>
        {newest.length === 0 ? (
          <Card as="p" variant="empty" className="mt-3 p-8 text-muted">
            No members yet. Share the sign-up page to get the first ones in.
          </Card>
        ) : (
          <Card as="ol" variant="list" className="mt-3">
            {newest.map((member) => (
              <li key={member.id} className="flex items-center gap-3 px-5 py-3">
                <span
                  aria-hidden
                  className="grid size-9 shrink-0 place-items-center rounded-full bg-surface-sunken font-bold"
                >
                  {member.name.charAt(0).toUpperCase()}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-semibold">{member.name}</span>
                  <span className="block truncate text-sm text-muted">
                    {[member.handle ? `@${member.handle}` : null, member.town].filter(Boolean).join(" · ") ||
                      "Profile not finished yet"}
                  </span>
                </span>
                <time dateTime={member.createdAt.toISOString()} className="tabular shrink-0 text-sm text-muted">
                  {member.createdAt.toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone })}
                </time>
              </li>
            ))}
          </Card>
        )}
      </section>
    </div>
  );
}

function Figure({
  icon,
  label,
  value,
  children,
}: {
  icon: ReactNode;
  label: string;
  value: number;
  children: ReactNode;
}) {
  return (
    <Card className="flex flex-col p-4 sm:p-5">
      <dt className="flex flex-col items-start gap-1.5 font-semibold text-muted sm:flex-row sm:items-center sm:gap-2">
        {icon}
        {label}
      </dt>
      <dd className="wide tabular mt-3 text-3xl font-black sm:text-4xl">{number.format(value)}</dd>
      <dd className="mt-2 text-sm text-muted">{children}</dd>
    </Card>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => dashboardMeta(matches, "Overview");
