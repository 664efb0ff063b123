import { expect, test, visit } from "./fixtures";

// A browser's first Intl number or date format loads locale data: tens of milliseconds of main
// thread on a desktop, far more on a phone. Public pages carry what their formatting answered on
// the server, so hydrating them formats nothing again (app/ui/intl-memo.ts).

const PAGES = [
  "/",
  "/events",
  "/events/silverstone-festival-of-speed",
  "/giveaways",
  "/giveaways/win-a-mk2-golf-gti",
  "/shop",
  "/shop/club-tee",
  "/blog",
  "/blog/night-meet-at-the-old-airfield",
  "/privacy",
];

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const calls: string[] = [];
    Object.assign(window, { intlCalls: calls });
    for (const name of ["NumberFormat", "DateTimeFormat"] as const) {
      const Original = Intl[name];
      const Counted = function (this: unknown, ...args: unknown[]) {
        calls.push(name);
        return new (Original as unknown as new (...a: unknown[]) => object)(...args);
      };
      Object.defineProperty(Intl, name, { value: Counted, configurable: true, writable: true });
    }
    for (const [type, method] of [
      [Date, "toLocaleDateString"],
      [Date, "toLocaleTimeString"],
      [Date, "toLocaleString"],
      [Number, "toLocaleString"],
    ] as const) {
      const prototype = type.prototype as unknown as Record<string, (...args: unknown[]) => string>;
      const original = prototype[method]!;
      prototype[method] = function (this: unknown, ...args: unknown[]) {
        calls.push(`${type.name}.${method}`);
        return original.apply(this, args);
      };
    }
  });
});

for (const path of PAGES) {
  test(`${path} hydrates without formatting a price, count or date again`, async ({ page }) => {
    // Twice: the server keeps some answers between requests, and the second page must carry
    // them as well as the first.
    for (const load of ["first load", "second load"]) {
      await visit(page, path);
      // Sections loaded after the page (the home page's lower half) hydrate a moment later.
      await page.waitForLoadState("networkidle");
      const calls = await page.evaluate(() => (window as unknown as { intlCalls: string[] }).intlCalls);
      expect(calls, load).toEqual([]);
    }
  });
}

test("a page reached by a link formats in the browser, and shows the same text", async ({ page }) => {
  await visit(page, "/privacy");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Shop", exact: true }).click();
  await expect(page).toHaveURL(/\/shop$/);
  await expect(page.getByText(/£\d+/).first()).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { intlCalls: string[] }).intlCalls.length)).toBeGreaterThan(0);
});

// A page's scripts wait until its cover is in and painted, so on a slow line the picture does
// not share the connection with the code that only hydrates it (ADR 0029).
test.describe("scripts after the first paint", () => {
  for (const path of ["/", "/events/silverstone-festival-of-speed"]) {
    test(`${path} loads its cover before its code, then comes alive`, async ({ page }) => {
      await visit(page, path);
      const timing = await page.evaluate(() => {
        const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
        const cover = resources.find((entry) => entry.name.includes("/media/events/"));
        const framework = resources.find((entry) => /\/assets\/framework-[\w-]+\.js$/.test(entry.name));
        return {
          load: navigation.loadEventStart,
          coverEnd: cover?.responseEnd ?? null,
          frameworkStart: framework?.startTime ?? null,
        };
      });
      expect(timing.coverEnd).not.toBeNull();
      expect(timing.frameworkStart).not.toBeNull();
      expect(timing.frameworkStart).toBeGreaterThanOrEqual(timing.load);
      expect(timing.frameworkStart).toBeGreaterThan(timing.coverEnd ?? Number.POSITIVE_INFINITY);
      // Alive: a client-side navigation keeps the document.
      await page.evaluate(() => Object.assign(window, { sameDocument: true }));
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Shop", exact: true }).click();
      await expect(page).toHaveURL(/\/shop$/);
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    });
  }

  test("a page whose cover never arrives still comes alive", async ({ page }) => {
    await page.route("**/media/events/**", () => {
      // Never answered: the page's load event never comes.
    });
    await page.goto("/events/silverstone-festival-of-speed", { waitUntil: "domcontentloaded" });
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.keyboard.press("Shift");
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  });
});
