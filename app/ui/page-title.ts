import { DEFAULT_SITE, type RootData } from "./site";

/** What a `meta` function receives as `matches`: the root route's match comes first. */
type Matches = ReadonlyArray<{ data?: unknown } | undefined>;

/** The site's name for a `meta` function, from the root loader's data. */
export function siteNameOf(matches: Matches) {
  return (matches[0]?.data as Partial<RootData> | undefined)?.site?.name ?? DEFAULT_SITE.name;
}

/**
 * A page's <title>: the page's own words, then the sections it sits in, then the site's name
 * ("Orders · Dashboard · Pitlane"), so tabs and history read from the most particular word.
 */
export function pageTitle(matches: Matches, ...parts: string[]) {
  return [...parts, siteNameOf(matches)].join(" · ");
}
