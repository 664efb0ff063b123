import type { Page } from "@playwright/test";
import { joinAsMember, newMember, signIn } from "./accounts-helpers";
import { allowConsoleErrors, expect, test, visit } from "./fixtures";

/** What Chromium logs for a request made with no connection. */
const OFFLINE_RESOURCE = /^Failed to load resource: net::ERR_(FAILED|INTERNET_DISCONNECTED)$/;

// The member card works with no connection once it has been opened on the phone, and the copy
// goes when the browser signs out (docs/membership.md, "The member's pages").
test.use({ serviceWorkers: "allow" });

const DEMO_MEMBER = { email: "member@pitlane.test", password: "pitlane-member-demo", name: "Jamie Cole" };

/** Whether this browser holds the service worker's copy of the card page. */
function cardSaved(page: Page) {
  return page.evaluate(async () => {
    if (!(await caches.has("member-card"))) return false;
    return Boolean(await (await caches.open("member-card")).match("/members/card"));
  });
}

/** Waits until the service worker is installed and controls the page. */
async function workerInControl(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

test("the card opened once shows with no connection, and signing out deletes the copy", async ({ page, context }) => {
  await signIn(page, DEMO_MEMBER.email, DEMO_MEMBER.password, "/login?redirectTo=%2Fmembers%2Fmembership");
  await expect(page).toHaveURL("/members/membership");
  await workerInControl(page);

  // Followed from a link in the app, with no page load: the worker keeps the card all the same.
  await page.getByRole("link", { name: "Show my member card" }).click();
  const card = page.getByRole("article", { name: /member card$/ });
  await expect(card).toContainText(DEMO_MEMBER.name);
  await expect(card.getByText(/Saved on this phone/)).toBeHidden();
  await expect.poll(() => cardSaved(page)).toBe(true);

  // With no connection, whatever the worker has not kept (the splash images, a prefetch) fails to
  // load, and the browser logs it.
  allowConsoleErrors(page, OFFLINE_RESOURCE);
  await context.setOffline(true);
  await page.goto("/members/card");
  await expect(page.getByRole("heading", { level: 1, name: "Member card" })).toBeVisible();
  await expect(card).toContainText(DEMO_MEMBER.name);
  await expect(card).toContainText("Family");
  await expect(card.getByRole("img", { name: "QR code of your member card" })).toBeVisible();
  await expect(card.getByText(/^Saved on this phone: last updated \d{1,2} \w+ \d{4} at \d\d:\d\d$/)).toBeVisible();
  // The copy is HTML and CSS alone, styled from the worker's caches.
  await expect(page.locator("script")).toHaveCount(0);
  expect(await card.evaluate((element) => getComputedStyle(element).borderTopLeftRadius)).not.toBe("0px");

  // No other address gets the copy.
  for (const address of ["/members/card?from=test", "/members"]) {
    await page.goto(address);
    await expect(page.getByRole("heading", { level: 1, name: "You are offline" })).toBeVisible();
  }

  // Online, the page comes fresh from the server and says nothing of a copy.
  await context.setOffline(false);
  await visit(page, "/members/card");
  await expect(card.getByRole("img", { name: "QR code of your member card" })).toBeVisible();
  await expect(card.getByText(/Saved on this phone/)).toBeHidden();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("status").filter({ hasText: "You are signed out." })).toBeVisible();
  await expect.poll(() => page.evaluate(() => caches.has("member-card"))).toBe(false);

  await context.setOffline(true);
  await page.goto("/members/card");
  await expect(page.getByRole("heading", { level: 1, name: "You are offline" })).toBeVisible();
  await expect(page.getByRole("article", { name: /member card$/ })).toHaveCount(0);
  await context.setOffline(false);
});

test("deleting the account deletes the saved card", async ({ page }) => {
  test.setTimeout(90_000);
  const member = newMember("card-offline");
  await joinAsMember(page, member);
  await workerInControl(page);

  // A page without a card (no membership yet) is not kept.
  await visit(page, "/members/card");
  await expect(page.getByText("You are not a member yet, so there is no card to show.")).toBeVisible();
  expect(await cardSaved(page)).toBe(false);

  await page.goto("/membership");
  await page.getByRole("article", { name: "Annual" }).getByRole("button", { name: "Join Annual" }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await page
    .getByRole("region", { name: "Order summary" })
    .getByRole("button", { name: /^Pay £/ })
    .click();
  await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: /^Pay £/ }).click();
  await expect(page).toHaveURL(/\/success\?order=/);

  await visit(page, "/members/card");
  await expect(page.getByRole("article", { name: /member card$/ })).toContainText(member.name);
  await expect.poll(() => cardSaved(page)).toBe(true);

  await visit(page, "/settings#delete");
  const section = page.getByRole("region", { name: "Delete my account" });
  await section.getByLabel("Type your email address to confirm").fill(member.email);
  await section.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByText("Your account has been deleted.")).toBeVisible();
  await expect.poll(() => page.evaluate(() => caches.has("member-card"))).toBe(false);
});
