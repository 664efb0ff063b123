import { joinAsMember, newMember, waitForMessage } from "./accounts-helpers";
import { allowConsoleErrors, expect, test, visit } from "./fixtures";

test.beforeEach(({ page }) => {
  // This branch serves no /sw.js yet: Chromium reports the failed service worker registration.
  allowConsoleErrors(page, /A bad HTTP response code \(404\) was received when fetching the script/);
});

/** A different UK mobile number for each run: one member per number. */
function ukMobile() {
  const digits = String(100000 + Math.floor(Math.random() * 900000));
  return { national: `07400${digits}`, e164: `+447400${digits}` };
}

/** A new member who may enter paid competitions: an adult date of birth and a verified phone. */
async function joinAsEntrant(page: import("@playwright/test").Page) {
  await joinAsMember(page, newMember("play"));
  await visit(page, "/settings");
  await page.getByLabel("Date of birth (optional)").fill("1990-04-12");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("status").filter({ hasText: /saved|updated/i })).toBeVisible();

  const number = ukMobile();
  await visit(page, "/verifyPhone");
  await page.getByLabel("Country").selectOption("GB");
  await page.getByLabel("Phone number").pressSequentially(number.national);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByRole("heading", { name: "Enter the code" })).toBeVisible();
  const [, code] = await waitForMessage(page, { to: number.e164, channel: "sms", pattern: /\b(\d{6})\b/ });
  await page.getByLabel("6-digit code").fill(code!);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your phone number is verified." })).toBeVisible();
}

test("a member with a £0 weekly limit cannot pay for entries, and keeps them in the cart", async ({ page }) => {
  test.setTimeout(90_000);
  await joinAsEntrant(page);

  await visit(page, "/giveaways/win-a-mk2-golf-gti");
  await page.locator('input[name="answer"]').first().check();
  await page.getByLabel(/I am 18 or over/).check();
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status").filter({ hasText: /cart/i })).toBeVisible();

  await visit(page, "/settings/responsiblePlay");
  await expect(page.getByRole("heading", { level: 1, name: "Responsible play" })).toBeVisible();
  await page.getByLabel("Weekly limit (£)").fill("0");
  await page.getByRole("button", { name: "Save limits" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your spending limits are saved." })).toBeVisible();
  await expect(page.getByText(/£0\.00 left of £0\.00/)).toBeVisible();

  await visit(page, "/cart");
  await page.getByRole("button", { name: /^Pay/ }).first().click();
  await expect(page.getByRole("alert")).toContainText(
    "Your weekly limit for prize draws is £0.00, so paid entries are off",
  );
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole("link", { name: /Win a 1989 Mk2 Golf GTI 16v/ }).first()).toBeVisible();
});

test("the public responsible-play page lists the measures and how to complain", async ({ page }) => {
  await visit(page, "/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Responsible play" }).click();
  await expect(page).toHaveURL(/\/responsible-play$/);
  await expect(page.getByRole("heading", { level: 1, name: "Responsible play" })).toBeVisible();
  for (const measure of ["18 or over only", "Spending limits, including £0", "Self-exclusion", "Free entry by post"]) {
    await expect(page.getByRole("heading", { level: 3, name: measure })).toBeVisible();
  }
  const complaints = page.getByRole("region", { name: "Complaints" });
  await expect(complaints.getByRole("link", { name: /@/ })).toHaveAttribute("href", /^mailto:/);
  await expect(complaints).toContainText("within 2 working days");
});
