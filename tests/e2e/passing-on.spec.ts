import path from "node:path";
import type { Page } from "@playwright/test";
import { joinAsMember, latestMessage, linkIn, newMember, saveStaffSession } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

/**
 * Passing tickets on, from both ends: a holder of two tickets for a sold-out event sends one to
 * someone, who accepts it by the emailed link (the old code is then refused at the gate as
 * transferred, the new one admitted); then hands the other back, a member waiting on the list is
 * offered the place and buys it, and the holder is refunded and their code refused. The event is
 * the spec's own. Each step needs the one before.
 */
test.describe.configure({ mode: "serial", timeout: 90_000 });

const origin = () => new URL(test.info().project.use.baseURL!).origin;
const session = (who: string) => path.resolve(`test-results/e2e/passing-on-${who}.json`);
const holder = { ...newMember("holder"), name: "Hollie Holder" };
const recipient = { ...newMember("recipient"), name: "Robin Recipient" };
const waiter = { ...newMember("waiter"), name: "Wynn Waiter" };
const state = { eventId: "", slug: "", title: "", sentCode: "", handedBackCode: "", newCode: "" };

test.beforeAll(async ({ browser }) => {
  await saveStaffSession(browser, "admin", session("admin"));
});

/** The holder's tickets on their page, first and second, each an article of its own. */
function ticketCards(page: Page) {
  return page.getByRole("region", { name: "Upcoming" }).getByRole("article", { name: /Paddock pass for/ });
}

/** The code printed under a ticket's QR. */
async function codeOf(card: ReturnType<Page["locator"]>) {
  const label = await card.getByRole("img", { name: /QR code for ticket/ }).getAttribute("aria-label");
  return label!.replace("QR code for ticket ", "").trim();
}

/** Types a code at the gate of the spec's event, as an admin, and answers what the gate says. */
async function atTheGate(page: Page, code: string) {
  await visit(page, `/admin/events/${state.eventId}/checkin`);
  await page.getByLabel("Ticket code").fill(code);
  await page.getByRole("button", { name: "Check in" }).click();
  return page.getByRole("status").filter({ hasText: /Checked in|transferred|refunded|Already/ });
}

test("a member holds two tickets for a sold-out event", async ({ page }) => {
  await joinAsMember(page, holder);
  const made = await page.request.post("/dev/fixtures/passing-on-event", { headers: { Origin: origin() } });
  expect(made.ok(), await made.text()).toBe(true);
  const url = new URL(made.url());
  state.eventId = url.searchParams.get("event")!;
  state.slug = url.searchParams.get("slug")!;
  await visit(page, "/members/events");
  await expect(ticketCards(page)).toHaveCount(2);
  state.title = (await page.getByRole("heading", { level: 3 }).filter({ hasText: "Trackside Day" }).textContent())!;
  state.sentCode = await codeOf(ticketCards(page).nth(0));
  state.handedBackCode = await codeOf(ticketCards(page).nth(1));
  await page.context().storageState({ path: session("holder") });
});

