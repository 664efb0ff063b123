import { Component, type ReactNode } from "react";
import { isRouteErrorResponse, Link } from "react-router";

/**
 * What the error page shows for an error: its status and message. A missing page is 404 "This
 * page could not be found"; any other error shows its own status and message, or just "Error".
 */
function describeError(error: unknown): { status: number; message: string } {
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return { status: 404, message: "This page could not be found" };
    const message = typeof error.data === "string" && error.data ? error.data : "Error";
    return { status: error.status, message };
  }
  if (error instanceof Error) return { status: 500, message: error.message || "Error" };
  return { status: 500, message: "Error" };
}

/** `within` draws it inside a page frame that already has the <main> landmark (the dashboard). */
export function ErrorPage({ error, within = false }: { error: unknown; within?: boolean }) {
  const { status, message } = describeError(error);
  const Frame = within ? "div" : "main";
  return (
    <Frame
      id={within ? undefined : "main"}
      className="mx-auto grid min-h-[60vh] max-w-[1200px] place-items-center px-4 py-20 text-center sm:px-6"
    >
      <title>{message}</title>
      <div className="space-y-5">
        <p className="wide tabular text-7xl font-black text-accent-ink sm:text-8xl" aria-hidden="true">
          {status}
        </p>
        <h1 className="text-2xl font-bold sm:text-3xl">{message}</h1>
        {status === 404 ? <p className="text-muted">The address may be mistyped, or the page may have moved.</p> : null}
        <p>
          <Link
            to="/"
            className="inline-block rounded-full bg-accent px-6 py-3 font-bold text-on-accent hover:bg-accent-strong"
          >
            Back to the home page
          </Link>
        </p>
      </div>
    </Frame>
  );
}

/**
 * In the browser, a failure while drawing the error page falls back to a plain last-resort
 * message. (On the server, entry.server renders the same fallback when the shell fails.)
 */
export class ErrorPageGuard extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main id="main" className="grid min-h-[60vh] place-items-center px-4 py-20 text-center">
        <title>Error</title>
        <div className="space-y-4">
          <h1 className="text-2xl font-bold">An error occurred while showing the error page</h1>
          <p>
            {/* A plain link: the router itself may be what failed. */}
            <a href="/" className="font-semibold text-link underline">
              Go back to home
            </a>
          </p>
        </div>
      </main>
    );
  }
}
