import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

export { expect };

type Violation = { url: string; id: string; impact: string | null | undefined; help: string; targets: string[] };

const allowedErrors = new WeakMap<Page, RegExp[]>();

/** For a test that provokes an error on purpose: console errors matching `pattern` do not fail it. */
export function allowConsoleErrors(page: Page, pattern: RegExp) {
  allowedErrors.get(page)?.push(pattern);
}

/** Opens a page and waits until React has hydrated it, so client-side behaviour is live. */
export async function visit(page: Page, url: string) {
  const response = await page.goto(url);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  return response;
}

/** A 404 or 403 page makes Chromium log the failed document load; tests that expect one allow it. */
export const FAILED_RESOURCE = /Failed to load resource: the server responded with a status of/;

/**
 * Runs axe (WCAG 2.2 A and AA) on every document the page loads and on the page as the test
 * leaves it. A page that navigates away mid-scan is scanned again at its next load.
 */
class AccessibilityWatch {
  readonly violations: Violation[] = [];
  readonly failures: string[] = [];
  private chain: Promise<void> = Promise.resolve();
  private scanned = new Set<string>();
  /** Counts the main frame's navigations, so a scan knows whether the document changed under it. */
  private navigations = 0;

  constructor(private readonly page: Page) {
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) this.navigations += 1;
    });
  }

  queue(final = false) {
    this.chain = this.chain.then(() => this.scan(final)).catch((error) => void this.failures.push(String(error)));
    return this.chain;
  }

  private async scan(final: boolean) {
    if (this.page.isClosed()) return;
    const url = this.page.url();
    if (!url.startsWith("http") || (!final && this.scanned.has(url))) return;
    const navigationsBefore = this.navigations;
    try {
      await this.page.waitForLoadState("domcontentloaded");
      // Legacy mode runs axe inside the page. Otherwise axe finishes its run in a blank page it
      // opens in the test's own browser context: for that moment the test's page is a background
      // tab, which gets no animation frames, and a click waiting for its target to be stable, or
      // a clock being installed, can hang until the test times out. The only cross-origin frame
      // the site shows is Google's map of a venue, whose inside is not ours to check.
      const results = await new AxeBuilder({ page: this.page })
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
        .setLegacyMode()
        .analyze();
      this.scanned.add(url);
      for (const violation of results.violations) {
        if (this.violations.some((known) => known.id === violation.id && known.url === url)) continue;
        this.violations.push({
          url,
          id: violation.id,
          impact: violation.impact,
          help: violation.help,
          targets: violation.nodes.map((node) => node.target.join(" ")),
        });
      }
    } catch (error) {
      // The page moved on while axe ran: its document (and axe's script in it) went away, and the
      // next load is scanned instead. The navigation event can arrive after the error, so the
      // error's own words count too. Any other failure is reported when the test ends.
      if (this.page.isClosed() || this.navigations !== navigationsBefore || NAVIGATED.test(String(error))) return;
      throw error;
    }
  }
}

/** What Playwright and axe say when the document under a scan was replaced by a navigation. */
const NAVIGATED =
  /Execution context was destroyed|Target page, context or browser has been closed|navigat|reading 'utils'|axe is not defined/i;

export const test = base.extend<{ skipAxe: boolean }>({
  skipAxe: [false, { option: true }],
  page: async ({ page, skipAxe }, use) => {
    const errors: string[] = [];
    // The browser logs every 4xx/5xx answer as an error; those are asserted by status where they
    // matter. The guard is for errors the page's own code reports.
    const allowed: RegExp[] = [FAILED_RESOURCE];
    allowedErrors.set(page, allowed);
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      const text = message.text();
      if (!allowed.some((pattern) => pattern.test(text))) errors.push(text);
    });
    page.on("pageerror", (error) => {
      if (!allowed.some((pattern) => pattern.test(error.message))) errors.push(`uncaught: ${error.message}`);
    });
    const watch = new AccessibilityWatch(page);
    if (!skipAxe) page.on("load", () => void watch.queue());

    await use(page);

    if (!skipAxe) await watch.queue(true);
    expect(errors, "console.error during the test").toEqual([]);
    expect(watch.failures, "accessibility scans that failed").toEqual([]);
    expect(watch.violations, "accessibility violations (axe)").toEqual([]);
  },
});
