import {
  CalendarDays,
  ClipboardCheck,
  Handshake,
  LayoutDashboard,
  Newspaper,
  Receipt,
  ScanLine,
  ScrollText,
  Settings,
  ShieldAlert,
  ShoppingBag,
  Trophy,
  Truck,
  UserCog,
} from "lucide-react";
import type { DashboardNavItem } from "~/ui/dashboard";

/**
 * Every area of the organizer dashboard, in menu order.
 * `role` is the least role that may open it; an area shows in the menu once its pages exist
 * (`available`), so the menu never leads to a missing page.
 */
const dashboardAreas: (DashboardNavItem & { role: "organizer" | "admin"; available: boolean })[] = [
  { to: "/admin", label: "Overview", icon: LayoutDashboard, end: true, role: "organizer", available: true },
  { to: "/admin/events", label: "Events", icon: CalendarDays, role: "organizer", available: true },
  { to: "/admin/check-in", label: "Check-in", icon: ScanLine, role: "organizer", available: true },
  { to: "/admin/applications", label: "Applications", icon: ClipboardCheck, role: "organizer", available: true },
  { to: "/admin/draws", label: "Draws", icon: Trophy, role: "organizer", available: true },
  { to: "/admin/moderation", label: "Moderation", icon: ShieldAlert, role: "organizer", available: true },
  { to: "/admin/shop", label: "Shop", icon: ShoppingBag, role: "organizer", available: true },
  { to: "/admin/orders", label: "Orders", icon: Receipt, role: "organizer", available: true },
  { to: "/admin/fulfilment", label: "Fulfilment", icon: Truck, role: "organizer", available: true },
  { to: "/admin/articles", label: "Articles", icon: Newspaper, role: "organizer", available: true },
  { to: "/admin/partners", label: "Partners", icon: Handshake, role: "organizer", available: true },
  { to: "/admin/members", label: "Members & roles", icon: UserCog, role: "admin", available: true },
  { to: "/admin/audit", label: "Audit log", icon: ScrollText, role: "admin", available: false },
  { to: "/admin/settings", label: "Settings", icon: Settings, role: "admin", available: false },
];

/** The areas a staff member with `role` can open today. */
export function dashboardNav(role: string): DashboardNavItem[] {
  return dashboardAreas
    .filter((area) => area.available && (area.role === "organizer" || role === "admin"))
    .map(({ to, label, icon, end }) => ({ to, label, icon, end }));
}
