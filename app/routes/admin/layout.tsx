import { Outlet, useRouteError, useRouteLoaderData } from "react-router";
import { dashboardNav } from "~/features/admin/areas";
import { requireRole } from "~/server/auth/session.server";
import { DashboardShell } from "~/ui/dashboard";
import { ErrorPage } from "~/ui/error-page";
import type { Route } from "./+types/layout";

const DASHBOARD_TITLE = "Dashboard";

// Signed-out visitors go to /login and come back; members get the 403 page, with nothing of the
// dashboard in it. Each page below checks its own role again: loaders run in parallel.
export function loader({ context, url }: Route.LoaderArgs) {
  const user = requireRole({ context, url }, "organizer");
  return { user: { name: user.name, role: user.role } };
}

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
  const { user } = loaderData;
  return (
    <DashboardShell title={DASHBOARD_TITLE} nav={dashboardNav(user.role)} user={user}>
      <Outlet />
    </DashboardShell>
  );
}

/** A page's error inside the dashboard frame; the frame itself only for staff. */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("routes/admin/layout");
  if (!data) return <ErrorPage error={error} />;
  return (
    <DashboardShell title={DASHBOARD_TITLE} nav={dashboardNav(data.user.role)} user={data.user}>
      <ErrorPage error={error} within />
    </DashboardShell>
  );
}
