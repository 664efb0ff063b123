import path from "node:path";
import type { Page } from "@playwright/test";
import { joinAsMember, latestMessage, linkIn, newMember, saveStaffSession } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

/**
 * A sold-out size's waiting list, from joining to buying: a member joins the line for the M of a
 * tee from its page, staff see them on the product's Waiting list tab and add a delivery to the
 * stock, the sweep offers the unit by email, and the member follows the link and pays for it. The
 * tee is the spec's own, so no other test's sales are involved. Each step needs the one before.
 */
test.describe.configure({ mode: "serial", timeout: 90_000 });

const origin = () => new URL(test.info().project.use.baseURL!).origin;
const session = (who: string) => path.resolve(`test-results/e2e/merch-waiting-list-${who}.json`);
const member = newMember("tee");
const state = { slug: "", productId: "", title: "" };

test.beforeAll(async ({ browser, request }) => {
  await saveStaffSession(browser, "admin", session("admin"));
  const made = await request.post("/dev/fixtures/sold-out-product", { headers: { Origin: origin() } });
  expect(made.ok(), await made.text()).toBe(true);
  // The fixture sends the browser on to the product's page, with its id.
  const url = new URL(made.url());
  state.slug = url.pathname.replace("/shop/", "");
  state.productId = url.searchParams.get("product")!;
});

function waitingList(page: Page) {
  return page.getByRole("region", { name: "Sold out in the one you want?" });
}

test("a member joins the line for the sold-out size from the product page", async ({ page }) => {
  // A visitor sees the list, and is asked to sign in to join it.
  await visit(page, `/shop/${state.slug}`);
  state.title = (await page.getByRole("heading", { level: 1 }).textContent())!.trim();
  await expect(page.getByRole("group", { name: "Size" }).getByRole("radio", { name: /^M/ })).toBeDisabled();
  await expect(waitingList(page)).toContainText("M has sold out.");
  await waitingList(page).getByRole("button", { name: "Join the waiting list" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=/);

  await joinAsMember(page, member);
  await visit(page, `/shop/${state.slug}`);
  await waitingList(page).getByLabel("How many").selectOption("1");
  await waitingList(page).getByRole("button", { name: "Join the waiting list" }).click();
  await expect(page.getByRole("status").filter({ hasText: "in line" })).toContainText(
    `You are 1st in line for ${state.title} — M. We will email you when it is back in stock.`,
  );
  await expect(waitingList(page)).toContainText("M: you are 1st in line for 1 item.");
  await expect(waitingList(page).getByRole("button", { name: "Join the waiting list" })).toHaveCount(0);

  await visit(page, "/members/events");
  const list = page.getByRole("region", { name: "Waiting lists" }).getByRole("article", { name: state.title });
  await expect(list).toContainText("Shop · M · 1 item");
  await expect(list).toContainText("1st in line");
  await page.context().storageState({ path: session("member") });
});

test.describe("an admin", () => {
  test.use({ storageState: session("admin") });

  test("sees the line on the product's Waiting list tab, and adds a delivery to the stock", async ({ page }) => {
    await visit(page, `/admin/shop/${state.productId}/waiting-list`);
    const lines = page.getByRole("region", { name: "Waiting lists" });
    await expect(lines).toContainText("You could sell 1 more item");
    await expect(lines.getByRole("region", { name: /^M/ })).toContainText(member.email);

    await page.getByRole("navigation", { name: "Product" }).getByRole("link", { name: "Details & stock" }).click();
    const variant = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /^M/ }) });
    await variant.getByLabel("Amount").fill("1");
    await variant.getByLabel("Reason").fill("Reprint from the supplier");
    await variant.getByRole("button", { name: "Adjust stock" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Stock is now 1 (+1)." })).toBeVisible();

    // Set aside for the line: the public still sees M sold out.
    await page.context().clearCookies();
    await visit(page, `/shop/${state.slug}`);
    await expect(page.getByRole("group", { name: "Size" }).getByRole("radio", { name: /^M/ })).toBeDisabled();
  });
});

test.describe("the member", () => {
  test.use({ storageState: session("member") });

  test("is offered the tee by email, follows the link and pays for it", async ({ page }) => {
    const ran = await page.request.post("/dev/fixtures/waiting-lists-run", {
      headers: { Origin: origin() },
      form: { run: "now" },
    });
    expect(ran.ok(), await ran.text()).toBe(true);
    const email = await latestMessage(page.request, member.email, new RegExp(`${state.title} — M is back in stock`));
    expect(email.text).toContain(`Good news: ${state.title} — M is back in stock`);

    await visit(page, `/shop/${state.slug}`);
    await expect(waitingList(page)).toContainText("M: 1 item held for you until");
    await visit(page, "/members");
    await expect(page.getByRole("region", { name: "Waiting for you" })).toContainText(`${state.title}, M`);

    // The email's link puts the held tee straight in the cart.
    await visit(page, linkIn(email, "/members/offers/"));
    await expect(page).toHaveURL(/\/cart$/);
    const summary = page.getByRole("region", { name: "Order summary" });
    await expect(page.getByRole("main")).toContainText(state.title);
    const delivery = page.getByRole("region", { name: "Delivery" });
    await delivery.getByRole("radio", { name: /Delivery by post/ }).check();
    await delivery.getByLabel("Full name").fill(member.name);
    await delivery.getByLabel("Address line 1").fill("1 Paddock Lane");
    await delivery.getByLabel("Town or city").fill("Silverstone");
    await delivery.getByLabel("Postcode").fill("NN12 8TN");
    await summary.getByRole("button", { name: /^Pay £/ }).click();
    await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("table", { name: "What you are paying for" })).toContainText(`${state.title} — M`);
    await page.getByRole("button", { name: /^Pay £/ }).click();
    await expect(page).toHaveURL(/\/success\?order=/);
    await expect(page.getByRole("table", { name: /^Items in order/ })).toContainText(`${state.title} — M`);

    // Bought: the line is done, and M is sold out again for everyone.
    await visit(page, "/members/events");
    await expect(page.getByRole("article", { name: state.title })).toHaveCount(0);
    await visit(page, `/shop/${state.slug}`);
    await expect(page.getByRole("group", { name: "Size" }).getByRole("radio", { name: /^M/ })).toBeDisabled();
  });
});
