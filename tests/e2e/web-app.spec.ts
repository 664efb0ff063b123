import { expect, test, visit } from "./fixtures";

// The site is an installable web app with a manifest (English, icons 64–512 px plus maskable), a
// service worker at /sw.js with root scope, and an offline page.
const ICON_SIZES = [64, 120, 144, 152, 192, 384, 512];

// The other specs run without the service worker (playwright.config.ts); these are about it.
test.use({ serviceWorkers: "allow" });

type WebManifest = {
  lang: string;
  display: string;
  start_url: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
};

/** The URL of the worker controlling the page, once the page has one. */
function controllerUrl(page: import("@playwright/test").Page) {
  return page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);
}

test("the manifest is in English, opens standalone and lists every icon size plus maskable ones", async ({
  request,
}) => {
  const response = await request.get("/manifest.webmanifest");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/manifest+json");
  const manifest = (await response.json()) as WebManifest;
  expect(manifest.lang).toBe("en");
  expect(manifest.display).toBe("standalone");
  expect(manifest.start_url).toBe("/");

  const sizes = manifest.icons.filter((icon) => icon.purpose !== "maskable").map((icon) => icon.sizes);
  expect(sizes).toEqual(expect.arrayContaining(ICON_SIZES.map((size) => `${size}x${size}`)));
  expect(manifest.icons.filter((icon) => icon.purpose === "maskable")).not.toHaveLength(0);

  for (const icon of manifest.icons) {
    const image = await request.get(icon.src);
    expect(image.status(), icon.src).toBe(200);
    expect(image.headers()["content-type"], icon.src).toBe("image/png");
  }
});

test("/sw.js is always revalidated and controls the site from the root", async ({ page, request }) => {
  const script = await request.get("/sw.js");
  expect(script.status()).toBe(200);
  expect(script.headers()["content-type"]).toContain("javascript");
  expect(script.headers()["cache-control"]).toBe("no-cache");

  await visit(page, "/");
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe("/");
  await page.reload();
  expect(await controllerUrl(page)).toMatch(/\/sw\.js$/);
});

test("without a connection, a page shows the offline page until the connection returns", async ({ page, context }) => {
  await visit(page, "/");
  // The worker is active once its install step has stored the offline page.
  await page.evaluate(() => navigator.serviceWorker.ready);

  await context.setOffline(true);
  await page.goto("/events");
  await expect(page.getByRole("heading", { level: 1, name: "You are offline" })).toBeVisible();
  await expect(page).toHaveURL("/events");
  const home = page.getByRole("link", { name: "Try the home page" });
  await home.click();
  await expect(page.getByRole("heading", { level: 1, name: "You are offline" })).toBeVisible();
  await expect(page).toHaveURL("/");

  await context.setOffline(false);
  await home.click();
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("You are offline");
  await expect(page.getByRole("link", { name: "Try the home page" })).toBeHidden();
});

test("a new version offers a reload, which switches the site to it", async ({ page }) => {
  const prompt = page.getByRole("status").filter({ hasText: "A new version of this site is available" });
  const reload = prompt.getByRole("button", { name: "Reload" });

  await visit(page, "/");
  await page.evaluate(() => navigator.serviceWorker.ready);
  // Playwright cannot rewrite the browser's own fetch of the worker script, so the test sets up an
  // older version instead: the same worker under another address. When the site next registers
  // /sw.js, the browser installs that as a new version.
  await page.evaluate(() => navigator.serviceWorker.register("/sw.js?version=older", { scope: "/" }));
  await expect(prompt).toBeVisible();
  await Promise.all([page.waitForEvent("load"), reload.click()]);
  await expect.poll(() => controllerUrl(page)).toContain("/sw.js?version=older");

  // The reloaded page registers /sw.js: the new version installs and waits for the visitor.
  await expect(prompt).toBeVisible();
  expect(await controllerUrl(page)).toContain("/sw.js?version=older");
  await page.evaluate(() => {
    (window as unknown as { beforeUpdate?: boolean }).beforeUpdate = true;
  });
  await Promise.all([page.waitForEvent("load"), reload.click()]);
  expect(await page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate)).toBeUndefined();
  await expect.poll(() => controllerUrl(page)).toMatch(/\/sw\.js$/);

  // Nothing newer is waiting, so the prompt stays away.
  const pending = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    await registration.update();
    return Boolean(registration.installing || registration.waiting);
  });
  expect(pending).toBe(false);
  await expect(prompt).toBeHidden();
});
