import { expect, test, visit } from "./fixtures";

// The demo shop: the club tee in five sizes and two colours (XXL White is sold out), the
// sticker pack with one variant, and last season's hoodie sold out in every size.

test("a visitor browses the shop, filters a category, picks a size and colour and adds the tee to the cart", async ({
  page,
}) => {
  await visit(page, "/shop");
  await expect(page.getByRole("heading", { name: "Shop", level: 1 })).toBeVisible();
  const grid = page.getByRole("main");
  await expect(grid.getByRole("link", { name: "Pitlane club T-shirt" })).toBeVisible();
  await expect(grid.getByRole("link", { name: "Sticker pack" })).toBeVisible();
  const soldOut = grid.getByRole("article").filter({ has: page.getByRole("link", { name: "Track day hoodie" }) });
  await expect(soldOut.getByText("Sold out")).toBeVisible();

  await page
    .getByRole("navigation", { name: "Categories" })
    .getByRole("link", { name: /Stickers/ })
    .click();
  await expect(page).toHaveURL("/shop?category=stickers");
  await expect(page.getByRole("heading", { name: /products? in stickers/ })).toBeVisible();
  await expect(grid.getByRole("link", { name: "Sticker pack" })).toBeVisible();
  await expect(grid.getByRole("link", { name: "Pitlane club T-shirt" })).toHaveCount(0);

  await visit(page, "/shop?category=apparel");
  await grid.getByRole("link", { name: "Pitlane club T-shirt" }).click();
  await expect(page).toHaveURL("/shop/club-tee");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByRole("heading", { name: "Pitlane club T-shirt", level: 1 })).toBeVisible();

  // XXL comes only in black: once it is picked, White is sold out and cannot be chosen.
  const size = page.getByRole("group", { name: "Size" });
  const colour = page.getByRole("group", { name: "Colour" });
  await size.getByText("XXL", { exact: true }).click();
  await expect(colour.getByRole("radio", { name: /White/ })).toBeDisabled();
  await expect(colour.getByText("Sold out")).toBeVisible();

  await size.getByText("M", { exact: true }).click();
  await colour.getByText("Black", { exact: true }).click();
  await expect(page.getByText("M / Black: £22.00")).toBeVisible();
  await page.getByLabel("Quantity").fill("2");
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Added 2 × Pitlane club T-shirt — M / Black to your cart." }),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: /^Cart\s?2$/ })).toBeVisible();

  await page.getByRole("status").getByRole("link", { name: "View cart" }).click();
  await expect(page).toHaveURL("/cart");
  const line = page.getByRole("listitem", { name: "Pitlane club T-shirt, Size: M · Colour: Black" });
  await expect(line).toBeVisible();
  await expect(line.getByLabel("Quantity")).toHaveValue("2");
});

test("a sold-out option is disabled, and a forced post of it gets the message, not an error", async ({ page }) => {
  await visit(page, "/shop/track-day-hoodie-sold-out");
  for (const size of ["S", "M", "L", "XL", "XXL"]) {
    await expect(
      page.getByRole("group", { name: "Size" }).getByRole("radio", { name: new RegExp(`^${size}\\b`) }),
    ).toBeDisabled();
  }
  await expect(page.getByRole("button", { name: "Sold out" })).toBeDisabled();

  // The same form sent by hand: the server says why, on the page, with a 400.
  const origin = new URL(page.url()).origin;
  const forced = await page.request.post("/shop/track-day-hoodie-sold-out", {
    form: { "option-0": "M", quantity: "1" },
    headers: { Origin: origin },
  });
  expect(forced.status()).toBe(400);
  expect(await forced.text()).toContain("Track day hoodie (2025 edition) (M) is sold out");

  const white = await page.request.post("/shop/club-tee", {
    form: { "option-0": "XXL", "option-1": "White", quantity: "1" },
    headers: { Origin: origin },
  });
  expect(white.status()).toBe(400);
  expect(await white.text()).toContain("Pitlane club T-shirt (XXL / White) is sold out");

  const unchosen = await page.request.post("/shop/club-tee", {
    form: { "option-0": "M", quantity: "1" },
    headers: { Origin: origin },
  });
  expect(unchosen.status()).toBe(400);
  expect(await unchosen.text()).toContain("Choose a colour");
});

test("the sticker pack has no options; too many is refused with a message and what was typed", async ({ page }) => {
  await visit(page, "/shop/sticker-pack");
  await expect(page.getByRole("radio")).toHaveCount(0);
  await page.getByLabel("Quantity").fill("3");
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added 3 × Sticker pack to your cart." })).toBeVisible();

  // The browser stops a number over the limit; sent without that check, the server says why.
  await page.getByLabel("Quantity").evaluate((input) => input.removeAttribute("max"));
  await page.getByLabel("Quantity").fill("18");
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(
    page
      .getByRole("alert")
      .filter({ hasText: "You can buy at most 20 of Sticker pack in one order; your cart already has 3" }),
  ).toBeVisible();
  await expect(page.getByLabel("Quantity")).toHaveValue("18");
});

test("a draft product is not found by the public", async ({ page }) => {
  const response = await page.goto("/shop/rally-jacket");
  expect(response?.status()).toBe(404);
});

test.describe("without JavaScript", () => {
  // axe runs as a page script, so these pages are checked in the tests with JavaScript.
  test.use({ javaScriptEnabled: false, skipAxe: true });

  test("a visitor filters the shop and adds a hoodie with plain forms", async ({ page }) => {
    await page.goto("/shop");
    await page
      .getByRole("navigation", { name: "Categories" })
      .getByRole("link", { name: /Apparel/ })
      .click();
    await expect(page).toHaveURL("/shop?category=apparel");
    await page.getByRole("link", { name: "Paddock hoodie" }).click();
    await expect(page.getByRole("group", { name: "Size" }).getByText("Only 2 left")).toBeVisible();
    await page.getByRole("group", { name: "Size" }).getByText("L", { exact: true }).click();
    await page.getByRole("button", { name: "Add to cart" }).click();
    await expect(page).toHaveURL("/shop/paddock-hoodie");
    await expect(page.getByText("Added 1 × Paddock hoodie — L to your cart.")).toBeVisible();
    await page.goto("/cart");
    await expect(page.getByRole("listitem", { name: "Paddock hoodie, Size: L" })).toBeVisible();
  });
});
