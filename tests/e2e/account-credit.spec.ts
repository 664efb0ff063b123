import path from "node:path";
import { joinAsMember, newMember, saveStaffSession } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

/**
 * Account credit from both ends: a member holds two £45 tickets for a sold-out event; an admin
 * refunds one to the member's account credit instead of the card; the member sees the credit,
 * buys the place back with it, paying nothing by card, and sees the ledger spent down to nothing.
 * The event is the spec's own. Each step needs the one before.
 */
test.describe.configure({ mode: "serial", timeout: 90_000 });

const origin = () => new URL(test.info().project.use.baseURL!).origin;
const session = (who: string) => path.resolve(`test-results/e2e/account-credit-${who}.json`);
const member = { ...newMember("credit"), name: "Cora Credit" };
const state = { slug: "" };

test.beforeAll(async ({ browser }) => {
  await saveStaffSession(browser, "admin", session("admin"));
});

test("a member holds two tickets for a sold-out event", async ({ page }) => {
  await joinAsMember(page, member);
  const made = await page.request.post("/dev/fixtures/passing-on-event", { headers: { Origin: origin() } });
  expect(made.ok(), await made.text()).toBe(true);
  state.slug = new URL(made.url()).searchParams.get("slug")!;
  await visit(page, "/transactions");
  await expect(page.getByRole("heading", { name: "Account credit" })).toHaveCount(0);
  await page.context().storageState({ path: session("member") });
});

test.describe("an admin", () => {
  test.use({ storageState: session("admin") });

  test("refunds one ticket to the member's account credit", async ({ page }) => {
    await visit(page, "/admin/orders");
    await page.getByLabel("Order number, email or name").fill(member.email);
    await page.getByRole("button", { name: "Search" }).click();
    await page
      .getByRole("link", { name: /PL-\d+/ })
      .first()
      .click();
    const line = page
      .getByRole("region", { name: "Refund", exact: true })
      .locator("form")
      .filter({ hasText: "Paddock pass" });
    await line.getByLabel("Tickets to refund").fill("1");
    await line.getByLabel("Reason").fill("Moved to account credit at the member's request");
    await line.getByRole("button", { name: "Review refund" }).click();
    const confirmation = page.getByRole("alert").filter({ hasText: "Refund £45.00?" });
    await confirmation.getByLabel("The buyer's account credit").check();
    await confirmation.getByLabel("Account credit keeps for").selectOption("12");
    await confirmation.getByRole("button", { name: "Confirm refund" }).click();
    await expect(page.getByText(/Refunded 1 ticket \(£45\.00, £45\.00 of it to account credit\)/)).toBeVisible();
  });
});

test.describe("the member", () => {
  test.use({ storageState: session("member") });

  test("sees the credit, buys the place back with it, and pays nothing by card", async ({ page }) => {
    await visit(page, "/transactions");
    const credit = page.getByRole("region", { name: "Account credit" });
    await expect(credit).toContainText("£45.00 to spend");
    await expect(credit.getByRole("list", { name: "Account credit history" })).toContainText("£45.00");

    await visit(page, `/events/${state.slug}`);
    const row = page
      .getByRole("region", { name: "Tickets" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Paddock pass", exact: true }) });
    await row.getByRole("button", { name: "Add to cart: Paddock pass" }).click();
    await visit(page, "/cart");
    // The summary shows the credit paying before the card does.
    const summary = page.getByRole("region", { name: "Order summary" });
    await expect(summary.getByRole("definition").filter({ hasText: "−£45.00" })).toBeVisible();
    await expect(summary).toContainText("You have £45.00 of account credit");
    await page.getByRole("button", { name: /^Pay £0\.00/ }).click();
    // Credit covered it all: no card page, straight to the confirmation.
    await expect(page).toHaveURL(/\/success\?order=/);

    await visit(page, "/transactions");
    await expect(page.getByRole("region", { name: "Account credit" })).toContainText("£0.00 to spend");
  });
});
