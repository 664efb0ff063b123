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
