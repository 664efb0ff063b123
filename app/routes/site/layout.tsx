import { Outlet, useLocation, useRouteError } from "react-router";
import { cartItemCount } from "~/features/cart/cart-page.server";
import { runtimeContext } from "~/server/context.server";
import { ErrorPage } from "~/ui/error-page";
import { Footer } from "~/ui/footer";
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

/** Public pages: the primary navigation (light over the home hero), the page, the footer. */
export default function SiteLayout({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  return (
    <>
      <PrimaryNav light={pathname === "/"} cartCount={loaderData.cartCount} />
      <Outlet />
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
