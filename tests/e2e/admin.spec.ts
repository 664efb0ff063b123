import type { Page } from "@playwright/test";
import { expect, test, visit } from "./fixtures";

// The demo accounts the e2e server seeds on its fresh embedded database (npm start prints them).
const demo = {
  admin: { email: "admin@pitlane.test", password: "pitlane-admin-demo", name: "Sam Hartley" },
  organizer: { email: "organizer@pitlane.test", password: "pitlane-organizer-demo", name: "Priya Nair" },
  member: { email: "member@pitlane.test", password: "pitlane-member-demo", name: "Jamie Cole" },
};

async function signIn(page: Page, account: { email: string; password: string }) {
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** A new member of its own, made through the sign-up form, so no other test depends on its role. */
async function signUpMember(page: Page) {
  const member = {
    name: `Rowan Apex ${Date.now().toString(36)}`,
    email: `rowan.${Date.now().toString(36)}@example.com`,
  };
  await visit(page, "/createAnAccount");
  await page.getByLabel("Your name").fill(member.name);
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password").fill("hairpin-chicane-straight");
  await page.getByLabel(/I accept the terms/).check();
  await page.getByRole("button", { name: "Create my account" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  return member;
}

test("an admin sees the overview figures and makes a member an organizer", async ({ page }) => {
  const member = await signUpMember(page);

  await visit(page, "/login?redirectTo=/admin");
  await signIn(page, demo.admin);
  await expect(page).toHaveURL("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Welcome back, Sam" })).toBeVisible();

  const figures = page.getByRole("region", { name: "Figures" });
  const figure = (label: string) =>
    figures.locator("div").filter({ has: page.getByRole("term").filter({ hasText: new RegExp(`^${label}$`) }) });
  for (const label of ["Members", "New members", "Staff", "Messages sent"]) {
    await expect(figure(label).getByRole("definition").first()).toHaveText(/^\d[\d,]*$/);
  }
  // The sign-up above sent a confirmation email, and made a new member: the figures count both.
  expect(Number(await figure("Messages sent").getByRole("definition").first().textContent())).toBeGreaterThanOrEqual(1);
  expect(Number(await figure("New members").getByRole("definition").first().textContent())).toBeGreaterThanOrEqual(4);
  await expect(page.getByRole("region", { name: "Newest members" })).toContainText(member.name);

  const dashboardNav = page.getByRole("navigation", { name: "Dashboard" });
  await dashboardNav.getByRole("link", { name: "Members & roles" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Members & roles" })).toBeVisible();

  await page.getByLabel("Search by name or email").fill(member.email);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("status").filter({ hasText: "1 account" })).toBeVisible();
  await page.getByRole("combobox", { name: `Role for ${member.name}` }).selectOption("organizer");
  await page.getByRole("button", { name: `Change role for ${member.name}` }).click();
  await expect(page.getByText(`${member.name} is now an organizer.`)).toBeVisible();
  await expect(page.getByRole("combobox", { name: `Role for ${member.name}` })).toHaveValue("organizer");

  // The list of organizers now has them.
  await page.getByLabel("Search by name or email").fill("");
  await page.getByLabel("Role", { exact: true }).selectOption("organizer");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/role=organizer/);
  await expect(page.getByRole("listitem").filter({ hasText: member.email })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: demo.member.email })).toHaveCount(0);
});

test("a member gets the 403 page on /admin, with nothing of the dashboard in it", async ({ page }) => {
  await visit(page, "/login?redirectTo=/admin");
  await signIn(page, demo.member);
  await expect(page.getByRole("heading", { level: 1, name: "You do not have access to this page" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Dashboard" })).toHaveCount(0);

  const answer = await page.request.get("/admin");
  expect(answer.status()).toBe(403);
  const html = await answer.text();
  expect(html).toContain("You do not have access to this page");
  for (const leak of ["Welcome back", "Messages sent", "Newest members", "Sign out", demo.admin.name]) {
    expect(html, `the 403 page mentions "${leak}"`).not.toContain(leak);
  }

  // The role change itself is refused too, whatever the form says.
  const post = await page.request.post("/admin/members", {
    form: { intent: "set-role", userId: "anyone", role: "admin" },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(post.status()).toBe(403);
});

test("a signed-out visitor on /admin signs in and comes back to the dashboard", async ({ page }) => {
  await page.goto("/admin");
  await expect(page).toHaveURL("/login?redirectTo=%2Fadmin");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

  await signIn(page, demo.organizer);
  await expect(page).toHaveURL("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Welcome back, Priya" })).toBeVisible();

  // Organizers see the areas they run; roles are for admins.
  const dashboardNav = page.getByRole("navigation", { name: "Dashboard" });
  await expect(dashboardNav.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await expect(dashboardNav.getByRole("link", { name: "Members & roles" })).toHaveCount(0);
  const answer = await page.goto("/admin/members");
  expect(answer?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the side navigation is a drawer that opens, navigates and closes", async ({ page }) => {
    await visit(page, "/login?redirectTo=/admin");
    await signIn(page, demo.admin);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome back, Sam" })).toBeVisible();

    const menu = page.locator("summary", { hasText: "Dashboard menu" });
    await expect(page.getByRole("link", { name: "Members & roles" })).toBeHidden();
    await menu.click();
    await page.getByRole("link", { name: "Members & roles" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Members & roles" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeHidden();

    await menu.click();
    await expect(page.getByRole("link", { name: "Overview" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("link", { name: "Overview" })).toBeHidden();
  });
});
