import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { joinAsMember, latestMessage, newMember, saveStaffSession } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

/**
 * Buying merch, as people see it: a visitor picks a T-shirt size and colour, adds a sticker pack
 * and a day ticket, joins, enters a delivery address in the plain form (a wrong postcode first),
 * pays once in the test checkout and gets one order with the ticket and a shipping line; staff
 * mark it shipped with a tracking number, and the buyer's mailbox has the tracking email with
 * the link. A variant with no stock cannot be added. Each step needs the one before.
 */
test.describe.configure({ mode: "serial", timeout: 90_000 });

const festival = "/events/silverstone-festival-of-speed";
const member = newMember("merch");
const sessionFile = (who: "buyer" | "admin") => path.resolve(`test-results/e2e/shop-journey-${who}.json`);
const journey = { orderId: "", number: "" };

async function addMerch(page: Page, slug: string, options: Record<string, string>, added: string) {
  await visit(page, `/shop/${slug}`);
  for (const [group, option] of Object.entries(options)) {
    await page.getByRole("group", { name: group }).getByText(option, { exact: true }).click();
  }
  await page.getByLabel("Quantity").fill("1");
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Added 1 × ${added} to your cart.` })).toBeVisible();
}

test.beforeAll(async ({ browser }) => {
  mkdirSync(path.dirname(sessionFile("admin")), { recursive: true });
  await saveStaffSession(browser, "admin", sessionFile("admin"));
});

test("a visitor fills a cart with a tee, stickers and a ticket, joins, and pays once with delivery", async ({
  page,
}) => {
  // A long journey: a cart of three kinds, a sign-up, delivery and payment.
  test.setTimeout(90_000);
  await addMerch(page, "club-tee", { Size: "L", Colour: "Black" }, "Pitlane club T-shirt — L / Black");
  await addMerch(page, "sticker-pack", {}, "Sticker pack");
  await visit(page, festival);
  const saturday = page
    .getByRole("region", { name: "Tickets" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Saturday day ticket", exact: true }) });
  await saturday.getByLabel("Quantity").selectOption("1");
  await saturday.getByRole("button", { name: "Add to cart: Saturday day ticket" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Added 1 × Saturday day ticket to your cart." }),
  ).toBeVisible();

  // A visitor sees the merch and the delivery fee, and signs in to pay.
  await visit(page, "/cart");
  const main = page.getByRole("main");
  await expect(main.getByRole("listitem", { name: "Pitlane club T-shirt, Size: L · Colour: Black" })).toBeVisible();
  await expect(main.getByRole("listitem", { name: "Sticker pack" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in to pay" }).first()).toBeVisible();

  // Joining brings the visitor's cart along.
  await joinAsMember(page, member);
  await visit(page, "/cart");
  await expect(main.getByRole("listitem", { name: "Pitlane club T-shirt, Size: L · Colour: Black" })).toBeVisible();
  await expect(main.getByRole("listitem", { name: "Sticker pack" })).toBeVisible();
  const summary = page.getByRole("region", { name: "Order summary" });
  // £22 tee + £5 stickers + £24 ticket; delivery £4.95 (merch under £50).
  await expect(summary).toContainText("Delivery");
  await expect(summary).toContainText("£4.95");
  await expect(summary.getByRole("button", { name: /^Pay £55\.95/ })).toBeVisible();

  // Collection at the festival is offered (its ticket is in the cart), and free.
  const delivery = page.getByRole("region", { name: "Delivery" });
  await delivery.getByRole("radio", { name: /Collect at an event/ }).check();
  await expect(summary.getByRole("button", { name: /^Pay £51\.00/ })).toBeVisible();
  await delivery.getByRole("radio", { name: /Delivery by post/ }).check();

  // A wrong postcode comes back with its message and what was typed.
  await delivery.getByLabel("Full name").fill(member.name);
  await delivery.getByLabel("Address line 1").fill("1 Paddock Lane");
  await delivery.getByLabel("Town or city").fill("Silverstone");
  await delivery.getByLabel("Postcode").fill("NN12");
  await summary.getByRole("button", { name: /^Pay £55\.95/ }).click();
  await expect(delivery.getByText("Enter a valid Postcode, like")).toBeVisible();
  await expect(delivery.getByLabel("Address line 1")).toHaveValue("1 Paddock Lane");
  await expect(delivery.getByLabel("Postcode")).toHaveAttribute("aria-invalid", "true");

  await delivery.getByLabel("Postcode").fill("nn12 8tn");
  await page
    .getByRole("region", { name: "Order summary" })
    .getByRole("button", { name: /^Pay £55\.95/ })
    .click();
  await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
  journey.orderId = page.url().split("/").pop()!;
  journey.number = (await page.getByRole("heading", { level: 1, name: /^PL-\d{6}$/ }).textContent())!.trim();
  const lines = page.getByRole("table", { name: "What you are paying for" });
  await expect(lines).toContainText("Pitlane club T-shirt — L / Black");
  await expect(lines).toContainText("Sticker pack");
  await expect(lines).toContainText("Delivery");
  await page.getByRole("button", { name: /^Pay £55\.95/ }).click();

  await expect(page).toHaveURL(`/success?order=${journey.orderId}`);
  const items = page.getByRole("table", { name: `Items in order ${journey.number}` });
  await expect(items).toContainText("Pitlane club T-shirt — L / Black");
  await expect(items).toContainText("Sticker pack");
  await expect(items).toContainText("Shipping");
  await expect(items).toContainText("£4.95");
  await expect(items).toContainText("£55.95");
  await expect(page.getByText("NN12 8TN")).toBeVisible();
  await expect(page.getByRole("img", { name: /^QR code for ticket / })).toHaveCount(1);
  // Paid: the cart is empty again.
  await visit(page, "/cart");
  await expect(page.getByText("Your cart is empty")).toBeVisible();
  await page.context().storageState({ path: sessionFile("buyer") });
});

test.describe("staff", () => {
  test.use({ storageState: sessionFile("admin") });

  test("mark the order shipped with a tracking number, and the buyer gets the tracking link", async ({ page }) => {
    await visit(page, `/admin/fulfilment?q=${journey.number}`);
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: journey.number }) });
    await expect(card).toContainText("Pitlane club T-shirt");
    await card.getByLabel("Carrier", { exact: true }).selectOption({ label: "Royal Mail" });
    await card.getByLabel("Tracking number").fill("AB123456789GB");
    await card.getByRole("button", { name: "Mark shipped" }).click();
    await expect(page.getByRole("status").first()).toBeVisible();

    const email = await latestMessage(page.request, member.email, /is on its way/);
    expect(email.subject).toBe(`Your order ${journey.number} is on its way`);
    expect(email.text).toContain("AB123456789GB");
    expect(email.text).toContain("https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB");
  });
});

test("a variant with no stock cannot be added", async ({ page }) => {
  // The white tee has no XXL left: once XXL is picked, white cannot be chosen.
  await visit(page, "/shop/club-tee");
  await page.getByRole("group", { name: "Size" }).getByText("XXL", { exact: true }).click();
  await expect(page.getByRole("group", { name: "Colour" }).getByRole("radio", { name: /White/ })).toBeDisabled();
  await visit(page, "/shop/track-day-hoodie-sold-out");
  await expect(page.getByRole("button", { name: "Sold out" })).toBeDisabled();
});
