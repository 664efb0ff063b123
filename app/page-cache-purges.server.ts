// Which cached pages show each table, so a change to the table purges them from the page cache
// (app/server/page-cache.server.ts, docs/page-cache.md). It belongs to the composition root: it
// knows the areas' tables, which the adapters in app/server must not.

/**
 * The pages that show each table's rows (paths as the page cache purges them: a path covers its
 * sub-pages, "/" is the home page alone, "*" every page). A table missing here shows on no cached
 * page. The database announces a change to each of these tables (migration 0016).
 */
const PAGES_SHOWING: Record<string, readonly string[]> = {
  events: ["/", "/events", "/community"],
  ticket_types: ["/", "/events"],
  // A sale or a refund moves places left, % sold and stock on every kind of page that sells.
  orders: ["/", "/events", "/giveaways", "/shop", "/membership"],
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
  membership_tiers: ["/membership"],
  // A code that keeps places takes them from the places left that event pages show.
  vouchers: ["/", "/events"],
  // A car show's results pages, and the awards and history on its cars' pages.
  show_classes: ["/events"],
  show_entries: ["/events"],
  show_awards: ["/events", "/community"],
  show_settings: ["/events"],
  vote_categories: ["/events"],
  car_history_choices: ["/community"],
  site_pages: ["*"],
};

/** The paths of the cached pages that show `table`; every page when the table is not known. */
export function pagesShowing(table: string | null): readonly string[] {
  if (table === null) return ["*"];
  return PAGES_SHOWING[table] ?? [];
}
