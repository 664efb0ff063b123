// Where the end-to-end tests and benchmarks find Chromium: CHROMIUM_PATH, else Debian's package.
import { existsSync } from "node:fs";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** The Chromium to launch, or undefined to let Playwright use the browser its installer fetched. */
export function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return CANDIDATES.find((candidate) => existsSync(candidate));
}