test("someone else joins the waiting list", async ({ page }) => {
  await joinAsMember(page, waiter);
  await visit(page, `/events/${state.slug}`);
  const row = page
    .getByRole("region", { name: "Tickets" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Paddock pass", exact: true }) });
  await row.getByRole("button", { name: "Join the waiting list: Paddock pass" }).click();
  await expect(row).toContainText("You are 1st in line for 1 place.");
  await page.context().storageState({ path: session("waiter") });
});

test.describe("the holder", () => {
  test.use({ storageState: session("holder") });

  test("sends a ticket to someone by email, and sees it pending", async ({ page }) => {
    await visit(page, "/members/events");
    const first = ticketCards(page).nth(0);
    await first.getByText("Can’t go? Pass this ticket on").click();
    await expect(first).toContainText("Prize-draw entries and memberships cannot be transferred.");
    const form = first.getByRole("form", { name: "Send this ticket to someone" });
    // A bad address is refused with its reason, and nothing is sent.
    await form.getByLabel("Their name").fill(recipient.name);
    await form.getByLabel("Their email address").fill("robin at example");
    await form.getByRole("button", { name: "Send this ticket" }).click();
    await expect(page.getByText("Enter an email address like name@example.com")).toBeVisible();

    const again = ticketCards(page).nth(0).getByRole("form", { name: "Send this ticket to someone" });
    await again.getByLabel("Their name").fill(recipient.name);
    await again.getByLabel("Their email address").fill(recipient.email);
    await again.getByRole("button", { name: "Send this ticket" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Ticket sent to" })).toContainText(
      `Ticket sent to ${recipient.name}. It moves to them when they accept it.`,
    );
    await expect(ticketCards(page).nth(0)).toContainText(`Sent to ${recipient.name} (${recipient.email})`);
    await expect(ticketCards(page).nth(0).getByRole("button", { name: "Cancel the transfer" })).toBeVisible();
  });
});

test("the recipient accepts the ticket by the emailed link, signing in first", async ({ page }) => {
  const email = await latestMessage(page.request, recipient.email, /sent you a ticket for/);
  expect(email.text).toContain(`${holder.name} is passing a Paddock pass ticket for ${state.title}`);
  const link = linkIn(email, "/tickets/accept/");
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "A ticket for you" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText(`${holder.name} is passing on a Paddock pass ticket`);
  await expect(page.getByRole("link", { name: "Sign in to accept" })).toBeVisible();

  await joinAsMember(page, recipient);
  await page.goto(link);
  await page.getByRole("button", { name: "Accept the ticket" }).click();
  await expect(page).toHaveURL(/\/members\/events$/);
  await expect(page.getByRole("status").filter({ hasText: "Your ticket for" })).toContainText(
    `Your ticket for ${state.title} is here, with its own QR code.`,
  );
  const card = ticketCards(page);
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(recipient.name);
  state.newCode = await codeOf(card);
  expect(state.newCode).not.toBe(state.sentCode);

  const told = await latestMessage(page.request, holder.email, /accepted your ticket/);
  expect(told.text).toContain(`${recipient.name} accepted the Paddock pass ticket for ${state.title}`);
});

test.describe("an admin at the gate", () => {
  test.use({ storageState: session("admin") });

  test("refuses the old code as transferred and admits the new one", async ({ page }) => {
    await expect(await atTheGate(page, state.sentCode)).toContainText("This ticket was transferred");
    await expect(await atTheGate(page, state.newCode)).toContainText("Checked in:");
  });
});

test.describe("the holder again", () => {
  test.use({ storageState: session("holder") });

  test("sees the first ticket transferred, and hands the other back", async ({ page }) => {
    await visit(page, "/members/events");
    await expect(ticketCards(page).nth(0)).toContainText("Transferred");
    await expect(ticketCards(page).nth(0)).toContainText(`Transferred to ${recipient.name}.`);
    const second = ticketCards(page).nth(1);
    await second.getByText("Can’t go? Pass this ticket on").click();
    await second.getByRole("button", { name: "Hand it back" }).click();
    await expect(page.getByRole("status").filter({ hasText: "back on sale" })).toContainText(
      "Your ticket is back on sale. It stays yours until someone buys it.",
    );
    await expect(ticketCards(page).nth(1)).toContainText("Back on sale, to the waiting list first.");
    await expect(ticketCards(page).nth(1)).toContainText("you are refunded £45.00.");
    // Still valid meanwhile: its QR is there.
    await expect(
      ticketCards(page)
        .nth(1)
        .getByRole("img", { name: /QR code for ticket/ }),
    ).toBeVisible();
  });
});

test.describe("the member waiting", () => {
  test.use({ storageState: session("waiter") });

  test("is offered the handed-back place and buys it", async ({ page }) => {
    const run = await page.request.post("/dev/fixtures/waiting-lists-run", {
      headers: { Origin: origin() },
      form: { run: "now" },
    });
    expect(run.ok(), await run.text()).toBe(true);
    const offer = await latestMessage(page.request, waiter.email, new RegExp(`Places for ${state.title} are yours`));
    await visit(page, linkIn(offer, "/members/events"));
    const list = page.getByRole("region", { name: "Waiting lists" }).getByRole("article", { name: state.title });
    await list.getByRole("button", { name: "Buy my places" }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await page.getByRole("button", { name: /^Pay £45\.00/ }).click();
    await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
    await page.getByRole("button", { name: /^Pay £45\.00/ }).click();
    await expect(page).toHaveURL(/\/success\?order=/);
  });
});

test.describe("the holder, once the place is bought", () => {
  test.use({ storageState: session("holder") });

  test("is refunded, told by email, and their code no longer admits", async ({ page }) => {
    // Settled after the buyer's payment; the fixture runs the same job now for a steady test.
    const ran = await page.request.post("/dev/fixtures/hand-backs-run", { headers: { Origin: origin() } });
    expect(ran.ok(), await ran.text()).toBe(true);
    const told = await latestMessage(
      page.request,
      holder.email,
      new RegExp(`Your ticket for ${state.title} was resold`),
    );
    expect(told.text).toContain("We are refunding £45.00 to the card you paid with");
    await visit(page, "/members/events");
    await expect(ticketCards(page).nth(1)).toContainText("Someone bought this place. You are refunded £45.00.");
    await expect(
      ticketCards(page)
        .nth(1)
        .getByRole("img", { name: /QR code for ticket/ }),
    ).toHaveCount(0);
  });
});

test.describe("an admin at the gate, after the resale", () => {
  test.use({ storageState: session("admin") });

  test("refuses the handed-back code", async ({ page }) => {
    await expect(await atTheGate(page, state.handedBackCode)).toContainText("This ticket was refunded");
  });
});
