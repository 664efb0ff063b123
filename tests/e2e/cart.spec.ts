import type { Page } from "@playwright/test";
import { joinAsMember, newMember, signUpAndVerify } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

// The demo content's multi-day headline event and its ticket types.
const festival = "/events/silverstone-festival-of-speed";
const festivalTitle = "Silverstone Festival of Speed";

function ticketRow(page: Page, name: string) {
  return page
    .getByRole("region", { name: "Tickets" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name, exact: true }) });
}

async function addToCart(page: Page, name: string, quantity: number) {
  const row = ticketRow(page, name);
  await row.getByLabel("Quantity").selectOption(String(quantity));
  await row.getByRole("button", { name: `Add to cart: ${name}` }).click();
}

function cartLine(page: Page, name: string) {
  return page.getByRole("main").getByRole("listitem", { name: `${festivalTitle}, ${name}` });
}

test("a visitor adds a weekend pass, sees it in the cart, changes the quantity and removes it", async ({ page }) => {
  await visit(page, "/cart");
  await expect(page.getByText("Your cart is empty — find an event")).toBeVisible();
  await expect(page.getByRole("link", { name: "find an event" })).toHaveAttribute("href", "/events");

  await visit(page, festival);
  await addToCart(page, "Weekend pass", 2);
  await expect(page.getByRole("status").filter({ hasText: "Added 2 × Weekend pass to your cart." })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Cart\s?2$/ })).toBeVisible();

  await page.getByRole("status").getByRole("link", { name: "View cart" }).click();
  await expect(page).toHaveURL("/cart");
  const line = cartLine(page, "Weekend pass");
  await expect(line).toBeVisible();
  await expect(page.getByRole("region", { name: "Multi-day passes" })).toBeVisible();
  await expect(line.getByLabel("Attendee 2 name")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in to pay" })).toHaveAttribute("href", "/login?redirectTo=/cart");

  await line.getByLabel("Quantity").selectOption("3");
  await line.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your cart has been updated." })).toBeVisible();
  await expect(line.getByLabel("Attendee 3 name")).toBeVisible();
  await expect(page.getByRole("link", { name: /^Cart\s?3$/ })).toBeVisible();

  await line.getByRole("button", { name: `Remove Weekend pass for ${festivalTitle}` }).click();
  await expect(page.getByText("Your cart is empty — find an event")).toBeVisible();
  await expect(page.getByRole("link", { name: "Cart", exact: true })).toBeVisible();
});

test("more than the per-order maximum, or tampered values, get a clear message by the ticket type", async ({
  page,
}) => {
  await visit(page, festival);
  await addToCart(page, "Weekend pass", 6);
  await expect(page.getByRole("status").filter({ hasText: "Added 6 × Weekend pass" })).toBeVisible();
  await addToCart(page, "Weekend pass", 1);
  const row = ticketRow(page, "Weekend pass");
  await expect(row.getByRole("alert")).toHaveText(
    "You can buy up to 6 Weekend pass tickets in one order; your cart already has 6",
  );

  // Values no form offers are refused with a message, never an error page.
  const origin = { origin: new URL(page.url()).origin };
  for (const ticketTypeId of ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
    const response = await page.request.post(festival, { form: { ticketTypeId, quantity: "1" }, headers: origin });
    expect(response.status()).toBe(200);
    expect(await response.text()).toMatch(/These tickets (could not be found|are not sold on this page)/);
  }
  const id = await row.getByRole("button", { name: /^Add to cart/ }).getAttribute("value");
  for (const quantity of ["0", "-1", "999999", "two"]) {
    const response = await page.request.post(festival, {
      form: { ticketTypeId: id!, quantity },
      headers: origin,
      maxRedirects: 0,
    });
    expect(response.status(), quantity).toBe(400);
    expect(await response.text()).toMatch(/Choose (at least 1 ticket|fewer tickets|how many tickets you want)/);
  }
});

