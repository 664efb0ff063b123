import {
  CalendarDays,
  ClipboardCheck,
  Handshake,
  IdCard,
  LayoutDashboard,
  Newspaper,
  Receipt,
  ScanLine,
  ScrollText,
  Settings,
  ShieldAlert,
  ShoppingBag,
  TicketPercent,
  Trophy,
  Truck,
  UserCog,
} from "lucide-react";
import type { DashboardNavItem } from "~/ui/dashboard";

/** An area of the dashboard; organizers open every one that is not `adminOnly`. */
type DashboardArea = DashboardNavItem & {
  adminOnly?: true;
  /** Its pages are still to come: the menu leaves it out, so it never leads to a missing page. */
  comingSoon?: true;
};

/** Every area of the organizer dashboard, in menu order. */
const dashboardAreas: DashboardArea[] = [
  { to: "/admin", label: "Overview", icon: LayoutDashboard, end: true },
  { to: "/admin/events", label: "Events", icon: CalendarDays },
  { to: "/admin/check-in", label: "Check-in", icon: ScanLine },
  { to: "/admin/applications", label: "Applications", icon: ClipboardCheck },
  { to: "/admin/draws", label: "Draws", icon: Trophy },
  { to: "/admin/moderation", label: "Moderation", icon: ShieldAlert },
  { to: "/admin/shop", label: "Shop", icon: ShoppingBag },
  { to: "/admin/orders", label: "Orders", icon: Receipt },
  { to: "/admin/fulfilment", label: "Fulfilment", icon: Truck },
  { to: "/admin/articles", label: "Articles", icon: Newspaper },
  { to: "/admin/membership", label: "Membership", icon: IdCard },
  { to: "/admin/vouchers", label: "Vouchers", icon: TicketPercent },
  { to: "/admin/partners", label: "Partners", icon: Handshake },
  { to: "/admin/members", label: "Members & roles", icon: UserCog, adminOnly: true },
  { to: "/admin/audit", label: "Audit log", icon: ScrollText, adminOnly: true, comingSoon: true },
  { to: "/admin/settings", label: "Settings", icon: Settings, adminOnly: true, comingSoon: true },
];

/** The areas a staff member with `role` can open today. */
export function dashboardNav(role: string): DashboardNavItem[] {
  return dashboardAreas
    .filter((area) => !area.comingSoon && (!area.adminOnly || role === "admin"))
    .map(({ to, label, icon, end }) => ({ to, label, icon, end }));
}
