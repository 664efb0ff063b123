// A page-script chunk that fails to load (or takes over 120 s) reloads the page fully, at most
// once per 60 seconds, so a visitor on an old build recovers without looping (ADR 0003).
const CHUNK_RELOAD_INTERVAL_MS = 60_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
const STORAGE_KEY = "pitlane:chunk-reload-at";

export class ChunkLoadError extends Error {
  constructor() {
    super("This page could not be loaded. Check your connection, then reload the page.");
    this.name = "ChunkLoadError";
  }
}

function lastReload(): number {
  try {
    return Number(sessionStorage.getItem(STORAGE_KEY)) || 0;
  } catch {
    return 0;
  }
}

/** Reloads once (or loads `go`'s page); returns false when that already happened in the last 60 s. */
export function reloadAfterChunkFailure(go: () => void = () => window.location.reload(), now = Date.now()): boolean {
  if (now - lastReload() < CHUNK_RELOAD_INTERVAL_MS) return false;
  try {
    sessionStorage.setItem(STORAGE_KEY, String(now));
  } catch {
    // Private modes may refuse storage; reloading once is still right.
  }
  go();
  return true;
}

const FAILURE_EVENT = "pitlane:chunk-failure";
let failedPath: string | null = null;

/** The path whose page script failed inside the 60 s window, while the visitor is still on it. */
export function subscribeChunkFailure(listener: () => void) {
  window.addEventListener(FAILURE_EVENT, listener);
  return () => window.removeEventListener(FAILURE_EVENT, listener);
}

export function chunkFailurePath() {
  return failedPath;
}

function reportChunkFailure(path: string) {
  failedPath = path;
  window.dispatchEvent(new Event(FAILURE_EVENT));
}

/**
 * React Router reloads the page itself whenever a route module fails to import, with no
 * limit, after logging "Error loading route module". We watch for that log line: inside the
 * 60 s window we throw, which stops that reload and shows the error page instead of a loop.
 */
export function installChunkReloadGuard() {
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    original(...args);
    if (typeof args[0] === "string" && args[0].startsWith("Error loading route module")) {
      if (Date.now() - lastReload() < CHUNK_RELOAD_INTERVAL_MS) {
        // The router renders nothing for a route whose module failed: the shell shows why.
        reportChunkFailure(pendingPath());
        throw new ChunkLoadError();
      }
      sessionStorage.setItem(STORAGE_KEY, String(Date.now()));
    }
  };
  document.addEventListener("click", rememberClickedLink, true);
  // Chunks Vite loads for a module (its CSS and shared dependencies).
  window.addEventListener("vite:preloadError", (event) => {
    event.preventDefault();
    if (!reloadAfterChunkFailure()) {
      reportChunkFailure(pendingPath());
      throw new ChunkLoadError();
    }
  });
}

/** Where the failing navigation was going: the router has not committed it when modules load. */
let navigationTarget: string | null = null;
export function setPendingNavigation(path: string | null) {
  navigationTarget = path;
}

/**
 * The link last clicked, for a failure that comes before the router has told the watchdog where
 * it is going (a module that fails at once, on a busy device): a click within 10 s names the page.
 */
let clicked: { path: string; at: number } | null = null;
const CLICK_WINDOW_MS = 10_000;

function rememberClickedLink(event: MouseEvent) {
  const anchor = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (anchor instanceof HTMLAnchorElement && anchor.origin === window.location.origin) {
    clicked = { path: anchor.pathname, at: Date.now() };
  }
}

function pendingPath() {
  const recentClick = clicked && Date.now() - clicked.at < CLICK_WINDOW_MS ? clicked.path : null;
  return navigationTarget ?? recentClick ?? window.location.pathname;
}
