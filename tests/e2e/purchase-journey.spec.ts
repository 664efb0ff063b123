import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import {
  type DemoStaff,
  jobsIdle,
  joinAsMember,
  latestMessage,
  messagesTo,
  newMember,
  saveStaffSession,
} from "./accounts-helpers";
import { allowConsoleErrors, expect, FAILED_RESOURCE, test, visit } from "./fixtures";

/**
 * The whole purchase, as people see it, one step after another: a new member puts two day
 * tickets and a named weekend pass for the demo festival in the cart, has a card declined (back
 * to the cart, places freed), pays in the test checkout, gets three e-tickets on /success and by
 * email, finds the order under Orders and the tickets under My tickets; the organizer checks one
 * of those tickets in at the gate (twice); an admin refunds one of them and its place goes back
 * on sale.
 *
 * Declined and cancelled payments on their own (the reason, /return) are covered in
 * test-checkout.spec.ts; here a decline also shows the places coming back. Each step needs the
 * one before, so the tests run in order and stop at the first failure.
 */
test.describe.configure({ mode: "serial", timeout: 90_000 });

const festival = "/events/silverstone-festival-of-speed";
const festivalTitle = "Silverstone Festival of Speed";
// No other spec buys Sunday day tickets, so its places-left figure moves only with this journey.
const refunded = "Sunday day ticket";

const member = newMember("journey");
const attendee = "Ada Lovelace";

type Who = DemoStaff | "member";
const sessionFile = (who: Who) => path.resolve(`test-results/e2e/journey-${who}.json`);

/** What the journey learns as it goes, for the steps after. */
const order = {
  id: "",
  number: "",
  /** Ticket codes as the buyer sees them, by ticket type. */
  codes: {} as Record<string, string>,
  /** The Sunday day ticket's places left on the event page, before the member paid and after. */
  sundayLeftBeforePaying: 0,
  sundayLeftAfterPaying: 0,
};

async function saveMemberSession(browser: Browser) {
  const context = await browser.newContext({ serviceWorkers: "block", storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await joinAsMember(page, member);
  await context.storageState({ path: sessionFile("member") });
  await context.close();
}

test.beforeAll(async ({ browser }) => {
  mkdirSync(path.dirname(sessionFile("member")), { recursive: true });
  // Sign-ins are rate limited per address: each account signs in once and the steps reuse it.
  await saveMemberSession(browser);
  await saveStaffSession(browser, "organizer", sessionFile("organizer"));
  await saveStaffSession(browser, "admin", sessionFile("admin"));
});

function ticketRow(page: Page, name: string) {
  return page
    .getByRole("region", { name: "Tickets" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name, exact: true }) });
}

/** The "· N left" figure the event page shows for a ticket type. */
async function placesLeft(page: Page, name: string) {
  await visit(page, festival);
  const text = await ticketRow(page, name)
    .getByText(/· [\d,]+ left/)
    .textContent();
  return Number(text!.replace(/,/g, "").match(/(\d+) left/)![1]);
}

async function addToCart(page: Page, name: string, quantity: number) {
  const row = ticketRow(page, name);
  await row.getByLabel("Quantity").selectOption(String(quantity));
  await row.getByRole("button", { name: `Add to cart: ${name}` }).click();
  await expect(page.getByRole("status").filter({ hasText: `Added ${quantity} × ${name} to your cart.` })).toBeVisible();
}

