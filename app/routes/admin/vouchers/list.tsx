import { Download, Layers } from "lucide-react";
import { Link } from "react-router";
import { formatEventInstant } from "~/features/dates/event-dates";
import { VouchersQuerySchema } from "~/features/vouchers/schemas";
import {
  batchSummary,
  listVouchers,
  VOUCHER_STATES,
  type VoucherState,
} from "~/features/vouchers/staff-vouchers.server";
import { describeEffect } from "~/features/vouchers/voucher-rules";
import { requireRole } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Badge, type BadgeTone } from "~/ui/badge";
import { dashboardMeta } from "~/ui/dashboard-meta";
import { ListPageHeader, ListResults, listHref } from "~/ui/list-page";
import { ListSearch } from "~/ui/list-search";
import { notFound } from "~/ui/not-found";
import { countOf } from "~/ui/plural";
import { BackLink } from "~/ui/record-header";
import type { Route } from "./+types/list";

export async function loader({ context, url }: Route.LoaderArgs) {
  requireRole({ context, url }, "organizer");
  const { db, env } = context.get(runtimeContext);
  const query = VouchersQuerySchema.parse(Object.fromEntries(url.searchParams));
  const [list, batch] = await Promise.all([
    listVouchers(db, { q: query.q, batchId: query.batch, page: query.page, now: new Date() }),
    query.batch ? batchSummary(db, query.batch) : null,
  ]);
  if (query.batch && !batch) notFound("This batch of codes could not be found");
  const at = (instant: Date) => formatEventInstant(instant, env.TIME_ZONE);
  const window = ({ validFrom, validUntil }: { validFrom: Date | null; validUntil: Date | null }) => {
    if (validFrom && validUntil) return `From ${at(validFrom)} until ${at(validUntil)}`;
    if (validFrom) return `From ${at(validFrom)}`;
    return validUntil ? `Until ${at(validUntil)}` : "Any time";
  };
  const rows = list.rows.map(({ validFrom, validUntil, ...row }) => ({
    ...row,
    effectLabel: describeEffect(row, env.CURRENCY),
    stateLabel: VOUCHER_STATES[row.state],
    window: window({ validFrom, validUntil }),
  }));
  return { ...list, rows, q: query.q, batch };
}

const STATE_TONES = {
  active: "success",
  scheduled: "neutral",
  ended: "quiet",
  used_up: "warning",
  off: "quiet",
} as const satisfies Record<VoucherState, BadgeTone>;

const button =
  "inline-flex items-center gap-2 rounded-full px-5 py-3 font-bold ring-1 ring-line hover:bg-surface-sunken";

export default function AdminVouchers({ loaderData }: Route.ComponentProps) {
  const { rows, total, page, pageCount, q, batch } = loaderData;
  const href = (target: number) => listHref({ batch: batch?.id ?? "", q, page: target }, { page: 1 });
  return (
    <div className="mx-auto max-w-[1100px]">
      {batch ? <BackLink to="/admin/vouchers" label="Vouchers" /> : null}
      <ListPageHeader
        area={batch ? "Batch of codes" : "Organize"}
        title={batch ? batch.label : "Vouchers"}
        intro={
          batch
            ? `${countOf(batch.codes, "code", "codes")} made together. Open one to change its terms or switch it off.`
            : "Discount codes and vouchers: what they take off, what they apply to, how often they can be used."
        }
        create={batch ? undefined : { to: "/admin/vouchers/new", label: "New code" }}
        actions={
          batch ? (
            <a href={`/admin/vouchers/batches/${batch.id}/codes.csv`} className={button}>
              <Download aria-hidden className="size-5" /> Download CSV
            </a>
          ) : (
            <Link to="/admin/vouchers/new?mode=batch" className={button}>
              <Layers aria-hidden className="size-5" /> New batch
            </Link>
          )
        }
      />
      <ListSearch id="voucher-search" label="Code or label" q={q} resetKey={q} className="mt-8">
        {batch ? <input type="hidden" name="batch" value={batch.id} /> : null}
      </ListSearch>
      <ListResults
        total={total}
        noun={batch ? ["code", "codes"] : ["voucher", "vouchers"]}
        q={q}
        showCount
        empty={rows.length === 0 ? (q ? "No codes match. Try part of a code or a label." : "No codes yet.") : null}
        page={page}
        pageCount={pageCount}
        href={href}
      >
        {rows.map((row) => (
          <li key={row.id} className="flex flex-wrap items-center gap-4 p-4 sm:flex-nowrap">
            <div className="min-w-0 flex-1 space-y-1">
              <p className="flex flex-wrap items-center gap-2">
                {row.batchId ? (
                  <Link to={`/admin/vouchers?batch=${row.batchId}`} className="font-bold text-link underline">
                    {row.label}
                  </Link>
                ) : (
                  <Link to={`/admin/vouchers/${row.id}`} className="tabular font-bold text-link underline">
                    {row.code}
                  </Link>
                )}
                <Badge tone={STATE_TONES[row.state]}>{row.stateLabel}</Badge>
                {row.batchId ? (
                  <span className="text-sm text-muted">
                    Batch of {countOf(row.codes, "code", "codes")}
                    {row.activeCodes < row.codes && row.activeCodes > 0 ? `, ${row.activeCodes} on` : ""}
                  </span>
                ) : row.label ? (
                  <span className="text-sm text-muted">{row.label}</span>
                ) : null}
              </p>
              <p className="text-sm">
                {row.effectLabel} · {row.appliesTo.join(", ")}
                {row.holdsPlaces ? " · keeps places" : ""}
              </p>
              <p className="text-sm text-muted">{row.window}</p>
            </div>
            <p className="tabular text-sm font-semibold">
              {row.maxUses === null ? `${row.used} used · no limit` : `${row.used} / ${row.maxUses} used`}
            </p>
          </li>
        ))}
      </ListResults>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, data }) =>
  dashboardMeta(matches, ...(data?.batch ? [data.batch.label] : []), "Vouchers");
