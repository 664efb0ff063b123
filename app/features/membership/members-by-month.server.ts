import { sql } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { wallTimeAt, wallTimeToInstant } from "~/features/dates/time-zones";
import type { Db } from "~/server/db/client.server";
import { memberships, orderItems, orders } from "../../../db/schema";
import { MembersChart, type MonthFigures } from "./members-chart";
import { GRACE_DAYS } from "./membership-rules";

/**
 * Joins, renewals and lapses in each of the last 12 months (this one so far included), by the
 * calendar month in the club's time zone, for the chart on the dashboard's overview:
 *
 * - **joins**: memberships by `joined_at`. There is one row per member and joining again starts
 *   it afresh, so a member who left and came back counts once, at their latest joining (an
 *   import or a join during the grace days included).
 * - **renewals**: paid renewal orders' membership lines (`renews_membership_id` set), by the
 *   order's `paid_at`; a renewal refunded in full (cooling-off) is not counted.
 * - **lapses**: memberships whose benefits ended in the month, by the rule that decides whether
 *   a membership holds its tier's place (`holdingPlace`, the rules' `hasBenefits`): at
 *   `ended_at` if it was stopped early (a refund, or ended by staff); otherwise at `paid_until`
 *   with renewal off, or `paid_until` plus the grace days with a renewal left unpaid. Only
 *   endings that have happened are counted, so a membership renewed on time never lapses.
 *
 * One query for the three.
 */
export async function membersByMonth(db: Db, input: { now: Date; timeZone: string }): Promise<MonthFigures[]> {
  const { now, timeZone } = input;
  const current = wallTimeAt(now, timeZone);
  const months = Array.from({ length: 12 }, (_, index) => {
    const first = new Date(Date.UTC(current.year, current.month - 12 + index, 1));
    return { year: first.getUTCFullYear(), month: first.getUTCMonth() + 1 };
  });
  const first = { ...months[0]!, day: 1, minute: 0 };
  const since =
    wallTimeToInstant({ ...first, hour: 0 }, timeZone) ?? wallTimeToInstant({ ...first, hour: 1 }, timeZone)!;
  const from = sql`${since.toISOString()}::timestamptz`;
  const to = sql`${now.toISOString()}::timestamptz`;
  const monthOf = (instant: ReturnType<typeof sql>) => sql`to_char(${instant} at time zone ${timeZone}, 'YYYY-MM')`;
  const benefitsEnd = sql`least(
    coalesce(${memberships.endedAt}, 'infinity'::timestamptz),
    case when ${memberships.renews}
      then ${memberships.paidUntil} + make_interval(days => ${GRACE_DAYS})
      else ${memberships.paidUntil} end)`;
  const result = (await db.execute(sql`
    select kind, month, count(*)::int as count from (
      select 'joins' as kind, ${monthOf(sql`${memberships.joinedAt}`)} as month
        from ${memberships}
        where ${memberships.joinedAt} >= ${from} and ${memberships.joinedAt} <= ${to}
      union all
      select 'renewals', ${monthOf(sql`${orders.paidAt}`)}
        from ${orderItems} join ${orders} on ${orders.id} = ${orderItems.orderId}
        where ${orderItems.kind} = 'membership' and ${orderItems.renewsMembershipId} is not null
          and ${orderItems.refundedQuantity} < ${orderItems.quantity}
          and ${orders.paidAt} >= ${from} and ${orders.paidAt} <= ${to}
      union all
      select 'lapses', ${monthOf(sql`ends_at`)}
        from (select ${benefitsEnd} as ends_at from ${memberships}) as ending
        where ends_at >= ${from} and ends_at <= ${to}
    ) as counted
    group by kind, month`)) as unknown as { rows: { kind: keyof Counts; month: string; count: number }[] };
  const counts = new Map<string, Counts>();
  for (const row of result.rows) {
    const month = counts.get(row.month) ?? { joins: 0, renewals: 0, lapses: 0 };
    month[row.kind] = Number(row.count);
    counts.set(row.month, month);
  }
  return months.map(({ year, month }) => {
    const key = `${year}-${String(month).padStart(2, "0")}`;
    return { month: key, label: monthLabel(year, month), ...(counts.get(key) ?? { joins: 0, renewals: 0, lapses: 0 }) };
  });
}

type Counts = { joins: number; renewals: number; lapses: number };

const monthFormat = new Intl.DateTimeFormat("en-GB", { month: "short", year: "numeric", timeZone: "UTC" });

function monthLabel(year: number, month: number) {
  return monthFormat.format(new Date(Date.UTC(year, month - 1, 15)));
}

/**
 * The chart as HTML, drawn on the server: the overview shows it as it is, so the chart adds no
 * script to the dashboard's pages (nothing in it is interactive).
 */
export function membersChartHtml(months: MonthFigures[]) {
  return renderToStaticMarkup(createElement(MembersChart, { months }));
}
