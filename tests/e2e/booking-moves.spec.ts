import path from "node:path";
import type { Page } from "@playwright/test";
import { joinAsMember, latestMessage, linkIn, newMember, saveStaffSession } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

/**
 * A booking moved to a new date, from both ends: a member holds two £45 passes for a meet; an
 * admin moves them to the meet's new date, where day passes cost £60; the member is emailed, pays
 * the £30 difference from their receipt and gets new tickets; at the gate the old codes are
 * refused and the new ones admitted. Each step needs the one before.
 */
test.describe.configure({ mode: "serial", timeout: 90_000 });

const origin = () => new URL(test.info().project.use.baseURL!).origin;
const session = (who: string) => path.resolve(`test-results/e2e/booking-moves-${who}.json`);
const member = { ...newMember("mover"), name: "Morgan Mover" };
const state = { eventId: "", newDateId: "", tag: "", orderId: "", oldCode: "", newCode: "" };

test.beforeAll(async ({ browser }) => {
  await saveStaffSession(browser, "admin", session("admin"));
});

function ticketCards(page: Page, type: string) {
  return page.getByRole("region", { name: "Upcoming" }).getByRole("article", { name: new RegExp(`${type} for`) });
}

async function codeOf(card: ReturnType<Page["locator"]>) {
  const label = await card.getByRole("img", { name: /QR code for ticket/ }).getAttribute("aria-label");
  return label!.replace("QR code for ticket ", "").trim();
}

/** Types a code at an event's gate, as an admin, and answers what the gate says. */
async function atTheGate(page: Page, eventId: string, code: string) {
  await visit(page, `/admin/events/${eventId}/checkin`);
  await page.getByLabel("Ticket code").fill(code);
  await page.getByRole("button", { name: "Check in" }).click();
  return page.getByRole("status").filter({ hasText: /Checked in|refunded|Already|another event/ });
}

test("a member holds two passes for a meet", async ({ page }) => {
  await joinAsMember(page, member);
  const made = await page.request.post("/dev/fixtures/booking-to-move", { headers: { Origin: origin() } });
  expect(made.ok(), await made.text()).toBe(true);
  const url = new URL(made.url());
  state.eventId = url.searchParams.get("event")!;
  state.newDateId = url.searchParams.get("newDate")!;
  state.tag = url.searchParams.get("tag")!;
  state.orderId = url.searchParams.get("order")!;
  await visit(page, "/members/events");
  await expect(ticketCards(page, "Paddock pass")).toHaveCount(2);
  state.oldCode = await codeOf(ticketCards(page, "Paddock pass").nth(0));
  await page.context().storageState({ path: session("member") });
});

test.describe("the admin", () => {
  test.use({ storageState: session("admin") });

  test("moves the booking to the new date, where the passes cost more", async ({ page }) => {
    await visit(page, `/admin/orders/${state.orderId}`);
    const panel = page.getByRole("region", { name: "Move tickets" });
    const form = panel.getByRole("form", { name: /Paddock pass/ });
    await expect(form).toContainText("£45.00 each · 2 can move");
    await form.getByLabel("Tickets to move").fill("2");
    const target = form.locator(`optgroup[label^="Spring Meet ${state.tag}, new date"] option`);
    await form.getByLabel("Move them to").selectOption((await target.getAttribute("value"))!);
    await form.getByLabel("Reason").fill("The meet moved to a week later");
    await form.getByRole("button", { name: "Move tickets" }).click();

    await expect(page.getByRole("status").filter({ hasText: "Moved 2 tickets" })).toContainText(
      /Moved 2 tickets: PL-\d+ waits for the buyer to pay £30\.00\. The buyer has been emailed\./,
    );
    const moves = page.getByRole("region", { name: "Moves" });
    await expect(moves).toContainText(/2 tickets moved to PL-\d+/);
    await expect(moves).toContainText("The meet moved to a week later");
    await expect(page.getByRole("region", { name: "Tickets" })).toContainText("Refunded");
  });
});

test.describe("the member", () => {
  test.use({ storageState: session("member") });

  test("is emailed, pays the difference from the receipt, and gets the new tickets", async ({ page }) => {
    const email = await latestMessage(page.request, member.email, /Your booking has moved to/);
    expect(email.subject).toBe(`Your booking has moved to Spring Meet ${state.tag}, new date — Day pass`);
    expect(email.text).toContain("They cost £30.00 more.");
    expect(email.text).toContain("Why: The meet moved to a week later");

    await visit(page, "/members");
    const waiting = page.getByRole("region", { name: "Waiting for you" });
    await expect(waiting).toContainText(`Your booking moved to Spring Meet ${state.tag}, new date — Day pass`);
    await expect(waiting.getByRole("link", { name: "Pay £30.00" })).toBeVisible();

    await visit(page, linkIn(email, "/transactions/"));
    const pay = page.getByRole("region", { name: "£30.00 to pay" });
    await expect(pay).toContainText("The places are held for you until");
    await pay.getByRole("button", { name: "Pay £30.00" }).click();
    await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
    await page.getByRole("button", { name: /^Pay £30\.00/ }).click();
    await expect(page).toHaveURL(/\/success\?order=/);
    await expect(page.getByRole("region", { name: /Your e-tickets/ }).getByRole("article")).toHaveCount(2);

    await visit(page, "/members/events");
    // The old passes stay on the page, marked as no longer valid.
    for (const card of await ticketCards(page, "Paddock pass").all()) await expect(card).toContainText("Refunded");
    await expect(ticketCards(page, "Day pass")).toHaveCount(2);
    state.newCode = await codeOf(ticketCards(page, "Day pass").nth(0));
  });
});

test.describe("at the gate", () => {
  test.use({ storageState: session("admin") });

  test("the old code is refused and the new one admitted at the new date", async ({ page }) => {
    await expect(await atTheGate(page, state.eventId, state.oldCode)).toContainText("This ticket was refunded");
    await expect(await atTheGate(page, state.newDateId, state.newCode)).toContainText("Checked in:");
  });
});
