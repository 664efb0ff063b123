import { joinAsMember, newMember } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

/**
 * The built-in test checkout (no Stripe keys): a pending order made through the real cart and
 * checkout by a fixture (the cart page's Pay button will do the same), then Pay, Decline or
 * Cancel, and /return sending the buyer on.
 */
// Each test signs members up (argon2id hashing) before it starts paying.
test.describe.configure({ timeout: 90_000 });

async function openTestCheckout(page: import("@playwright/test").Page, quantity = 2) {
  await visit(page, `/dev/fixtures/pending-order?quantity=${quantity}`);
  await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
  return page.url().split("/").pop()!;
}

test("Pay settles the order and moves on to the order's success page", async ({ page }) => {
  await joinAsMember(page, newMember("test-pay"));
  const orderId = await openTestCheckout(page);

  await expect(page.getByText("Test mode — no money moves")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: /^PL-\d{6}$/ })).toBeVisible();
  await expect(page.getByRole("table", { name: "What you are paying for" })).toContainText("2 ×");
  await expect(page.getByText(/Your places are held until/)).toBeVisible();

  await page.getByRole("button", { name: /^Pay £/ }).click();
  await expect(page).toHaveURL(`/success?order=${orderId}`);

  // Paid: the test checkout no longer offers the buttons, and /return keeps sending to /success.
  await visit(page, `/checkout/test/${orderId}`);
  await expect(page).toHaveURL(`/success?order=${orderId}`);
});

test("/return keeps confirming a pending order and moves on by itself once it is paid", async ({ page }) => {
  await joinAsMember(page, newMember("test-return"));
  const orderId = await openTestCheckout(page, 1);

  await visit(page, `/return?order=${orderId}`);
  await expect(page.getByRole("heading", { name: "Confirming your payment…" })).toBeVisible();

  // The buyer pays in another tab; this one follows without being touched.
  const payTab = await page.context().newPage();
  await payTab.goto(`/checkout/test/${orderId}`);
  await payTab.getByRole("button", { name: /^Pay £/ }).click();
  await expect(payTab).toHaveURL(`/success?order=${orderId}`);
  await payTab.close();
  await expect(page).toHaveURL(`/success?order=${orderId}`);
});

for (const [button, reason] of [
  ["Decline", "Your card was declined (test mode)"],
  ["Cancel", "You cancelled the payment"],
] as const) {
  test(`${button} ends the order; the cart says why and what to do next until the next try`, async ({ page }) => {
    // The page's timers run on a test clock, so "still there 30 seconds later" takes no real wait.
    await page.clock.install();
    await joinAsMember(page, newMember(`test-${button.toLowerCase()}`));
    const orderId = await openTestCheckout(page, 1);
    await page.getByRole("button", { name: button, exact: true }).click();
    await expect(page).toHaveURL("/cart");
    const problem = page.getByRole("alert").filter({ hasText: reason });
    await expect(problem).toBeVisible();
    await expect(problem).toContainText("Nothing was charged and your cart is as you left it.");
    await page.clock.runFor(30_000);
    await expect(problem).toBeVisible();

    // /return and a fresh look at the cart say the same, from the order itself.
    await visit(page, `/return?order=${orderId}`);
    await expect(page).toHaveURL("/cart");
    await expect(problem).toBeVisible();

    // The next try clears it.
    await page
      .getByRole("button", { name: /^Pay £/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
    await visit(page, "/cart");
    await expect(page.getByRole("heading", { level: 1, name: "Your cart" })).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: reason })).toHaveCount(0);
  });
}

test("the provider's cancel link only offers to cancel; Cancel this order sends the buyer back to the cart", async ({
  page,
}) => {
  await joinAsMember(page, newMember("test-left"));
  const orderId = await openTestCheckout(page, 1);

  await visit(page, `/return?order=${orderId}&cancelled=1`);
  await expect(page.getByRole("heading", { name: "You left the payment page" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to payment" })).toHaveAttribute(
    "href",
    `/checkout/test/${orderId}`,
  );
  // Opening the link again changed nothing: the order can still be paid.
  await visit(page, `/checkout/test/${orderId}`);
  await expect(page.getByRole("button", { name: /^Pay £/ })).toBeVisible();

  await visit(page, `/return?order=${orderId}&cancelled=1`);
  await page.getByRole("button", { name: "Cancel this order" }).click();
  await expect(page).toHaveURL("/cart");
  await expect(page.getByRole("alert").filter({ hasText: "You cancelled the payment" })).toBeVisible();
});

test("another member cannot open someone's test checkout", async ({ page, browser }) => {
  await joinAsMember(page, newMember("test-owner"));
  const orderId = await openTestCheckout(page, 1);

  const other = await browser.newPage();
  try {
    await joinAsMember(other, newMember("test-stranger"));
    const response = await other.goto(`/checkout/test/${orderId}`);
    expect(response?.status()).toBe(404);
    expect((await other.goto(`/return?order=${orderId}`))?.status()).toBe(404);
  } finally {
    await other.close();
  }
});

test("the payment pages ask a signed-out visitor to sign in first", async ({ page }) => {
  await visit(page, "/return?order=00000000-0000-4000-8000-000000000000");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Freturn/);
});
