// What /metrics reports about the site's own state (beside the server's request figures). It
// belongs to the composition root: it knows the areas' tables, which the adapters in app/server
// must not.

import { sql } from "drizzle-orm";
import client from "prom-client";
import { ITEM_KINDS } from "../db/schema";
import type { Runtime } from "./server/runtime.server";

let current: Runtime | undefined;

/**
 * Gauges read when /metrics is scraped: jobs waiting and running per queue, the holds now
 * keeping places, entries and stock, and the sign-ins this server keeps. Registered once per
 * process; they read the latest runtime.
 */
export function registerAppMetrics(runtime: Runtime) {
  current = runtime;
  if (client.register.getSingleMetric("pitlane_job_queue_depth")) return;
  new client.Gauge({
    name: "pitlane_job_queue_depth",
    help: "Background jobs by queue and state: created (waiting), retry (waiting to be tried again), active",
    labelNames: ["queue", "state"],
    async collect() {
      if (!current) return;
      this.reset();
      const rows = (await current.db.execute(
        sql`select name, state::text as state, count(*)::int as count from pgboss.job
            where state in ('created', 'retry', 'active') group by name, state`,
      )) as unknown as { rows: { name: string; state: string; count: number }[] };
      for (const row of rows.rows) this.set({ queue: row.name, state: row.state }, Number(row.count));
    },
  });
  new client.Gauge({
    name: "pitlane_active_holds",
    help: "Holds keeping stock for a buyer who has not paid yet, by what they hold",
    labelNames: ["kind"],
    async collect() {
      if (!current) return;
      this.reset();
      const rows = (await current.db.execute(
        sql`select kind, count(*)::int as count
            from holds where status = 'active' and expires_at > now() group by kind`,
      )) as unknown as { rows: { kind: string; count: number }[] };
      for (const kind of ITEM_KINDS) this.set({ kind }, 0);
      for (const row of rows.rows) this.set({ kind: row.kind }, Number(row.count));
    },
  });
  new client.Gauge({
    name: "pitlane_kept_sign_ins",
    help: "Sign-ins this server keeps for members' page reads (ADR 0021)",
    collect() {
      this.set(current?.sessions.stats().kept ?? 0);
    },
  });
  new client.Gauge({
    name: "pitlane_kept_sign_in_ratio",
    help: "Share of members' page reads answered from a kept sign-in instead of a database lookup, since the server started",
    collect() {
      const { found = 0, missed = 0 } = current?.sessions.stats() ?? {};
      this.set(found + missed === 0 ? 0 : found / (found + missed));
    },
  });
}
