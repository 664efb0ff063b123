import { useMatches, useRouteLoaderData } from "react-router";

export type SiteSettings = {
  name: string;
  currency: string;
  timeZone: string;
  /** What media keys are prefixed with: "/media/", or the S3 bucket's public address (docs/media.md). */
  mediaBase: string;
};

export type RootData = {
  site: SiteSettings;
  user: { name: string; role: string; handle: string | null; image: string | null } | null;
  flash: { kind: "success" | "info" | "error"; message: string; link?: { href: string; label: string } } | null;
};

/** What the pages show when the root loader's data is not there (an error page, say). */
export const DEFAULT_SITE: SiteSettings = {
  name: "Pitlane",
  currency: "GBP",
  timeZone: "Europe/London",
  mediaBase: "/media/",
};

export function useRootData() {
  return useRouteLoaderData("root") as RootData | undefined;
}

export function useSite(): SiteSettings {
  return useRootData()?.site ?? DEFAULT_SITE;
}

/** The media base for `coverSources`, `logoSources` and the like (car photos are always at /media/). */
export function useMediaBase() {
  return useSite().mediaBase;
}

/** What a route module may declare in its `handle` export. */
export type PageHandle = {
  /** `false` sends the page as plain HTML and CSS, without the app's scripts. */
  hydrate?: boolean;
};

/** Whether the document loads the app's scripts: yes unless a matched route opted out. */
export function usePageScripts() {
  return !useMatches().some((match) => (match.handle as PageHandle | undefined)?.hydrate === false);
}

/** The public areas, in the order the navigation and footer show them. */
export const publicAreas = [
  { to: "/events", label: "Events" },
  { to: "/giveaways", label: "Giveaways" },
  { to: "/shop", label: "Shop" },
  { to: "/community", label: "Community" },
  { to: "/blog", label: "Blog" },
] as const;

/**
 * The members' area, in the order its side navigation and the footer show them; later areas
 * (garage, tickets, orders) add their pages here. The icons are the members' layout's own, so
 * the public pages, whose footer lists these links too, do not load them.
 */
export const memberAreas = [
  { to: "/members", label: "My account", end: true },
  { to: "/members/events", label: "My tickets" },
  { to: "/members/garage", label: "My garage" },
  { to: "/members/membership", label: "My membership" },
  { to: "/transactions", label: "Orders" },
  { to: "/settings", label: "Settings" },
] as const;
