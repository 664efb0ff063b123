import { CarFront, IdCard, type LucideIcon, Receipt, Settings, Ticket, UserRound } from "lucide-react";
import { Outlet, redirect, useRouteError, useRouteLoaderData } from "react-router";
import { requireUser } from "~/server/auth/session.server";
import { DashboardShell } from "~/ui/dashboard";
import { ErrorPage } from "~/ui/error-page";
import { memberAreas } from "~/ui/site";
import type { Route } from "./+types/layout";

const MEMBERS_TITLE = "Members";
const icons: Record<(typeof memberAreas)[number]["to"], LucideIcon> = {
  "/members": UserRound,
  "/members/events": Ticket,
  "/members/garage": CarFront,
  "/members/membership": IdCard,
  "/transactions": Receipt,
  "/settings": Settings,
};
const nav = memberAreas.map((area) => ({ ...area, icon: icons[area.to] }));

/**
 * The members' area is for signed-in members who have finished onboarding. As a route step the
 * check runs once, before any loader or action of the pages below.
 */
export const middleware: Route.MiddlewareFunction[] = [
  ({ context, url }) => {
    const user = requireUser({ context, url });
    if (!user.onboarded) {
      throw redirect(`/newProfile?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
    }
  },
];

export function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  return { user: { name: user.name, role: user.role } };
}

export default function MembersLayout({ loaderData }: Route.ComponentProps) {
  return (
    <DashboardShell title={MEMBERS_TITLE} nav={nav} user={loaderData.user}>
      <div className="mx-auto max-w-4xl">
        <Outlet />
      </div>
    </DashboardShell>
  );
}

/** A page's error inside the members' frame (the frame itself only once the member is known). */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("routes/members/layout");
  if (!data) return <ErrorPage error={error} />;
  return (
    <DashboardShell title={MEMBERS_TITLE} nav={nav} user={data.user}>
      <ErrorPage error={error} within />
    </DashboardShell>
  );
}
