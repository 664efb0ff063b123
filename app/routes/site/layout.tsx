import { Outlet, useLocation, useRouteError } from "react-router";
import { ErrorPage } from "~/ui/error-page";
import { Footer } from "~/ui/footer";
import { MobileBanner } from "~/ui/mobile-banner";
import { PrimaryNav } from "~/ui/primary-nav";
import type { Route } from "./+types/layout";

/** An error shown here keeps the headers it was thrown with (a 429's Retry-After). */
export const headers: Route.HeadersFunction = ({ errorHeaders }) => errorHeaders ?? new Headers();

/** Public pages: the primary navigation (light over the home hero), the page, the footer. */
export default function SiteLayout() {
  const { pathname } = useLocation();
  return (
    <>
      <PrimaryNav light={pathname === "/"} />
      <Outlet />
      <MobileBanner />
      <Footer />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <>
      <PrimaryNav />
      <ErrorPage error={error} />
      <Footer />
    </>
  );
}
