import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { joinAsMember, latestMessage, newMember, saveStaffSession, signIn } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

/**
 * Joining the club, as people see it: a visitor reads the tiers and their key terms, is asked to
 * sign in to join, follows a joining-offer link, joins the annual tier with its code through the
 * cart and the test checkout, and finds the
 * member card with its QR; then turns renewal off in two clicks. An organizer adds a tier, which
 * shows on the membership page at once. Each step needs the one before.
 */
test.describe.configure({ mode: "serial", timeout: 60_000 });

const member = newMember("joiner");
const journey = { cardCode: "" };
const adminSession = path.resolve("test-results/e2e/membership-organizer.json");

test.beforeAll(async ({ browser }) => {
  mkdirSync(path.dirname(adminSession), { recursive: true });
  await saveStaffSession(browser, "organizer", adminSession);
});

test("a visitor reads the tiers and their key terms, and is asked to sign in to join", async ({ page }) => {
  await page.goto("/membership");
  await expect(page.getByRole("heading", { level: 1, name: /^Join / })).toBeVisible();
  const annual = page.getByRole("article", { name: "Annual" });
  await expect(annual.getByRole("region", { name: "Key terms of Annual" })).toContainText(
    "Within 14 days of joining or renewing you can cancel for a refund",
  );
  const family = page.getByRole("article", { name: "Family" });
  await expect(family.getByLabel("Person 5's name")).toBeVisible();
  // The page is plain HTML and CSS: its forms need none of the app's scripts.
  await expect(page.locator('script[type="module"]')).toHaveCount(0);

  // Members' offers on event pages: a presale and a member price, and an event for members alone.
  await visit(page, "/events/oulton-park-novice-track-evening");
  const novice = noviceTicket(page);
  await expect(novice).toContainText("Members can buy now, in the members' presale. Members pay £129.");
  await expect(novice.getByRole("button", { name: /^Add to cart/ })).toHaveCount(0);
  await visit(page, "/events/castle-combe-night-meet");
  await expect(page.getByText("Tickets for this event are for club members only.")).toBeVisible();

  await page.goto("/membership");
  await page.getByRole("article", { name: "Annual" }).getByRole("button", { name: "Join Annual" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fmembership/);
  await expect(page.getByRole("status").filter({ hasText: "Sign in, or create an account, to join" })).toBeVisible();
});

test("a visitor with a joining code joins the annual tier, pays less, and sees the card with its QR", async ({
  page,
}) => {
  // The club's joining offer, by link: the code waits in the visitor's cart and comes with them.
  await page.goto("/cart?voucher=welcome10");
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole("status").filter({ hasText: "Code WELCOME10 added to your cart." })).toBeVisible();
  await expect(page.getByRole("region", { name: "Discount code" })).toContainText("WELCOME10");
  await joinAsMember(page, member);
  await page.goto("/membership");
  await page.getByRole("article", { name: "Annual" }).getByRole("button", { name: "Join Annual" }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole("status").filter({ hasText: "Annual membership is in your cart" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("listitem", { name: "Annual membership" })).toBeVisible();
  const summary = page.getByRole("region", { name: "Order summary" });
  await expect(summary).toContainText("Code WELCOME10");
  await expect(page.getByRole("region", { name: "Discount code" })).toContainText(/Takes £\d+\.\d\d off this order/);

  await summary.getByRole("button", { name: /^Pay £/ }).click();
  await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("table", { name: "What you are paying for" })).toContainText("Annual membership");
  await expect(page.getByRole("table", { name: "What you are paying for" })).toContainText("Code WELCOME10");
  await page.getByRole("button", { name: /^Pay £/ }).click();
  await expect(page).toHaveURL(/\/success\?order=/);
  await expect(page.getByText("Annual membership")).toBeVisible();

  await visit(page, "/members/card");
  const card = page.getByRole("article", { name: /member card$/ });
  await expect(card).toContainText(member.name);
  await expect(card).toContainText("Annual");
  await expect(card).toContainText("Valid");
  await expect(card.getByRole("img", { name: "QR code of your member card" })).toBeVisible();
  const codeLine = card.locator("p").filter({ hasText: /^Card code / });
  journey.cardCode = ((await codeLine.textContent()) ?? "").replace("Card code ", "").trim();

  // In the presale, at the member price, with what membership saved.
  await visit(page, "/events/oulton-park-novice-track-evening");
  const novice = noviceTicket(page);
  await expect(novice).toContainText("Member price");
  await expect(novice).toContainText("Price: £129");
  await novice.getByLabel("Quantity").selectOption("1");
  await novice.getByRole("button", { name: "Add to cart: Novice driver with instructor" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Added 1 × Novice driver with instructor to your cart." }),
  ).toBeVisible();
  await visit(page, "/cart");
  // The joining code left the cart with the order that used it.
  await expect(page.getByRole("region", { name: "Discount code" })).not.toContainText("WELCOME10");
  await expect(summary).toContainText("Membership saved you£20.00");
  await summary.getByRole("button", { name: "Pay £129.00" }).click();
  // The cart's Pay button has the same name: wait for the test checkout before pressing its own.
  await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Pay £129.00" }).click();
  await expect(page).toHaveURL(/\/success\?order=/);

  // Joining again while a member is refused, on the tier it was about.
  await page.goto("/membership");
  await page.getByRole("article", { name: "Family" }).getByRole("button", { name: "Join Family" }).click();
  await expect(page.getByRole("article", { name: "Family" })).toContainText("You are already a member, until");
});

test("the gate lets the member card in at a members' event once, and says so at another event", async ({ browser }) => {
  const context = await browser.newContext({ storageState: adminSession });
  const page = await context.newPage();
  const checkIn = async (title: string) => {
    await visit(page, "/admin/check-in");
    await page.getByLabel("Find an event by title, venue or town").fill(title);
    await page.getByRole("button", { name: "Search" }).click();
    await page
      .getByRole("link", { name: new RegExp(title) })
      .first()
      .click();
    await page.getByLabel("Ticket code").fill(journey.cardCode);
    await page.getByRole("button", { name: "Check in" }).click();
  };
  expect(journey.cardCode).toMatch(/^[0-9A-Z]{4}( [0-9A-Z]{1,4}){6}$/);
  await checkIn("Castle Combe night meet");
  await expect(page.getByRole("status").filter({ hasText: `Member: ${member.name}, Annual` })).toBeVisible();
  await page.getByLabel("Ticket code").fill(journey.cardCode);
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Already checked in" })).toContainText(
    `Member: ${member.name}`,
  );
  await checkIn("Japanese Performance Day");
  await expect(page.getByRole("status").filter({ hasText: "Member, not valid for entry" })).toBeVisible();
  await context.close();
});

test("the member turns renewal off in two clicks, and can turn it back on", async ({ page }) => {
  await signIn(page, member.email, member.password, "/login?redirectTo=/members");
  await page.waitForURL((url) => url.pathname === "/members");
  await page.getByRole("navigation", { name: "Members" }).getByRole("link", { name: "My membership" }).click();
  await expect(page.getByRole("heading", { name: "Annual" })).toBeVisible();
  await expect(page.getByText(/^Renews on /)).toBeVisible();

  await page.getByRole("link", { name: "Turn off renewal" }).click();
  await page.getByRole("button", { name: "Yes, turn renewal off" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Renewal is off." })).toBeVisible();
  await expect(page.getByText(/^Off: your membership ends on /)).toBeVisible();

  await page.getByRole("button", { name: "Turn renewal back on" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Renewal is back on" })).toBeVisible();
});

/** The novice evening's driver ticket, on its event page. */
function noviceTicket(page: Page) {
  return page
    .getByRole("region", { name: "Tickets" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: /^Novice driver with instructor/ }) });
}

/** Time passes for the signed-in member's membership on the test clock, and the clock runs. */
async function clock(page: Page, fields: { daysBeforeRenewal: string; card?: string }) {
  const response = await page.request.post("/dev/fixtures/membership-clock", {
    headers: { Origin: new URL(test.info().project.use.baseURL!).origin },
    form: fields,
  });
  expect(response.ok(), await response.text()).toBe(true);
  // The fixture sends the browser on to the membership page with what the clock did.
  return Object.fromEntries(new URL(response.url()).searchParams);
}

test("the reminder comes before the renewal; a declined renewal sends the grace email; then the card says lapsed", async ({
  page,
}) => {
  await signIn(page, member.email, member.password, "/login?redirectTo=/members");
  await page.waitForURL((url) => url.pathname === "/members");

  expect(await clock(page, { daysBeforeRenewal: "10" })).toMatchObject({ reminded: "1", renewed: "0" });
  const reminder = await latestMessage(page.request, member.email, /Your Annual membership renews on/);
  expect(reminder.text).toMatch(/Turn off renewal: http:\/\/localhost:\d+\/membership\/renewal\//);
  expect(reminder.text).toContain("charged to the card you paid with");

  expect(await clock(page, { daysBeforeRenewal: "-0.05", card: "declined" })).toMatchObject({ renewed: "0" });
  const failed = await latestMessage(page.request, member.email, /We could not renew your Annual membership/);
  expect(failed.text).toContain("We will try again on");
  await visit(page, "/members/membership");
  await expect(page.getByText("Renewal not paid")).toBeVisible();
  await visit(page, "/members/card");
  await expect(page.getByRole("article", { name: /member card$/ })).toContainText("Valid: renewal not paid yet");

  expect(await clock(page, { daysBeforeRenewal: "-8" })).toMatchObject({ lapsed: "1" });
  await latestMessage(page.request, member.email, /Your Annual membership has lapsed/);
  await visit(page, "/members/card");
  const card = page.getByRole("article", { name: /member card$/ });
  await expect(card).toContainText("Lapsed");
  await expect(card.getByRole("img", { name: "QR code of your member card" })).toHaveCount(0);
});

test("a member who changes their mind within 14 days cancels in two clicks and is refunded", async ({ page }) => {
  await joinAsMember(page, newMember("cooling"));
  await page.goto("/membership");
  const family = page.getByRole("article", { name: "Family" });
  await family.getByLabel("Person 2's name").fill("Alex Driver");
  await family.getByRole("button", { name: "Join Family" }).click();
  await expect(page.getByRole("main").getByRole("listitem", { name: "Family membership" })).toContainText(
    "With Alex Driver",
  );
  await page.getByRole("region", { name: "Order summary" }).getByRole("button", { name: "Pay £60.00" }).click();
  await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Pay £60.00" }).click();
  await expect(page).toHaveURL(/\/success\?order=/);

  await visit(page, "/members/membership");
  await expect(page.getByText(/you can cancel and get £60\.00 back\. Your membership/)).toBeVisible();
  await page.getByRole("link", { name: "Cancel my membership" }).click();
  await page.getByRole("button", { name: "Yes, cancel and refund £60.00" }).click();
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: "Your membership is cancelled. £60.00 is on its way back to your card." }),
  ).toBeVisible();
  await expect(page.getByText("Ended", { exact: true })).toBeVisible();
});

test.describe("the organizer", () => {
  test.use({ storageState: adminSession });

  test("adds a tier, with a clear message for a mistake, and it shows on the membership page", async ({ page }) => {
    await visit(page, "/admin/membership");
    await page.getByRole("link", { name: "New tier" }).click();
    await page.getByLabel("Name").fill("Junior");
    await page.getByLabel("Price (£)", { exact: true }).fill("twelve");
    await page.getByLabel("Club year starts: day").fill("31");
    await page.getByLabel("Club year starts: month").selectOption("2");
    await page.getByRole("button", { name: "Save tier" }).click();
    await expect(page.getByText("Enter an amount like 12.50 in £ (0 for free)")).toBeVisible();
    await page.getByLabel("Price (£)", { exact: true }).fill("12");
    await page.getByRole("button", { name: "Save tier" }).click();
    await expect(page.getByText("That month has fewer days")).toBeVisible();
    await page.getByLabel("Club year starts: day").fill("1");
    await page.getByLabel("Benefits").fill("Entry to junior track days\nA club cap");
    await page.getByLabel("On sale: shown on the membership page, open to join").check();
    await page.getByRole("button", { name: "Save tier" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Junior is saved and on sale." })).toBeVisible();
    await expect(page.getByRole("link", { name: "Junior" })).toBeVisible();

    await page.goto("/membership");
    const junior = page.getByRole("article", { name: "Junior" });
    await expect(junior).toContainText("A club cap");
    await expect(junior).toContainText("the club year from 1 February");

    // The member list finds the joiner, whose membership lapsed on the test clock.
    await visit(page, "/admin/membership/members");
    await page.getByLabel("Name or email").fill(member.email);
    await page.getByRole("button", { name: "Search" }).click();
    const row = page.getByRole("listitem").filter({ hasText: member.email });
    await expect(row).toContainText("Lapsed");
    await expect(row).toContainText("Annual");
  });
});
