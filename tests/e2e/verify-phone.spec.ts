import { joinAsMember, uniqueEmail, waitForMessage } from "./accounts-helpers";
import { allowConsoleErrors, expect, test, visit } from "./fixtures";

const PASSWORD = "gravel trap at the hairpin 42";

test.beforeEach(({ page }) => {
  // This branch serves no /sw.js yet: Chromium reports the failed service worker registration.
  allowConsoleErrors(page, /A bad HTTP response code \(404\) was received when fetching the script/);
});

/** Signs up a new member and opens /verifyPhone, which starts on the site's default country. */
async function startVerifying(page: import("@playwright/test").Page, name: string) {
  await joinAsMember(page, { name, email: uniqueEmail("phone"), password: PASSWORD });
  await visit(page, "/verifyPhone");
  await expect(page.getByRole("heading", { name: "Verify your phone number" })).toBeVisible();
}

/** Sends a code to a UK mobile number and returns it as the text message gives it. */
async function sendCode(page: import("@playwright/test").Page, national: string, e164: string) {
  await page.getByLabel("Country").selectOption("GB");
  await page.getByLabel("Phone number").pressSequentially(national);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByRole("heading", { name: "Enter the code" })).toBeVisible();
  const [, code] = await waitForMessage(page, { to: e164, channel: "sms", pattern: /\b(\d{6})\b/ });
  return code!;
}

/** A different UK mobile number for each test: one member per number. */
function ukMobile() {
  const digits = String(100000 + Math.floor(Math.random() * 900000));
  return { national: `07400 ${digits}`, e164: `+447400${digits}` };
}

test("a member verifies a UK number with the code from the text message", async ({ page }) => {
  await startVerifying(page, "Phone Verifier");
  const number = ukMobile();
  await page.getByLabel("Country").selectOption("GB");
  // The number is formatted for the country as it is typed.
  await page.getByLabel("Phone number").pressSequentially(number.national.replace(" ", ""));
  await expect(page.getByLabel("Phone number")).toHaveValue(number.national);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByRole("heading", { name: "Enter the code" })).toBeVisible();
  await expect(page.getByText(`+44 7400 ${number.national.slice(6)}`)).toBeVisible();
  // A new code can be asked for only after a minute.
  await expect(page.getByRole("button", { name: /Send a new code in \d+ s/ })).toBeVisible();

  const [, code] = await waitForMessage(page, { to: number.e164, channel: "sms", pattern: /\b(\d{6})\b/ });
  await page.getByLabel("6-digit code").fill(code!);
  await page.getByRole("button", { name: "Verify", exact: true }).click();

  await expect(page.getByRole("status").filter({ hasText: "Your phone number is verified." })).toBeVisible();
  await expect(page).toHaveURL(/\/settings$/);
});

test("five wrong codes lock the code", async ({ page }) => {
  await startVerifying(page, "Wrong Codes");
  const number = ukMobile();
  const code = await sendCode(page, number.national, number.e164);
  const wrong = code === "000000" ? "111111" : "000000";

  for (const left of [4, 3, 2, 1]) {
    await page.getByLabel("6-digit code").fill(wrong);
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await expect(page.getByText(`That code is not right. ${left} ${left === 1 ? "try" : "tries"} left.`)).toBeVisible();
  }
  await page.getByLabel("6-digit code").fill(wrong);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page.getByText("Too many wrong codes. Ask for a new code.")).toBeVisible();

  // The right code does not open a locked code.
  await page.getByLabel("6-digit code").fill(code);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page.getByText("Too many wrong codes. Ask for a new code.")).toBeVisible();
  await expect(page).toHaveURL(/\/verifyPhone$/);
});

test("an invalid number gets a message on its field, not an error page", async ({ page, browser, baseURL }) => {
  await startVerifying(page, "Invalid Number");
  await page.getByLabel("Country").selectOption("GB");
  const phone = page.getByLabel("Phone number");
  // Ofcom's range for drama: not a real number.
  await phone.fill("07700 900123");
  await phone.blur();
  await expect(page.getByText("This is not a valid number for United Kingdom")).toBeVisible();
  await expect(phone).toHaveAttribute("aria-invalid", "true");

  // Without JavaScript the form posts as it is and the server gives the same answer.
  const noScript = await browser.newContext({
    baseURL,
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const plain = await noScript.newPage();
  await plain.goto("/verifyPhone");
  await plain.getByLabel("Country").selectOption("GB");
  await plain.getByLabel("Phone number").fill("07700 900123");
  const answer = plain.waitForResponse((response) => response.request().method() === "POST");
  await plain.getByRole("button", { name: "Send code" }).click();
  expect((await answer).status()).toBe(400);
  await expect(plain.getByText("This is not a valid number for United Kingdom")).toBeVisible();
  await expect(plain.getByLabel("Phone number")).toHaveValue("07700 900123");
  await noScript.close();
});

test("an international number moves the dropdown to its country", async ({ page }) => {
  await startVerifying(page, "International Number");
  await page.getByLabel("Country").selectOption("GB");
  await page.getByLabel("Phone number").pressSequentially("+33612345678");
  await expect(page.getByLabel("Phone number")).toHaveValue("+33 6 12 34 56 78");
  await expect(page.getByLabel("Country")).toHaveValue("FR");
  // The club texts only the countries it chose (here its own): nothing is sent to France.
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(
    page.getByText("We can't send texts to numbers in France. Use a number from United Kingdom."),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Enter the code" })).toHaveCount(0);
});

test.describe("a UK member whose browser is set to en-US", () => {
  test.use({ locale: "en-US" });

  test("starts on the site's country, and a UK number typed under another country is read as UK", async ({ page }) => {
    await startVerifying(page, "Browser Default");
    await expect(page.getByLabel("Country")).toHaveValue("GB");
    const number = ukMobile();
    await page.getByLabel("Country").selectOption("US");
    await page.getByLabel("Phone number").fill(number.national);
    await page.getByRole("button", { name: "Send code" }).click();
    await expect(page.getByRole("heading", { name: "Enter the code" })).toBeVisible();
    await expect(page.getByText(`+44 7400 ${number.national.slice(6)}`)).toBeVisible();
  });
});
