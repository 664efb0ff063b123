import path from "node:path";
import sharp from "sharp";
import { saveStaffSession } from "./accounts-helpers";
import { allowConsoleErrors, expect, FAILED_RESOURCE, test, visit } from "./fixtures";

// The shop editor, driven as an organizer would: one sign-in per worker, shared through the
// saved session.
const sessionFile = path.resolve("test-results/e2e/admin-shop-organizer.json");
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

test.beforeAll(async ({ browser }) => {
  await saveStaffSession(browser, "organizer", sessionFile);
});

/** A 4:5 product photo drawn here, as a JPEG. */
async function productPhoto() {
  const art = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1000">
    <rect width="800" height="1000" fill="#e5e7eb"/><circle cx="400" cy="500" r="260" fill="#ff7a1a"/>
  </svg>`;
  return sharp(Buffer.from(art)).jpeg({ quality: 80 }).toBuffer();
}

test.describe("as an organizer", () => {
  test.use({ storageState: sessionFile });

  test("creates a product with a variant and a photo, adds stock with a reason, and puts it on sale", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const title = `Paddock umbrella ${unique()}`;
    await visit(page, "/admin/shop");
    await page.getByRole("link", { name: "New product" }).click();
    await expect(page.getByRole("heading", { name: "New product" })).toBeVisible();

    // Nothing typed: the server says what is missing, beside the field.
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByText("Enter a title")).toBeVisible();

    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Category").selectOption("accessories");
    await page.getByLabel("Summary").fill("Golf umbrella in club colours.");
    await page.getByLabel("Description").fill("A **big** umbrella for wet paddocks.");
    await page.getByLabel("Options").fill("Colour");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Product saved as a draft." })).toBeVisible();
    await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
    const editor = page.url();

    // It cannot go on sale without a variant.
    await page.getByLabel("Status").selectOption("active");
    await page.getByRole("button", { name: "Save product" }).click();
    await expect(page.getByText("Add a variant on sale before putting the product on sale")).toBeVisible();

    const sku = `UMB-${unique()}`.toUpperCase();
    const add = page.getByRole("region", { name: "Add a variant" });
    await add.getByLabel("Colour").fill("Orange");
    await add.getByLabel("SKU").fill(sku);
    await add.getByLabel("Price").fill("24.50");
    await add.getByRole("button", { name: "Add variant" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Variant added." })).toBeVisible();

    const variant = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /Orange/ }) });
    await expect(variant.getByText("0 on the shelf")).toBeVisible();
    // Taking away more than there is is refused; stock never goes below zero.
    await variant.getByLabel("Amount").fill("-1");
    await variant.getByLabel("Reason").fill("Count");
    await variant.getByRole("button", { name: "Adjust stock" }).click();
    await expect(page.getByText("Only 0 on the shelf: you can take away at most 0")).toBeVisible();

    await variant.getByLabel("Amount").fill("12");
    await variant.getByLabel("Reason").fill("First delivery from the printer");
    await variant.getByRole("button", { name: "Adjust stock" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Stock is now 12 (+12)." })).toBeVisible();
    await expect(variant.getByText("12 on the shelf")).toBeVisible();
    await variant.getByText("Stock history (1)").click();
    await expect(variant.getByRole("cell", { name: "First delivery from the printer" })).toBeVisible();

    await page.getByRole("navigation", { name: "Product" }).getByRole("link", { name: "Photos" }).click();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.getByLabel("Photo", { exact: true }).setInputFiles({
      name: "umbrella.jpg",
      mimeType: "image/jpeg",
      buffer: await productPhoto(),
    });
    await page.getByLabel("Description (alt text)").fill("An orange umbrella, open");
    await page.getByRole("button", { name: "Upload photo" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Photo added." })).toBeVisible();
    await expect(page.getByRole("img", { name: "An orange umbrella, open" })).toBeVisible();

    await visit(page, editor);
    await page.getByLabel("Status").selectOption("active");
    await page.getByRole("button", { name: "Save product" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Product saved." })).toBeVisible();

    // The public page, seen by a visitor.
    const visitor = await page.context().browser()!.newContext({ serviceWorkers: "block" });
    const publicPage = await visitor.newPage();
    await publicPage.goto(`${new URL(page.url()).origin}/shop?category=accessories`);
    await publicPage.getByRole("link", { name: title }).click();
    await expect(publicPage.getByRole("heading", { name: title, level: 1 })).toBeVisible();
    await expect(publicPage.getByText("£24.50").first()).toBeVisible();
    await expect(publicPage.getByRole("img", { name: "An orange umbrella, open" }).first()).toBeVisible();
    await visitor.close();
  });

  test("changes the delivery settings, with messages for what is wrong", async ({ page }) => {
    await visit(page, "/admin/shop/settings");
    await page.getByLabel("Countries delivered to").fill("GB, Ireland");
    await page.getByLabel(/Delivery fee/).fill("abc");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Use two-letter country codes such as GB, IE (not IRELAND)")).toBeVisible();
    await expect(page.getByText("Enter an amount like 12.50")).toBeVisible();
    await expect(page.getByLabel("Countries delivered to")).toHaveValue("GB, Ireland");

    await page.getByLabel("Countries delivered to").fill("GB, IE");
    await page.getByLabel(/Delivery fee/).fill("4.95");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Shop settings saved." })).toBeVisible();
    await expect(page.getByLabel("Countries delivered to")).toHaveValue("GB, IE");
  });

  test("previews a draft product the public cannot see", async ({ page }) => {
    await visit(page, "/shop/rally-jacket");
    await expect(page.getByText("Preview: this product is draft and only staff can see it.")).toBeVisible();
  });
});

test("a member cannot open the shop editor", async ({ page }) => {
  allowConsoleErrors(page, FAILED_RESOURCE);
  await visit(page, "/login?redirectTo=/admin/shop");
  await page.getByLabel("Email").fill("member@pitlane.test");
  await page.getByLabel("Password", { exact: true }).fill("pitlane-member-demo");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("You do not have access to this page")).toBeVisible();
});