test.describe("the member", () => {
  test.use({ storageState: sessionFile("member") });

  test("adds day tickets and a named weekend pass; a declined card brings them back with the places freed", async ({
    page,
  }) => {
    // A long journey: tickets, a declined card, and the places freed again.
    test.setTimeout(90_000);
    order.sundayLeftBeforePaying = await placesLeft(page, refunded);

    await addToCart(page, "Saturday day ticket", 1);
    await addToCart(page, "Sunday day ticket", 1);
    await addToCart(page, "Weekend pass", 1);
    await expect(page.getByRole("link", { name: /^Cart\s?3$/ })).toBeVisible();

    await visit(page, "/cart");
    const main = page.getByRole("main");
    for (const name of ["Saturday day ticket", "Sunday day ticket", "Weekend pass"])
      await expect(main.getByRole("listitem", { name: `${festivalTitle}, ${name}` })).toBeVisible();
    // The pass is named: paying waits for the attendee's name.
    const pass = main.getByRole("listitem", { name: `${festivalTitle}, Weekend pass` });
    await expect(pass.getByText("Enter the name of the person each Weekend pass ticket is for")).toBeVisible();
    await expect(page.getByRole("button", { name: /^Pay/ })).toBeDisabled();
    await pass.getByLabel("Attendee 1 name").fill(attendee);
    await pass.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Your cart has been updated." })).toBeVisible();
    await expect(pass.getByLabel("Attendee 1 name")).toHaveValue(attendee);

    // £24 + £24 + £39.
    await page.getByRole("button", { name: /^Pay £87\.00/ }).click();
    await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
    const declined = page.url().split("/").pop()!;
    await expect(page.getByText("Test mode — no money moves")).toBeVisible();
    // The places are held while the member pays...
    expect(await placesLeft(page, refunded)).toBe(order.sundayLeftBeforePaying - 1);

    // ...and freed when the card is declined: back in the cart, with the reason and the lines.
    await visit(page, `/checkout/test/${declined}`);
    await page.getByRole("button", { name: "Decline", exact: true }).click();
    await expect(page).toHaveURL("/cart");
    await expect(page.getByRole("alert").filter({ hasText: "Your card was declined (test mode)" })).toBeVisible();
    for (const name of ["Saturday day ticket", "Sunday day ticket", "Weekend pass"])
      await expect(main.getByRole("listitem", { name: `${festivalTitle}, ${name}` })).toBeVisible();
    await expect(pass.getByLabel("Attendee 1 name")).toHaveValue(attendee);
    expect(await placesLeft(page, refunded)).toBe(order.sundayLeftBeforePaying);
  });

  test("pays in the test checkout and gets three e-tickets", async ({ page }) => {
    await visit(page, "/cart");
    await page.getByRole("button", { name: /^Pay £87\.00/ }).click();
    await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
    order.id = page.url().split("/").pop()!;
    await expect(page.getByText("Test mode — no money moves")).toBeVisible();
    const heading = page.getByRole("heading", { level: 1, name: /^PL-\d{6}$/ });
    order.number = (await heading.textContent())!.trim();
    const lines = page.getByRole("table", { name: "What you are paying for" });
    for (const name of ["Saturday day ticket", "Sunday day ticket", "Weekend pass"])
      await expect(lines).toContainText(name);
    await expect(lines).toContainText("£87.00");
    const held = await placesLeft(page, refunded);
    expect(held).toBe(order.sundayLeftBeforePaying - 1);
    await visit(page, `/checkout/test/${order.id}`);

    await page.getByRole("button", { name: /^Pay £87\.00/ }).click();
    await expect(page).toHaveURL(`/success?order=${order.id}`);
    await expect(page.getByRole("heading", { level: 1, name: "You're in." })).toBeVisible();
    await expect(page.getByText(order.number).first()).toBeVisible();

    const tickets = page.getByRole("region", { name: /Your e-tickets/ }).getByRole("article");
    await expect(tickets).toHaveCount(3);
    await expect(page.getByRole("img", { name: /^QR code for ticket [0-9A-Z ]+$/ })).toHaveCount(3);
    await expect(tickets.filter({ hasText: "Weekend pass" })).toContainText(attendee);
    for (const name of ["Saturday day ticket", "Sunday day ticket", "Weekend pass"]) {
      const ticket = page.getByRole("article", { name: `${name} for ${festivalTitle}` });
      await expect(ticket).toContainText("Valid");
      const qr = await ticket.getByRole("img", { name: /^QR code for ticket / }).getAttribute("aria-label");
      order.codes[name] = qr!.replace("QR code for ticket ", "");
    }
    expect(new Set(Object.values(order.codes)).size).toBe(3);
    await expect(page.getByRole("table", { name: `Items in order ${order.number}` })).toContainText("£87.00");

    // Paid: the payment page now sends the buyer to the tickets.
    await visit(page, `/checkout/test/${order.id}`);
    await expect(page).toHaveURL(`/success?order=${order.id}`);
    // An order that is not theirs is not found.
    allowConsoleErrors(page, FAILED_RESOURCE);
    await visit(page, `/success?order=${crypto.randomUUID()}`);
    await expect(page.getByRole("heading", { name: "This page could not be found" })).toBeVisible();

    order.sundayLeftAfterPaying = await placesLeft(page, refunded);
    expect(order.sundayLeftAfterPaying).toBe(held);
  });

  test("finds one order email in the mailbox, with the three QR codes and the receipt", async ({ page }) => {
    const email = await latestMessage(page.request, member.email, /^Your tickets for Silverstone Festival of Speed/);
    expect(email.subject).toBe(`Your tickets for ${festivalTitle} — order ${order.number}`);
    expect(email.text).toContain("Total  £87.00");
    expect(email.text).toContain("Weekend pass  1 × £39.00 = £39.00");
    expect(email.text).toContain("Sunday day ticket  1 × £24.00 = £24.00");
    // A second confirmation, if one were queued, has been sent by the time the queue is idle.
    await jobsIdle(page.request);
    const orderEmails = (await messagesTo(page.request, member.email)).filter((message) =>
      message.subject?.includes(order.number),
    );
    expect(orderEmails).toHaveLength(1);
    // The mailbox keeps the email with its QR codes inline, so /dev/mailbox shows them.
    const stored = orderEmails[0] as unknown as { html: string };
    expect(stored.html.match(/<img src="data:image\/png;base64,[^"]+"[^>]*alt="QR code for ticket /g)).toHaveLength(3);
    for (const code of Object.values(order.codes)) expect(stored.html).toContain(`QR code for ticket ${code}`);
  });

  test("sees the order under Orders, with its receipt, and the tickets under My tickets", async ({ page }) => {
    await visit(page, "/transactions");
    const row = page
      .getByRole("region", { name: "Your orders" })
      .getByRole("listitem")
      .filter({ hasText: order.number });
    await expect(row).toContainText("Paid");
    await expect(row).toContainText("£87.00");
    await row.getByRole("link", { name: `Receipt for ${order.number}` }).click();
    await expect(page).toHaveURL(`/transactions/${order.id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Receipt" })).toBeVisible();
    await expect(page.getByRole("table", { name: `Items in order ${order.number}` })).toContainText(
      "Sunday day ticket",
    );
    await expect(page.getByRole("region", { name: "Payments and refunds" })).toContainText("£87.00");

    await page.getByRole("navigation", { name: "Members" }).getByRole("link", { name: "My tickets" }).click();
    await expect(page).toHaveURL("/members/events");
    await expect(page.getByRole("heading", { level: 1, name: "My tickets" })).toBeVisible();
    const upcoming = page.getByRole("region", { name: "Upcoming" });
    await expect(upcoming.getByRole("heading", { name: festivalTitle })).toBeVisible();
    await expect(upcoming.getByRole("img", { name: /QR code for ticket/ })).toHaveCount(3);
    for (const code of Object.values(order.codes))
      await expect(upcoming.getByRole("img", { name: `QR code for ticket ${code}` })).toBeVisible();
    await expect(upcoming.getByText("Valid")).toHaveCount(3);
    await expect(upcoming.getByRole("article", { name: `Weekend pass for ${festivalTitle}` })).toContainText(attendee);
  });
});

test.describe("the organizer at the gate", () => {
  test.use({ storageState: sessionFile("organizer") });

  test("checks the weekend pass in; the same code again says it already is", async ({ page }) => {
    await visit(page, `/admin/check-in?q=${encodeURIComponent(festivalTitle)}`);
    await page.getByRole("link", { name: new RegExp(festivalTitle) }).click();
    await expect(page).toHaveURL(/\/admin\/events\/[0-9a-f-]{36}\/checkin$/);
    await expect(page.getByRole("heading", { name: "Check-in", level: 2 })).toBeVisible();

    const code = order.codes["Weekend pass"]!;
    await page.getByLabel("Ticket code").fill(code);
    await page.getByRole("button", { name: "Check in" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Checked in:" })).toContainText(
      `Checked in: ${attendee}, Weekend pass`,
    );

    await page.getByLabel("Ticket code").fill(code);
    await page.getByRole("button", { name: "Check in" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Already checked in" })).toContainText(
      /Already checked in at \d{2}:\d{2} by \S+/,
    );
  });
});

test.describe("the admin", () => {
  test.use({ storageState: sessionFile("admin") });

  test("refunds the Sunday day ticket: the order shows it refunded and its place is free again", async ({ page }) => {
    const leftBefore = await placesLeft(page, refunded);
    // No one else buys this ticket type, so the figure is where the member's payment left it.
    expect(leftBefore).toBe(order.sundayLeftAfterPaying);

    await visit(page, "/admin/orders");
    await page.getByLabel("Order number, email or name").fill(member.email);
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: new RegExp(order.number) }).click();
    await expect(page).toHaveURL(`/admin/orders/${order.id}`);
    await expect(page.getByRole("heading", { name: order.number })).toBeVisible();
    const ticketList = page.getByRole("region", { name: "Tickets" });
    await expect(ticketList.getByRole("listitem").filter({ hasText: "Weekend pass" })).toContainText("Checked in");

    const line = page
      .getByRole("region", { name: "Refund", exact: true })
      .locator("form")
      .filter({ hasText: refunded });
    await line.getByLabel("Tickets to refund").fill("1");
    await line.getByLabel("Reason").fill("Cannot come on Sunday");
    await line.getByRole("button", { name: "Review refund" }).click();
    await expect(page.getByRole("alert").filter({ hasText: /Refund £24\.00\?/ })).toContainText("1 ticket of");
    await page.getByRole("button", { name: "Confirm refund" }).click();

    await expect(page.getByText(/Refunded 1 ticket/)).toBeVisible();
    await expect(page.getByText("Partly refunded").first()).toBeVisible();
    await expect(ticketList.getByRole("listitem").filter({ hasText: refunded })).toContainText("Refunded");
    await expect(ticketList.getByRole("listitem").filter({ hasText: "Saturday day ticket" })).toContainText("Valid");
    await expect(page.getByText("Refund · pending").or(page.getByText("Refund · succeeded"))).toBeVisible();

    expect(await placesLeft(page, refunded)).toBe(leftBefore + 1);

    const email = await latestMessage(page.request, member.email, new RegExp(`Refund for order ${order.number}`));
    expect(email.text).toContain("Cannot come on Sunday");
  });
});

test.describe("the member, afterwards", () => {
  test.use({ storageState: sessionFile("member") });

  test("sees the refunded ticket marked so, and the others still good", async ({ page }) => {
    await visit(page, "/transactions");
    const orders = page.getByRole("region", { name: "Your orders" });
    await expect(orders.getByRole("listitem").filter({ hasText: order.number })).toContainText("Partly refunded");
    await expect(page.getByRole("listitem").filter({ hasText: "Cannot come on Sunday" })).toContainText(order.number);
    await visit(page, "/members/events");
    await expect(page.getByRole("article", { name: `${refunded} for ${festivalTitle}` })).toContainText("Refunded");
    await expect(page.getByRole("article", { name: `Weekend pass for ${festivalTitle}` })).toContainText("Checked in");
  });
});
