import { Settings, UserRound } from "lucide-react";
import { useRouteLoaderData } from "react-router";

export type SiteSettings = {
  name: string;
  currency: string;
  timeZone: string;
};

export type RootData = {
  site: SiteSettings;
  user: { name: string; role: string; handle: string | null; image: string | null } | null;
  flash: { kind: "success" | "info" | "error"; message: string } | null;
};

export function useRootData() {
  return useRouteLoaderData("root") as RootData | undefined;
}

export function useSite(): SiteSettings {
  return useRootData()?.site ?? { name: "Pitlane", currency: "GBP", timeZone: "Europe/London" };
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
 * (garage, tickets, orders) add their pages here.
 */
export const memberAreas = [
  { to: "/members", label: "My account", icon: UserRound, end: true },
  { to: "/settings", label: "Settings", icon: Settings },
] as const;
