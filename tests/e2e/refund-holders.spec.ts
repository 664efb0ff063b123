import path from "node:path";
import { type DemoStaff, joinAsMember, latestMessage, newMember, saveStaffSession } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

/**
 * A cancelled event's money goes back in one press: an organizer publishes an event of their
 * own (so no other test's sales are involved), a member buys tickets for it, the organizer
 * cancels it and is told an admin refunds the holders, and an admin refunds them all. Each step
 * needs the one before, so the tests run in order.
 */
test.describe.configure({ mode: "serial", timeout: 90_000 });

const sessionFile = (who: DemoStaff) => path.resolve(`test-results/e2e/refund-holders-${who}.json`);

const title = `Quayside Night Sprint ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const reason = "The harbour is closed for repairs that weekend.";
const buyer = newMember("holder");
const state = { eventPath: "", publicPath: "", orderNumber: "" };

test.beforeAll(async ({ browser }) => {
  await saveStaffSession(browser, "organizer", sessionFile("organizer"));
  await saveStaffSession(browser, "admin", sessionFile("admin"));
});

/** Three weeks from now, 18:00 to 22:00 London time, as datetime-local values. */
function eveningAhead() {
  const day = new Date(Date.now() + 21 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  return { startsAt: `${day}T18:00`, endsAt: `${day}T22:00` };
}

test.describe("the organizer", () => {
  test.use({ storageState: sessionFile("organizer") });

  test("publishes an event with a paid ticket", async ({ page }) => {
    const dates = eveningAhead();
    await visit(page, "/admin/events/new");
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Starts").fill(dates.startsAt);
    await page.getByLabel("Ends").fill(dates.endsAt);
    await page.getByLabel("Venue").fill("Harbour Quay");
    await page.getByLabel("Town").fill("Whitby");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByText("Draft saved.", { exact: false })).toBeVisible();
    state.eventPath = new URL(page.url()).pathname;
    expect(state.eventPath).toMatch(/^\/admin\/events\/[0-9a-f-]{36}$/);

    const eventPages = page.getByRole("navigation", { name: "Event pages" });
    await eventPages.getByRole("link", { name: /Tickets/ }).click();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.getByLabel("Ticket name").fill("Sprint entry");
    await page.getByLabel("Price").fill("12");
    await page.getByRole("button", { name: "Add ticket type" }).click();
    await expect(page.getByText("“Sprint entry” added.")).toBeVisible();

    await eventPages.getByRole("link", { name: "Details" }).click();
    await page.getByRole("button", { name: "Publish event" }).click();
    await expect(page.getByText("Published. The event is now listed on the site.")).toBeVisible();
    state.publicPath = (await page.getByRole("link", { name: "View on the site" }).getAttribute("href"))!;
    expect(state.publicPath).toMatch(/^\/events\//);
  });
});

test.describe("a member", () => {
  test("buys two tickets and pays", async ({ page }) => {
    await joinAsMember(page, buyer);
    await visit(page, state.publicPath);
    const row = page
      .getByRole("region", { name: "Tickets" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Sprint entry", exact: true }) });
    await row.getByLabel("Quantity").selectOption("2");
    await row.getByRole("button", { name: "Add to cart: Sprint entry" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Added 2 × Sprint entry to your cart." })).toBeVisible();

    await visit(page, "/cart");
    await page.getByRole("button", { name: /^Pay £24\.00/ }).click();
    await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
    state.orderNumber = (await page.getByRole("heading", { level: 1, name: /^PL-\d{6}$/ }).textContent())!.trim();
    await page.getByRole("button", { name: /^Pay £24\.00/ }).click();
    await expect(page).toHaveURL(/\/success\?order=/);
    await expect(page.getByRole("region", { name: /Your e-tickets/ }).getByRole("article")).toHaveCount(2);
  });
});

test.describe("the organizer, calling it off", () => {
  test.use({ storageState: sessionFile("organizer") });

  test("cancels the event and is told an admin refunds the holders", async ({ page }) => {
    await visit(page, state.eventPath);
    const status = page.getByRole("complementary", { name: "Status" });
    await expect(status).toContainText("2 tickets are sold: their holders will need refunds.");
    await status.getByText("Cancel this event…").click();
    await status.getByLabel("Reason, shown on the event page").fill(reason);
    await status.getByRole("button", { name: "Cancel event" }).click();
    await expect(page.getByText("Event cancelled. 2 tickets had been sold: their holders need refunds.")).toBeVisible();

    const refunds = status.getByRole("region", { name: "Refunds" });
    await expect(refunds).toContainText(
      "1 order still holds valid tickets. An admin can refund them all from this page.",
    );
    await expect(refunds.getByRole("button")).toHaveCount(0);
  });
});

test.describe("an admin", () => {
  test.use({ storageState: sessionFile("admin") });

  test("refunds every holder in one press; the buyer is emailed and the order is refunded", async ({ page }) => {
    await visit(page, state.eventPath);
    const refunds = page.getByRole("complementary", { name: "Status" }).getByRole("region", { name: "Refunds" });
    await expect(refunds).toContainText("1 order still holds valid tickets.");
    await refunds.getByRole("button", { name: "Refund the ticket holder" }).click();
    await expect(page.getByText("Refunded 1 order; the buyers have been emailed.")).toBeVisible();
    await expect(refunds).toContainText("No ticket holders are waiting for a refund.");
    await expect(refunds.getByRole("button")).toHaveCount(0);

    const email = await latestMessage(page.request, buyer.email, new RegExp(`Refund for order ${state.orderNumber}`));
    expect(email.text).toContain(`We have refunded your order ${state.orderNumber}.`);
    expect(email.text).toContain("2 × ");
    expect(email.text).toContain(`Reason: ${title} was cancelled: ${reason}`);

    await visit(page, `/admin/orders?q=${state.orderNumber}`);
    await page.getByRole("link", { name: new RegExp(state.orderNumber) }).click();
    await expect(page.getByRole("heading", { name: state.orderNumber })).toBeVisible();
    const tickets = page.getByRole("region", { name: "Tickets" }).getByRole("listitem");
    await expect(tickets).toHaveCount(2);
    for (const ticket of await tickets.all()) await expect(ticket).toContainText("Refunded");
    await expect(page.getByText("Refund · pending").or(page.getByText("Refund · succeeded"))).toBeVisible();
    await expect(page.getByRole("region", { name: "Refund", exact: true })).toContainText(
      "Nothing on this order can be refunded now.",
    );

    // The public page says why, and sells nothing.
    await visit(page, state.publicPath);
    await expect(page.getByText(reason)).toBeVisible();
    await expect(page.getByRole("button", { name: /Add to cart/ })).toHaveCount(0);
  });
});
