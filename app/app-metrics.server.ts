// What /metrics reports about the site's own state (beside the server's request figures), and
// which cached pages show each table. Both belong to the composition root: they know the areas'
// tables, which the adapters in app/server must not.

import { sql } from "drizzle-orm";
import client from "prom-client";
import type { Runtime } from "./server/runtime.server";

/**
 * The pages that show each table's rows (paths as the page cache purges them: a path covers its
 * sub-pages, "/" is the home page alone, "*" every page). A table missing here shows on no cached
 * page. The database announces a change to each of these tables (migration 0016).
 */
const PAGES_SHOWING: Record<string, readonly string[]> = {
  events: ["/", "/events", "/community"],
  ticket_types: ["/", "/events"],
  // A sale or a refund moves places left, % sold and stock on every kind of page that sells.
  orders: ["/", "/events", "/giveaways", "/shop"],
  draws: ["/", "/giveaways"],
  draw_entries: ["/", "/giveaways"],
  play_settings: ["/giveaways", "/responsible-play"],
  cars: ["/", "/community", "/events"],
  car_photos: ["/", "/community", "/events"],
  car_likes: ["/community"],
  users: ["/community", "/giveaways"],
  show_car_applications: ["/events", "/community"],
  products: ["/", "/shop"],
  product_variants: ["/", "/shop"],
  articles: ["/", "/blog"],
  partners: ["/"],
  site_pages: ["*"],
};

/** The paths of the cached pages that show `table`; every page when the table is not known. */
export function pagesShowing(table: string | null): readonly string[] {
  if (table === null) return ["*"];
  return PAGES_SHOWING[table] ?? [];
}

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
        sql`select case when variant_id is not null then 'merch' when draw_id is not null then 'entry'
                        else 'ticket' end as kind, count(*)::int as count
            from holds where status = 'active' and expires_at > now() group by 1`,
      )) as unknown as { rows: { kind: string; count: number }[] };
      for (const kind of ["ticket", "entry", "merch"]) this.set({ kind }, 0);
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
