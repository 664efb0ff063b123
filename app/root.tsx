import { type ReactNode, Suspense } from "react";
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError } from "react-router";
import { cartNoticeContext } from "~/web/cart-step.server";
import type { Route } from "./+types/root";
import stylesheetUrl from "./app.css?url";
import fontUrl from "./assets/fonts/archivo-latin-subset.woff2?url";
import { runtimeContext, userContext } from "./server/context.server";
import { takeFlash } from "./server/flash.server";
import { steps } from "./server/middleware.server";
import { ChunkLoadError } from "./ui/chunk-reload";
import { ErrorPage, ErrorPageGuard } from "./ui/error-page";
import { later } from "./ui/later";
import { NavigationWatchdog, useChunkFailure } from "./ui/navigation-watchdog";
import { useNonce } from "./ui/nonce";
import { OfflineBanner } from "./ui/offline-banner";
import { ProgressBar } from "./ui/progress-bar";
import { type RootData, usePageScripts, useRootData } from "./ui/site";
import { UpdatePrompt } from "./ui/update-prompt";
import { appleSplashLinks } from "./ui/web-app-icons";

// The route steps every page runs: who is signed in (`auth`), then whose cart it is (`cart`).
export const middleware = steps("auth", "cart");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { env, storage } = context.get(runtimeContext);
  const user = context.get(userContext);
  const taken = await takeFlash(request);
  // A visitor's cart just joined their account's with changes: say so on this page.
  const notice = context.get(cartNoticeContext);
  if (notice) notice.shown = true;
  const { headers } = taken;
  const flash = notice?.flash ?? taken.flash;
  const rootData: RootData = {
    site: { name: env.SITE_NAME, currency: env.CURRENCY, timeZone: env.TIME_ZONE, mediaBase: storage.publicBase },
    user: user ? { name: user.name, role: user.role, handle: user.handle, image: user.image } : null,
    flash,
  };
  return data(rootData, { headers });
}

// The stylesheet comes first in the head: it blocks the first paint, and the module preloads
// React Router adds after these links would otherwise be requested ahead of it.
export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheetUrl, precedence: "default" },
  { rel: "preload", href: fontUrl, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "icon", href: "/icons/icon-64.png", sizes: "64x64", type: "image/png" },
  { rel: "apple-touch-icon", href: "/icons/icon-180.png" },
  ...appleSplashLinks(),
];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const scripts = usePageScripts();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#111214" />
        <meta name="apple-mobile-web-app-capable" content="yes" />
        <meta name="apple-mobile-web-app-status-bar-style" content="black-translucent" />
        <Meta />
        <Links />
      </head>
      <body>
        <ProgressBar />
        <ErrorPageGuard>{children}</ErrorPageGuard>
        <OfflineBanner />
        <UpdatePrompt />
        <NavigationWatchdog />
        {scripts ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

// A flash message is on few pages: its code is loaded when there is one (app/ui/later.ts).
const loadFlashMessage = () => import("./ui/flash-message");
const FlashMessage = later(
  loadFlashMessage,
  "FlashMessage",
  import.meta.env.SSR ? await loadFlashMessage() : undefined,
);

export default function App() {
  // A page whose script could not load renders nothing on its own: say why instead.
  const chunkFailed = useChunkFailure();
  const flash = useRootData()?.flash;
  return (
    <>
      {flash ? (
        <Suspense fallback={null}>
          <FlashMessage />
        </Suspense>
      ) : null}
      {chunkFailed ? <ErrorPage error={new ChunkLoadError()} /> : <Outlet />}
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return <ErrorPage error={error} />;
}
