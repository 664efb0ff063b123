import { expect, test, visit } from "./fixtures";

// The demo draws the e2e server seeds: one live competition, one closing soon, a free giveaway,
// and one sold out and drawn through the same functions as a real draw.

test("a visitor sees live draws ending soonest first, then the drawn one with its winner", async ({ page }) => {
  await visit(page, "/giveaways");
  await expect(page.getByRole("heading", { level: 1, name: "Competitions and giveaways" })).toBeVisible();
  const open = page.getByRole("region", { name: "Open now" });
  const demo = [
    "Track day for two at Brands Hatch",
    "Win a 1989 Mk2 Golf GTI 16v",
    "Free giveaway: a pro detailing kit",
  ];
  // Other specs publish draws of their own meanwhile: the demo ones keep their order among them.
  const titles = await open.getByRole("heading", { level: 3 }).allTextContents();
  expect(titles.filter((title) => demo.includes(title))).toEqual(demo);
  await expect(open.getByRole("progressbar", { name: /Track day for two.*entries sold/ })).toHaveAttribute(
    "aria-valuenow",
    "87",
  );
  // Other specs draw their own meanwhile: look at the demo's drawn one.
  const drawn = page
    .getByRole("region", { name: "Closed and drawn" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { level: 3, name: "Forged wheel set, fitted" }) });
  await expect(drawn.getByText(/Won by \w+ \w\.( \w+)? \(entry \d+\)/)).toBeVisible();
});

test("a draw's page shows the prize, odds, bundles and the free postal route; a visitor is asked to sign in", async ({
  page,
}) => {
  await visit(page, "/giveaways/win-a-mk2-golf-gti");
  await expect(page.getByRole("heading", { level: 1, name: "Win a 1989 Mk2 Golf GTI 16v" })).toBeVisible();
  await expect(page.getByText("1 in 6,000")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Enter free by post" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in to enter" })).toHaveAttribute(
    "href",
    "/login?redirectTo=%2Fgiveaways%2Fwin-a-mk2-golf-gti",
  );
  // The answer is never on the page before the draw closes.
  await expect(page.getByText("The answer was")).toHaveCount(0);
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
  expect(jsonLd).toMatchObject({ "@type": "Product", offers: { price: "2.49", priceCurrency: "GBP" } });
});

test("the verify page of a drawn draw recomputes the same winner in the browser", async ({ page }) => {
  await visit(page, "/giveaways/forged-wheel-set");
  const result = page.getByRole("region", { name: "Result" });
  const winning = (await result.getByText(/Winning entry/).textContent()) ?? "";
  const winner = /Winning entry (\d+)/.exec(winning)?.[1];
  expect(winner).toBeTruthy();
  await result.getByRole("link", { name: "Check the draw yourself" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /Check the draw/ })).toBeVisible();
  await expect(page.getByTestId("recomputed")).toHaveText(`Your browser drew entry ${winner}. The draw checks out.`);
});
