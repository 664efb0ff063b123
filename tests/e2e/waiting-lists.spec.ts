import path from "node:path";
import type { Page } from "@playwright/test";
import { joinAsMember, latestMessage, linkIn, newMember, saveStaffSession } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

/**
 * A sold-out ticket type's waiting list, from joining to buying: two members join in turn, an
 * admin refunds the holder, the first in line is offered the place by email and lets the offer
 * run out (the test clock ends it), and the second is offered it and buys it. The event is the
 * spec's own, so no other test's sales are involved. Each step needs the one before.
 */
test.describe.configure({ mode: "serial", timeout: 90_000 });

const origin = () => new URL(test.info().project.use.baseURL!).origin;
const session = (who: string) => path.resolve(`test-results/e2e/waiting-lists-${who}.json`);
const first = newMember("first");
const second = newMember("second");
const state = { slug: "", title: "", orderNumber: "" };

test.beforeAll(async ({ browser, request }) => {
  await saveStaffSession(browser, "admin", session("admin"));
  const made = await request.post("/dev/fixtures/waiting-list-event", { headers: { Origin: origin() } });
  expect(made.ok(), await made.text()).toBe(true);
  // The fixture sends the browser on to the event page, with the holder's order number.
  const url = new URL(made.url());
  state.slug = url.pathname.replace("/events/", "");
  state.orderNumber = `PL-${url.searchParams.get("order")!.padStart(6, "0")}`;
});

function paddockPass(page: Page) {
  return page
    .getByRole("region", { name: "Tickets" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Paddock pass", exact: true }) });
}

/** The waiting lists' sweep, run now instead of on the minute; `endMine` first ends the member's offers. */
async function runTheLists(page: Page, form: Record<string, string> = { run: "now" }) {
  const response = await page.request.post("/dev/fixtures/waiting-lists-run", {
    headers: { Origin: origin() },
    form,
  });
  expect(response.ok(), await response.text()).toBe(true);
  // The fixture sends the browser on to the member's tickets, with what the sweep did.
  const ran = new URL(response.url()).searchParams;
  return { offered: Number(ran.get("offered")), lapsed: Number(ran.get("lapsed")), bought: Number(ran.get("bought")) };
}

async function joinTheList(page: Page, who: typeof first, place: string) {
  await joinAsMember(page, who);
  await visit(page, `/events/${state.slug}`);
  state.title ||= (await page.getByRole("heading", { level: 1 }).textContent())!.trim();
  await expect(
    page.getByText("Join the waiting list below: places that come back are offered to it first"),
  ).toBeVisible();
  const row = paddockPass(page);
  await expect(row).toContainText("Sold out");
  await expect(row.getByRole("button", { name: "Add to cart: Paddock pass" })).toHaveCount(0);
  await row.getByLabel("Places").selectOption("1");
  await row.getByRole("button", { name: "Join the waiting list: Paddock pass" }).click();
  await expect(page.getByRole("status").filter({ hasText: "in line" })).toContainText(
    `You are ${place} in line for Paddock pass.`,
  );
  await expect(paddockPass(page)).toContainText(`You are ${place} in line for 1 place.`);
}

test("the first member joins the sold-out ticket's waiting list", async ({ page }) => {
  await joinTheList(page, first, "1st");
  await page.context().storageState({ path: session("first") });
});

test("the second member joins behind them", async ({ page }) => {
  await joinTheList(page, second, "2nd");
  await visit(page, "/members/events");
  const list = page.getByRole("region", { name: "Waiting lists" }).getByRole("article", { name: state.title });
  await expect(list).toContainText("2nd in line");
  await expect(list).toContainText("Paddock pass · 1 place");
  await page.context().storageState({ path: session("second") });
});

test.describe("an admin", () => {
  test.use({ storageState: session("admin") });

  test("refunds the holder, and the place comes back for the line, not the public", async ({ page }) => {
    await visit(page, "/admin/orders");
    await page.getByLabel("Order number, email or name").fill(state.orderNumber.replace("PL-", ""));
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: new RegExp(state.orderNumber) }).click();
    const line = page
      .getByRole("region", { name: "Refund", exact: true })
      .locator("form")
      .filter({ hasText: "Paddock pass" });
    await line.getByLabel("Tickets to refund").fill("1");
    await line.getByLabel("Reason").fill("Cannot make it after all");
    await line.getByRole("button", { name: "Review refund" }).click();
    await page.getByRole("button", { name: "Confirm refund" }).click();
    await expect(page.getByText(/Refunded 1 ticket/)).toBeVisible();

    // Set aside for the people waiting: the public still sees the type sold out.
    await page.context().clearCookies();
    await visit(page, `/events/${state.slug}`);
    await expect(paddockPass(page)).toContainText("Sold out");
  });
});

test.describe("the first in line", () => {
  test.use({ storageState: session("first") });

  test("is offered the place by email, and lets the offer run out", async ({ page }) => {
    expect(await runTheLists(page)).toMatchObject({ offered: 1 });
    const email = await latestMessage(page.request, first.email, new RegExp(`Places for ${state.title} are yours`));
    expect(email.text).toContain("1 place came back for Paddock pass");
    expect(email.text).toMatch(/We are holding them for you until .+\./);

    await visit(page, "/members/events");
    const list = page.getByRole("region", { name: "Waiting lists" }).getByRole("article", { name: state.title });
    await expect(list).toContainText("Held for you until");
    await expect(list.getByRole("button", { name: "Buy my places" })).toBeVisible();
    await visit(page, `/events/${state.slug}`);
    await expect(paddockPass(page)).toContainText("1 place held for you until");

    // The test clock: the hours pass without a purchase.
    expect(await runTheLists(page, { endMine: "1" })).toMatchObject({ lapsed: 1, offered: 1 });
    await visit(page, "/members/events");
    await expect(page.getByRole("article", { name: state.title })).toHaveCount(0);
    await visit(page, `/events/${state.slug}`);
    await expect(paddockPass(page)).toContainText("Sold out");
    await expect(paddockPass(page).getByRole("button", { name: "Join the waiting list: Paddock pass" })).toBeVisible();
  });
});

test.describe("the second in line", () => {
  test.use({ storageState: session("second") });

  test("is offered the place next, and buys it", async ({ page }) => {
    const email = await latestMessage(page.request, second.email, new RegExp(`Places for ${state.title} are yours`));
    // The email's link puts the held place straight in the cart.
    await visit(page, linkIn(email, "/members/offers/"));
    await expect(page).toHaveURL(/\/cart$/);
    await expect(
      page.getByRole("status").filter({ hasText: "1 × Paddock pass is in your cart, held for you." }),
    ).toBeVisible();
    await expect(page.getByRole("main")).toContainText("Paddock pass");
    await expect(page.getByText("Keeps your places for you while you pay.")).toBeVisible();
    await page.getByRole("button", { name: /^Pay £45\.00/ }).click();
    await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
    await page.getByRole("button", { name: /^Pay £45\.00/ }).click();
    await expect(page).toHaveURL(/\/success\?order=/);
    await expect(page.getByRole("region", { name: /Your e-tickets/ }).getByRole("article")).toHaveCount(1);

    expect(await runTheLists(page)).toMatchObject({ bought: 1, offered: 0 });
    await visit(page, "/members/events");
    await expect(page.getByRole("region", { name: "Waiting lists" })).toHaveCount(0);
  });
});
