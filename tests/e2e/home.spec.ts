import { devices } from "@playwright/test";
import { expect, test, visit } from "./fixtures";

test("the home page shows the demo's events, competitions, articles, cars and partners", async ({ page }) => {
  await visit(page, "/");
  for (const name of ["Discover events", "Live competitions", "Latest articles", "Members' cars", "Our partners"]) {
    await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
  }
  const competitions = page.getByRole("region", { name: "Live competitions" });
  await expect(competitions.getByRole("progressbar").first()).toBeVisible();
  await expect(competitions.getByText(/^Closes in/).first()).toBeVisible();
  expect(await competitions.getByRole("listitem").count()).toBeLessThanOrEqual(3);
  expect(await page.getByRole("region", { name: "Latest articles" }).getByRole("article").count()).toBeLessThanOrEqual(
    3,
  );

  // Partner logos link out, marked as sponsored, in the same tab, named by the partner.
  const partner = page.getByRole("region", { name: "Our partners" }).getByRole("link", { name: "Apex Tyres" });
  await expect(partner).toHaveAttribute("href", "https://apex-tyres.example.com/");
  await expect(partner).toHaveAttribute("rel", "noopener sponsored");
  expect(await partner.getAttribute("target")).toBeNull();

  // Moving in the site and back: the sections below the events come back with the page.
  await page.getByRole("link", { name: "All competitions" }).click();
  await expect(page.getByRole("heading", { name: "Competitions and giveaways" })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Our partners" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Live competitions" })).toBeVisible();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, userAgent: devices["iPhone 13"].userAgent });

  test("offers the app once, and remembers when it is dismissed", async ({ page }) => {
    await visit(page, "/");
    const banner = page.getByRole("complementary", { name: "Install the app" });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText("Add to Home Screen");
    await banner.getByRole("button", { name: "Dismiss" }).click();
    await expect(banner).toBeHidden();
    await page.reload();
    await expect(page.getByRole("heading", { name: "Latest articles" })).toBeVisible();
    await expect(banner).toBeHidden();
  });
});

test.describe("on a computer", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("never shows the install prompt", async ({ page }) => {
    await visit(page, "/");
    await expect(page.getByRole("heading", { name: "Our partners" })).toBeVisible();
    await expect(page.getByRole("complementary", { name: "Install the app" })).toHaveCount(0);
  });
});