test.describe("without JavaScript", () => {
  // axe runs as a page script, so these pages are checked in the tests with JavaScript.
  test.use({ javaScriptEnabled: false, skipAxe: true });

  test("a visitor adds tickets and changes the quantity with plain forms", async ({ page }) => {
    await page.goto(festival);
    await addToCart(page, "Weekend pass", 1);
    await expect(page).toHaveURL(`${festival}#tickets`);
    await expect(page.getByText("Added 1 × Weekend pass to your cart.")).toBeVisible();
    await page.goto("/cart");
    const line = cartLine(page, "Weekend pass");
    await line.getByLabel("Quantity").selectOption("2");
    await line.getByLabel("Attendee 1 name").fill("Ada Lovelace");
    await line.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL("/cart");
    await expect(line.getByLabel("Attendee 2 name")).toBeVisible();
    await expect(line.getByLabel("Attendee 1 name")).toHaveValue("Ada Lovelace");
    await line.getByRole("button", { name: /^Remove/ }).click();
    await expect(page.getByText("Your cart is empty — find an event")).toBeVisible();
  });
});

test("a visitor's cart joins their account's when they sign in", async ({ page }) => {
  await visit(page, festival);
  await addToCart(page, "Sunday day ticket", 2);
  await expect(page.getByRole("status").filter({ hasText: "Added 2 × Sunday day ticket" })).toBeVisible();
  // Joining through the sign-up form: its confirmation link is the first signed-in request.
  await signUpAndVerify(page, newMember("cart-merge"));
  await visit(page, "/cart");
  await expect(cartLine(page, "Sunday day ticket")).toBeVisible();
  await expect(cartLine(page, "Sunday day ticket").getByLabel("Quantity")).toHaveValue("2");
  const cookies = await page.context().cookies();
  expect(cookies.some((cookie) => cookie.name === "pitlane.cart")).toBe(false);
});

test("a member buys day tickets and named weekend passes and goes on to pay", async ({ page }) => {
  await joinAsMember(page, newMember("cart-buyer"));
  await visit(page, festival);
  await addToCart(page, "Saturday day ticket", 2);
  await expect(page.getByRole("status").filter({ hasText: "Added 2 × Saturday day ticket" })).toBeVisible();
  await addToCart(page, "Weekend pass", 2);
  await expect(page.getByRole("status").filter({ hasText: "Added 2 × Weekend pass" })).toBeVisible();

  await visit(page, "/cart");
  await expect(page.getByRole("region", { name: "Tickets" }).getByText("Saturday day ticket")).toBeVisible();
  const passes = cartLine(page, "Weekend pass");
  // Paying needs a name on every pass.
  await expect(page.getByRole("button", { name: /^Pay/ })).toBeDisabled();
  await expect(passes.getByText("Enter the name of the person each Weekend pass ticket is for")).toBeVisible();
  await passes.getByLabel("Attendee 1 name").fill("Ada Lovelace");
  await passes.getByLabel("Attendee 2 name").fill("Grace Hopper");
  await passes.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your cart has been updated." })).toBeVisible();

  const pay = page.getByRole("button", { name: /^Pay £126/ });
  await expect(pay).toBeEnabled();
  await pay.click();
  // The test checkout stands in for the payment provider: the order exists, with its number.
  await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: /^PL-\d{6}$/ })).toBeVisible();

  // Back in the cart the places are held, with a way back to the payment step.
  await visit(page, "/cart");
  await expect(page.getByText(/Your tickets are held for \d+:\d\d/)).toBeVisible();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test("the event page and the cart keep their main action at the bottom of the screen", async ({ page }) => {
    await joinAsMember(page, newMember("phone-buyer"));
    await visit(page, festival);
    const getTickets = page.getByRole("link", { name: "Get tickets" });
    await expect(getTickets).toBeInViewport();
    await getTickets.click();
    await expect(page.locator("#tickets-heading")).toBeInViewport();
    await addToCart(page, "Saturday day ticket", 1);
    await expect(page.getByRole("status").filter({ hasText: "Added 1 × Saturday day ticket" })).toBeVisible();

    await visit(page, "/cart");
    // The order summary's Pay button, and the bar's, which stays on screen and sends the same form.
    const pay = page.getByRole("button", { name: /^Pay £24/ });
    await expect(pay).toHaveCount(2);
    await expect(pay.last()).toBeInViewport();
    await pay.last().click();
    await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1, name: /^PL-\d{6}$/ })).toBeVisible();
  });
});
