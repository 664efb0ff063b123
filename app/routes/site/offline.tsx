import { WifiOff } from "lucide-react";
import { Link } from "react-router";
import type { PageHandle } from "~/ui/site";
import type { Route } from "./+types/offline";

// The service worker answers any page address with this page's cached copy when there is no
// connection. Hydrating it would start the app at that other address and fail, so it goes out
// as HTML and CSS only; its links are ordinary page loads.
export const handle: PageHandle = { hydrate: false };

/** Shown by the service worker when a page is requested with no connection and no cached copy. */
export default function Offline() {
  return (
    <main
      id="main"
      className="mx-auto grid min-h-[60vh] max-w-[1200px] place-items-center px-4 py-20 text-center sm:px-6"
    >
      <div className="max-w-md space-y-5">
        <WifiOff aria-hidden className="mx-auto size-12 text-muted" />
        <h1 className="wide text-3xl font-extrabold">You are offline</h1>
        <p className="text-muted">
          This page needs a connection. Try again when you are back online; your tickets are in your email.
        </p>
        <p>
          <Link
            to="/"
            reloadDocument
            className="inline-block rounded-full bg-accent px-6 py-3 font-bold text-on-accent"
          >
            Try the home page
          </Link>
        </p>
      </div>
    </main>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Offline" }, { name: "robots", content: "noindex" }];
