import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { chromiumPath } from "./scripts/chromium-path.mjs";

// A port per checkout, so test runs in two checkouts on one machine never share a server.
const port = Number(process.env.E2E_PORT ?? 4173 + (hashOf(process.cwd()) % 800));

function hashOf(text: string) {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash;
}
const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? "test-results/e2e-data");

/**
 * End-to-end tests run against the built production server on its own port and DATA_DIR (a fresh
 * embedded database each run), in Debian's Chromium.
 */
export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  // A test that passes only on a second try proves nothing: no retries, and on CI a run that
  // finds a flaky test (a retry asked for on the command line) fails.
  retries: 0,
  failOnFlakyTests: Boolean(process.env.CI),
  forbidOnly: Boolean(process.env.CI),
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]] : "list",
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    // Each test's fresh context would install the service worker and precache the build while
    // the test runs, and requests the worker answers never reach page.route. The web-app spec
    // turns it back on.
    serviceWorkers: "block",
    // The site's own reduced-motion styles make every transition instant, so the accessibility
    // scans judge colours at rest, never halfway through a hover or a checked option's fade.
    reducedMotion: "reduce",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `http://localhost:${port}/readyz`,
    // Only a ceiling: the tests start as soon as /readyz answers. Seeding the fresh database took
    // 151 s on a two-core machine busy with other test runs, past the two minutes this used to be.
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      SITE_URL: `http://localhost:${port}`,
      ENABLE_TEST_FIXTURES: "1",
      // shell.spec.ts reads /metrics with it.
      METRICS_TOKEN: "e2e-metrics-token",
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
    },
  },
});
