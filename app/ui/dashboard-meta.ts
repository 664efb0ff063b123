import { pageTitle } from "./page-title";

/** What a `meta` function receives as `matches`: each matched route's id and loader data. */
type Matches = ReadonlyArray<{ id?: string; data?: unknown } | undefined>;

/**
 * A dashboard page's <title>, from its own words up to the dashboard ("Entries · Summer Draw ·
 * Dashboard · Pitlane"), and a word to search engines to leave it out.
 */
export function dashboardMeta(matches: Matches, ...parts: string[]) {
  return [{ title: pageTitle(matches, ...parts, "Dashboard") }, { name: "robots", content: "noindex" }];
}

/**
 * The title of the record a tab shows (an event, a draw), read from the data of the layout route
 * above the tabs, which holds the record under `key`; `fallback` when that is not there.
 */
export function recordTitle(matches: Matches, layout: { id: string; key: string; fallback: string }) {
  const data = matches.find((match) => match?.id === layout.id)?.data as
    | Record<string, { title?: string } | undefined>
    | undefined;
  return data?.[layout.key]?.title ?? layout.fallback;
}
