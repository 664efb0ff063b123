import path from "node:path";
import type { Browser } from "@playwright/test";
import { newMember, saveStaffSession } from "./accounts-helpers";
import { allowConsoleErrors, expect, FAILED_RESOURCE, test, visit } from "./fixtures";

/**
 * The community showcase as people use it: a visitor browses and filters the grid and opens a
 * car without seeing its private plate; two members like it, one with JavaScript and one
 * without, and each like counts once; a member reports it, an organizer hides it from the
 * moderation queue, and it is gone for everyone else. Each step needs the one before: serial.
 */
test.describe.configure({ mode: "serial", timeout: 90_000 });

const sessionFile = (who: string) => path.resolve(`test-results/e2e/community-${who}.json`);
const shared = { carId: "", model: "", handle: "" };

async function saveMemberSession(browser: Browser, who: string) {
  const member = newMember(who);
  const context = await browser.newContext({ serviceWorkers: "block", storageState: { cookies: [], origins: [] } });
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const response = await context.request.post(`${origin}/dev/fixtures/member`, {
    headers: { Origin: origin },
    form: { ...member, handle: `${who}${Date.now().toString(36)}`, town: "Testbury" },
  });
  expect(response.ok(), await response.text()).toBe(true);
  await context.storageState({ path: sessionFile(who) });
  await context.close();
}

test.beforeAll(async ({ browser }) => {
  await saveMemberSession(browser, "liker");
  await saveMemberSession(browser, "nojs");
  await saveStaffSession(browser, "organizer", sessionFile("organizer"));
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const made = await context.request.post(`${origin}/dev/fixtures/community-car`, { headers: { Origin: origin } });
  expect(made.ok(), await made.text()).toBe(true);
  shared.carId = new URL(made.url()).pathname.split("/").at(-1)!;
  const html = await made.text();
  shared.model = /Roadster [0-9a-f]{8}/.exec(html)![0];
  shared.handle = /@(fixture_[0-9a-f]{8})/.exec(html)![1]!;
  await context.close();
});

test("a visitor filters the community, opens a car and sees no plate", async ({ page }) => {
  await visit(page, "/community");
  await expect(page.getByRole("heading", { level: 1, name: "Community" })).toBeVisible();
  await page.getByLabel("Make").selectOption("Fixturemobile");
  await expect(page).toHaveURL(/make=Fixturemobile/);
  await page.getByLabel("Search").fill(shared.model);
  await page.getByRole("button", { name: "Find cars" }).click();
  await expect(page.getByRole("heading", { name: /^1 car Fixturemobile/ })).toBeVisible();
  await page.getByRole("link", { name: `1994 Fixturemobile ${shared.model}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `1994 Fixturemobile ${shared.model}` })).toBeVisible();
  await expect(page.getByText("Built for the tests.")).toBeVisible();
  await expect(page.getByText("Bucket seats")).toBeVisible();
  expect(await page.content()).not.toContain("FX94");
  const photo = page.getByRole("img", { name: `1994 Fixturemobile ${shared.model}, photo 1` }).first();
  await expect(photo).toBeVisible();
  // Visible as soon as it is laid out; loaded (through the site, which checks who may see it) a moment later.
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByRole("link", { name: "Sign in to like this car" })).toBeVisible();
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /\/cars\/[0-9a-f]+-1600\.webp$/);

  await page.getByRole("link", { name: /Fixture Owner/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: /Fixture Owner/ })).toBeVisible();
  await expect(page.getByText("Testbury")).toBeVisible();
});

test.describe("a member", () => {
  test.use({ storageState: sessionFile("liker") });

  test("likes the car once, with JavaScript", async ({ page }) => {
    await visit(page, `/community/cars/${shared.carId}`);
    const like = page.getByRole("button", { name: /^Like/ });
    await expect(like).toHaveAttribute("aria-pressed", "false");
    // The button says "Liked" as soon as it is pressed, while the like is still on its way: a
    // reload before the server has answered would cancel it, so the test waits for the answer.
    const saved = page.waitForResponse(
      (response) =>
        response.request().method() === "POST" &&
        new URL(response.url()).pathname.startsWith(`/community/cars/${shared.carId}`),
    );
    await like.click();
    const liked = page.getByRole("button", { name: /^Liked 1 like/ });
    await expect(liked).toHaveAttribute("aria-pressed", "true");
    expect((await saved).ok()).toBe(true);
    await page.reload();
    await expect(page.getByRole("button", { name: /^Liked 1 like/ })).toBeVisible();
  });
});

test.describe("another member without JavaScript", () => {
  test.use({ storageState: sessionFile("nojs"), javaScriptEnabled: false, skipAxe: true });

  test("likes it with a plain form, and reports it", async ({ page }) => {
    await page.goto(`/community/cars/${shared.carId}`);
    await page.getByRole("button", { name: /^Like 1 like/ }).click();
    await expect(page.getByRole("button", { name: /^Liked 2 likes/ })).toBeVisible();
    await page.getByText("Report this car or a photo").click();
    await page.getByLabel("Why?").selectOption("offensive");
    await page.getByLabel(/Anything the moderators should know/).fill("Offensive sticker on the bonnet");
    await page.getByRole("button", { name: "Send report" }).click();
    await expect(page.getByText("Thank you: the moderators will look at your report.")).toBeVisible();
  });
});

test.describe("an organizer", () => {
  test.use({ storageState: sessionFile("organizer") });

  test("hides the reported car from the moderation queue", async ({ page }) => {
    await visit(page, "/admin/moderation");
    const card = page.getByRole("article", { name: `1994 Fixturemobile ${shared.model}` });
    await expect(card.getByText("Offensive sticker on the bonnet")).toBeVisible();
    const form = card.getByRole("group", { name: "The whole car" });
    await form.getByLabel("Hide").check();
    await card.getByLabel("Note to the owner (emailed)").first().fill("The sticker breaks the club's rules.");
    await card.getByRole("button", { name: "Decide" }).first().click();
    await expect(page.getByText(/is hidden\. The owner has been emailed\./)).toBeVisible();
  });
});

test("the hidden car is gone for visitors", async ({ page }) => {
  allowConsoleErrors(page, FAILED_RESOURCE);
  const response = await page.goto(`/community/cars/${shared.carId}`);
  expect(response?.status()).toBe(404);
  await visit(page, `/community?q=${encodeURIComponent(shared.model)}`);
  await expect(page.getByText("No cars match these filters.")).toBeVisible();
});
