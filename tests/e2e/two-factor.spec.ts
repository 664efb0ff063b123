import { authenticatorCode } from "../../app/features/accounts/totp.test-support";
import { joinAsMember, newMember, signIn } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

test("a member turns on two-factor sign-in, then signs in with a code or a recovery code", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const member = newMember("two-factor");
  await joinAsMember(page, member);

  await visit(page, "/settings");
  const signInSection = page.getByRole("region", { name: "Password, phone and sign-in" });
  await signInSection.getByRole("link", { name: "Set up two-factor sign-in" }).click();
  await expect(page.getByRole("heading", { name: "Two-factor sign-in", level: 1 })).toBeVisible();

  // A wrong password is refused on its field.
  await page.getByLabel("Your password").fill("not my password at all");
  await page.getByRole("button", { name: "Start set-up" }).click();
  await expect(page.getByText("The password is not right.")).toBeVisible();
  await page.getByLabel("Your password").fill(member.password);
  await page.getByRole("button", { name: "Start set-up" }).click();

  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const key = await page.getByText(/^([A-Z2-7]{4} ?)+$/).textContent();
  const recoveryCodes = await page
    .getByRole("listitem")
    .filter({ hasText: /^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/ })
    .allTextContents();
  expect(recoveryCodes).toHaveLength(10);

  // A wrong first code keeps the same set-up on screen.
  await page.getByLabel("6-digit code").fill("000000");
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await expect(page.getByText("That code is not right.")).toBeVisible();
  await expect(page.getByText(key!)).toBeVisible();
  await page.getByLabel("6-digit code").fill(authenticatorCode(key!));
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await expect(page).toHaveURL(/\/settings#sign-in$/);
  await expect(page.getByRole("status").filter({ hasText: "Two-factor sign-in is on." })).toBeVisible();
  await expect(signInSection.getByText("On", { exact: true })).toBeVisible();

  // Another browser: the password alone is not enough.
  const other = await browser.newContext({ serviceWorkers: "block" });
  const laptop = await other.newPage();
  await signIn(laptop, member.email, member.password);
  await expect(laptop).toHaveURL("/login/code?redirectTo=%2Fmembers");
  await expect(laptop.getByRole("heading", { name: "Enter your code" })).toBeVisible();
  await laptop.getByLabel("Code").fill("000000");
  await laptop.getByRole("button", { name: "Sign in" }).click();
  await expect(laptop.getByText("That code is not right.")).toBeVisible();
  await laptop.getByLabel("Code").fill(recoveryCodes[0]!);
  await laptop.getByRole("button", { name: "Sign in" }).click();
  await expect(laptop).toHaveURL("/members");

  // The first browser sees the laptop among its devices and signs it out.
  await visit(page, "/settings");
  const devices = page.getByRole("region", { name: "Where you're signed in" });
  await expect(devices.getByRole("listitem")).toHaveCount(2);
  await expect(devices.getByText("This device")).toBeVisible();
  await devices.getByRole("button", { name: /^Sign out/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "That device has been signed out." })).toBeVisible();
  await expect(devices.getByRole("listitem")).toHaveCount(1);
  await visit(laptop, "/members");
  await expect(laptop).toHaveURL("/login?redirectTo=%2Fmembers");

  // A used recovery code does not work twice; the app's code does, and the device can be trusted.
  await signIn(laptop, member.email, member.password);
  await laptop.getByLabel("Code").fill(recoveryCodes[0]!);
  await laptop.getByRole("button", { name: "Sign in" }).click();
  await expect(laptop.getByText("That code is not right.")).toBeVisible();
  await laptop.getByLabel("Code").fill(authenticatorCode(key!));
  await laptop.getByLabel("Trust this device for 30 days (not on a shared computer)").check();
  await laptop.getByRole("button", { name: "Sign in" }).click();
  await expect(laptop).toHaveURL("/members");
  await other.close();
});

test("the code page sends a visitor with no sign-in under way back to sign in", async ({ page }) => {
  await visit(page, "/login/code");
  await expect(page).toHaveURL("/login");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

test("a member without two-factor sign-in has nothing to enter after the password", async ({ page, browser }) => {
  const member = newMember("one-factor");
  await joinAsMember(page, member);
  const other = await browser.newContext({ serviceWorkers: "block" });
  const laptop = await other.newPage();
  await signIn(laptop, member.email, member.password);
  await expect(laptop).toHaveURL("/members");
  await other.close();
});
