import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "@playwright/test";
import { latestMessage, type NewMember, newMember, saveStaffSession } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";

/**
 * A prize draw from entry to proof, as people see it: a draw of its own (20 entries, at most 5
 * each, "5 for £8"); a 17-year-old is refused; an adult member adds a 5-entry bundle with the
 * right answer and one number of their choosing without JavaScript, pays in the test checkout and sees five numbers on /success,
 * in the email and in their account; at their limit they cannot add more; the organizer records
 * a postal entry, which takes a number from the same pool; the organizer closes the draw, records
 * the beacon and draws; the verify page recomputes the same winner in the browser and
 * `npm run verify-draw` agrees. Each step needs the one before: serial.
 */
test.describe.configure({ mode: "serial", timeout: 90_000 });

const run = promisify(execFile);
const adult = newMember("entrant");
const minor = newMember("minor");
const sessionFile = (who: string) => path.resolve(`test-results/e2e/draw-journey-${who}.json`);

const journey = { slug: "", title: "", numbers: [] as number[], winner: "", adminPath: "" };

function yearsAgo(years: number, days = 0) {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** A member made by the fixture, with a date of birth and a verified phone; the session saved. */
async function saveEntrantSession(
  browser: Browser,
  member: NewMember,
  who: string,
  profile: { dateOfBirth: string; phone: string },
) {
  const context = await browser.newContext({ serviceWorkers: "block", storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const response = await page.request.post("/dev/fixtures/member", {
    headers: { Origin: origin },
    form: {
      email: member.email,
      name: member.name,
      password: member.password,
      handle: `${who}${Date.now().toString(36)}`,
      town: "Testbury",
      ...profile,
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
  await context.storageState({ path: sessionFile(who) });
  await context.close();
}

test.beforeAll(async ({ browser }) => {
  mkdirSync(path.dirname(sessionFile("x")), { recursive: true });
  // Phone numbers are one per account: each run takes numbers of its own from Ofcom's drama range.
  const phone = () => `+4477009${String(Math.floor(Math.random() * 100_000)).padStart(5, "0")}`;
  await saveEntrantSession(browser, adult, "adult", { dateOfBirth: "1990-04-01", phone: phone() });
  // Eighteen tomorrow: still 17 today.
  await saveEntrantSession(browser, minor, "minor", { dateOfBirth: yearsAgo(18, 1), phone: phone() });
  await saveStaffSession(browser, "organizer", sessionFile("organizer"));
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const made = await context.request.post(`${origin}/dev/fixtures/draw`, { headers: { Origin: origin } });
  expect(made.ok(), await made.text()).toBe(true);
  journey.slug = new URL(made.url()).pathname.replace("/giveaways/", "");
  await context.close();
});

test.describe("an under-18 member", () => {
  test.use({ storageState: sessionFile("minor") });

  test("cannot enter", async ({ page }) => {
    await visit(page, `/giveaways/${journey.slug}`);
    journey.title = (await page.getByRole("heading", { level: 1 }).textContent())!.trim();
    await page.getByLabel("Semi-slicks").check();
    await page.getByLabel(/I am 18 or over/).check();
    await page.getByRole("button", { name: "Add to cart" }).click();
    await expect(page.getByRole("alert")).toHaveText("You must be 18 or over to enter prize draws");
    await visit(page, "/cart");
    await expect(page.getByRole("region", { name: "Competition entries" })).toHaveCount(0);
  });
});

test.describe("an adult member", () => {
  test.use({ storageState: sessionFile("adult") });

  test.describe("without JavaScript", () => {
    // axe needs scripts; the same pages are scanned with JavaScript in the other steps.
    test.use({ javaScriptEnabled: false, skipAxe: true });

    test("adds a 5-entry bundle with the right answer", async ({ page }) => {
      await page.goto(`/giveaways/${journey.slug}`);
      await expect(page.getByText("Up to 5 entries per person.")).toBeVisible();
      await page.getByLabel("Semi-slicks").check();
      await page.getByLabel(/^5 entries/).check();
      // One number chosen; the other four come at random.
      await page.getByLabel("Choose your numbers (optional)").fill("3");
      await page.getByLabel(/I am 18 or over/).check();
      await page.getByRole("button", { name: "Add to cart" }).click();
      await expect(page).toHaveURL("/cart");
      await expect(page.getByRole("status").filter({ hasText: `5 entries for ${journey.title}` })).toBeVisible();
      const line = page.getByRole("listitem", { name: `${journey.title}, 5 entries` });
      await expect(line).toContainText("Your answer: Semi-slicks · Your numbers: 3");
    });
  });

  test("pays and sees five numbers on /success, in the email and in their account", async ({ page }) => {
    await visit(page, "/cart");
    await page.getByRole("button", { name: /^Pay £8\.00/ }).click();
    await expect(page).toHaveURL(/\/checkout\/test\/[0-9a-f-]{36}$/);
    await page.getByRole("button", { name: /^Pay £8\.00/ }).click();
    await expect(page).toHaveURL(/\/success\?order=/);
    const entries = page.getByRole("region", { name: "Your entry numbers" });
    const text = await entries
      .getByRole("listitem")
      .filter({ hasText: journey.title })
      .locator("p")
      .first()
      .textContent();
    journey.numbers = text!.split(",").map((n) => Number(n.trim()));
    expect(journey.numbers).toHaveLength(5);
    expect(new Set(journey.numbers).size).toBe(5);
    expect(journey.numbers).toContain(3);
    for (const number of journey.numbers) expect(number).toBeGreaterThanOrEqual(1);
    for (const number of journey.numbers) expect(number).toBeLessThanOrEqual(20);

    const email = await latestMessage(page.request, adult.email, /^Your entry numbers/);
    expect(email.text).toContain(`${journey.title}: entry numbers ${journey.numbers.join(", ")}`);

    await visit(page, "/members");
    const mine = page
      .getByRole("region", { name: "My entries" })
      .getByRole("listitem")
      .filter({ hasText: journey.title });
    await expect(mine).toContainText(`Numbers ${journey.numbers.join(", ")}`);
    await expect(mine).toContainText("Open");
  });

  test("at their limit cannot add more", async ({ page }) => {
    await visit(page, `/giveaways/${journey.slug}`);
    await expect(page.getByRole("region", { name: "Your entry numbers" })).toContainText(journey.numbers.join(", "));
    await expect(page.getByText("You hold 5 entries; you can add 0 more.")).toBeVisible();
    await expect(page.getByText("You have reached the limit for this draw.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Add to cart" })).toHaveCount(0);
    // Posting the form anyway (an old tab) is refused by the server.
    const origin = new URL(page.url()).origin;
    const response = await page.request.post(`/giveaways/${journey.slug}`, {
      headers: { Origin: origin },
      form: { answer: "1", bundle: "5", adult: "yes", intent: "add" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain("You have reached the limit of 5 entries per person");
  });
});

test.describe("the organizer and everyone after the draw", () => {
  test.use({ storageState: sessionFile("organizer") });

  /**
   * The organizer finds the draw in the list of live draws once; after that the page's own
   * address, since the minute's job may close the draw (moving it to the "Closed and drawn" tab)
   * at any moment once it is due.
   */
  async function openDraw(page: Page) {
    if (journey.adminPath) {
      await visit(page, journey.adminPath);
    } else {
      await visit(page, "/admin/draws");
      const link = page.getByRole("link", { name: journey.title, exact: true });
      journey.adminPath = (await link.getAttribute("href")) ?? "";
      await link.click();
    }
    await expect(page.getByRole("heading", { level: 1, name: journey.title })).toBeVisible();
  }

  test("records a postal entry, which takes a number from the same pool", async ({ page }) => {
    await openDraw(page);
    await page
      .getByRole("navigation", { name: "Draw pages" })
      .getByRole("link", { name: /Entries/ })
      .click();
    await page.getByLabel("Entrant's name").fill("Pat Postal");
    await page.getByLabel("Entrant's address").fill("1 High Street, Testbury TE1 1ST");
    await page.getByLabel("Their answer").selectOption({ label: "Semi-slicks" });
    await page.getByRole("button", { name: "Record postal entry" }).click();
    await expect(page.getByRole("status").filter({ hasText: /entry number \d+/i })).toBeVisible();

    await visit(page, `/giveaways/${journey.slug}`);
    // 5 paid + 1 postal of 20.
    await expect(page.getByRole("progressbar", { name: /entries sold/ })).toHaveAttribute("aria-valuenow", "30");
  });

  test("closes the draw at its time, records the beacon and draws; the page, the verify page and verify-draw agree", async ({
    page,
    baseURL,
  }) => {
    // The clock moves on to the closing time.
    const due = await page.request.post(`/dev/fixtures/draw-due?slug=${journey.slug}`, {
      headers: { Origin: new URL(baseURL!).origin },
    });
    expect(due.ok()).toBe(true);
    await openDraw(page);
    const live = page.getByRole("region", { name: "Live: taking entries" });
    const waiting = page.getByRole("region", { name: "Closed: waiting for the beacon" });
    // Now that the draw is due, the minute's close-draws job may close it before the organizer
    // does (then "Close now" is refused as no longer live): either way it ends closed and frozen.
    await expect(live.or(waiting)).toBeVisible();
    if (await live.isVisible()) {
      await live.getByLabel("Freeze the entry list now").check();
      await Promise.all([
        page.waitForResponse((response) => response.request().method() === "POST"),
        live.getByRole("button", { name: "Close now" }).click(),
      ]);
      // The same page again, as the server now has it.
      await visit(page, new URL(page.url()).pathname);
    }
    await expect(waiting).toContainText("6 eligible entries are frozen");
    await waiting.getByLabel("Beacon value").fill("01-12-23-34-45-56+07");
    await waiting.getByRole("button", { name: "Record beacon value" }).click();
    // Once the beacon is known the minute's job draws too, so the draw may already be drawn when
    // the page comes back, or by the time the organizer presses Draw (then told "Already drawn").
    const ready = page.getByRole("region", { name: "Ready to draw" });
    const drawn = page.getByRole("region", { name: "Drawn" });
    await expect(ready.or(drawn)).toBeVisible();
    if (await ready.isVisible()) {
      await ready.getByLabel("Draw now: the result is final").check();
      await ready.getByRole("button", { name: "Draw the winner" }).click();
      await expect(page.getByRole("status").filter({ hasText: /^(Already d|D)rawn: entry \d+ w/ })).toBeVisible();
    }
    journey.winner = ((await drawn.getByText(/^\d+$/).first().textContent()) ?? "").trim();
    expect(journey.winner).toMatch(/^\d+$/);

    await visit(page, `/giveaways/${journey.slug}`);
    const result = page.getByRole("region", { name: "Result" });
    await expect(result).toContainText(`Winning entry ${journey.winner}`);
    await expect(result).toContainText("The answer was Semi-slicks.");

    // The entry list after close: the five paid entries and the postal one.
    await result.getByRole("link", { name: "The entry list" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Entry list" })).toBeVisible();
    await expect(page.getByRole("table").getByRole("row")).toHaveCount(7);
    await expect(page.getByRole("row").filter({ hasText: "Pat P." })).toContainText("Post");

    await visit(page, `/giveaways/${journey.slug}/verify`);
    await expect(page.getByTestId("recomputed")).toHaveText(
      `Your browser drew entry ${journey.winner}. The draw checks out.`,
    );

    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", "scripts/verify-draw.ts", journey.slug, "--site", baseURL!],
      { cwd: path.resolve(".") },
    );
    expect(stdout).toContain(`winners recomputed: ${journey.winner} (published: ${journey.winner})`);
    expect(stdout).toContain("The draw checks out.");
  });

  test("the winner, if a member, is told and can choose the prize or the cash", async ({ page }) => {
    const won = journey.numbers.includes(Number(journey.winner));
    const email = await latestMessage(page.request, adult.email, won ? /^You won/ : /^The result of/);
    expect(email.text).toContain(
      won ? `Your entry ${journey.winner} was drawn` : `the winning entry is ${journey.winner}`,
    );
  });
});
