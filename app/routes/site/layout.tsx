import { Suspense } from "react";
import { Outlet, useLocation, useRouteError } from "react-router";
import { cartItemCount } from "~/features/cart/cart-page.server";
import { runtimeContext } from "~/server/context.server";
import { ErrorPage } from "~/ui/error-page";
import { later } from "~/ui/later";
import { PrimaryNav } from "~/ui/primary-nav";
import { cartOwner } from "~/web/cart-step.server";
import type { Route } from "./+types/layout";

/** An error shown here keeps the headers it was thrown with (a 429's Retry-After). */
export const headers: Route.HeadersFunction = ({ errorHeaders }) => errorHeaders ?? new Headers();

/** The navigation's cart badge: no query at all for a visitor who has no cart cookie. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const owner = cartOwner(context, request);
  return { cartCount: owner ? await cartItemCount(context.get(runtimeContext).db, owner) : 0 };
}

// The footer, at the bottom of every page, is in the server's HTML; its code comes after the
// page's, and React hydrates it when it arrives (app/ui/later.ts).
const loadFooter = () => import("~/ui/footer");
const Footer = later(loadFooter, "Footer", import.meta.env.SSR ? await loadFooter() : undefined);

/** Public pages: the primary navigation (light over the home hero), the page, the footer. */
export default function SiteLayout({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  return (
    <>
      <PrimaryNav light={pathname === "/"} cartCount={loaderData.cartCount} />
      <Outlet />
      <Suspense fallback={null}>
        <Footer />
      </Suspense>
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <>
      <PrimaryNav />
      <ErrorPage error={error} />
      <Suspense fallback={null}>
        <Footer />
      </Suspense>
    </>
  );
}
