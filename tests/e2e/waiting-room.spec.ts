import path from "node:path";
import type { Browser, PlaywrightWorkerArgs } from "@playwright/test";
import { type NewMember, newMember, saveStaffSession } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";
import { londonTime } from "./london-time";

// An on-sale through the waiting room, as an organizer sets it up and as visitors see it with
// scripts turned off: a place belongs to a signed-in member and the page refreshes itself.
const sessionFile = path.resolve("test-results/e2e/waiting-room-organizer.json");
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

test.beforeAll(async ({ browser }) => {
  await saveStaffSession(browser, "organizer", sessionFile);
});

/**
 * A published event whose sales opened two minutes ago through a queue letting one person
 * through a minute: about three turns given so far, and no more for a few minutes.
 */
async function queuedEvent(browser: Browser) {
  const context = await browser.newContext({ storageState: sessionFile, serviceWorkers: "block" });
  const page = await context.newPage();
  const title = `Midnight Rally ${unique()}`;
  const day = londonTime(new Date(Date.now() + 20 * 24 * 3600 * 1000)).slice(0, 10);
  await visit(page, "/admin/events/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Kind of event").selectOption("meet");
  await page.getByLabel("Starts").fill(`${day}T18:00`);
  await page.getByLabel("Ends").fill(`${day}T23:00`);
  await page.getByLabel("Venue").fill("Harbour Quay");
  await page.getByLabel("Town").fill("Whitby");
  await page.getByLabel("Sales open (optional)").fill(londonTime(new Date(Date.now() - 2 * 60_000)));
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  const eventPages = page.getByRole("navigation", { name: "Event pages" });
  await eventPages.getByRole("link", { name: /Tickets/ }).click();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Ticket name").fill("Rally pass");
  await page.getByLabel("Price").fill("12");
  await page.getByRole("button", { name: "Add ticket type" }).click();
  await expect(page.getByText("“Rally pass” added.")).toBeVisible();

  await eventPages.getByRole("link", { name: /Queue/ }).click();
  await expect(page.getByRole("heading", { name: "Waiting room" })).toBeVisible();
  await page.getByLabel("Sell tickets through a queue").check();
  await page.getByLabel("People let through a minute").fill("1");
  await page.getByLabel("Minutes to buy once through").fill("10");
  await page.getByRole("button", { name: "Save queue settings" }).click();
  await expect(page.getByText("Queue settings saved.")).toBeVisible();
  await expect(page.getByText("0 in the queue, 0 let through.")).toBeVisible();

  await eventPages.getByRole("link", { name: "Details" }).click();
  await page.getByRole("complementary", { name: "Status" }).getByRole("button", { name: "Publish event" }).click();
  await expect(page.getByText("Published. The event is now listed on the site.")).toBeVisible();
  const slug = new URL(
    (await page.getByRole("link", { name: "View on the site" }).getAttribute("href")) ?? "",
    page.url(),
  ).pathname
    .split("/")
    .pop()!;
  return { title, slug, organizer: context, organizerPage: page };
}

test("visitors join an on-sale's queue without scripts, see their turn or their place and wait, and cannot buy early", async ({
  browser,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { title, slug, organizer, organizerPage } = await queuedEvent(browser);

  // The first visitor, scripts off: the event page points to the queue.
  const first = await browser.newContext({ javaScriptEnabled: false, serviceWorkers: "block" });
  const firstPage = await first.newPage();
  await firstPage.goto(`/events/${slug}`);
  await expect(firstPage.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(
    firstPage.getByText("Tickets are sold through a queue: join it, and buy when it is your turn."),
  ).toBeVisible();
  await firstPage.getByRole("link", { name: "Join the queue" }).click();
  await expect(firstPage).toHaveURL(`/events/${slug}/queue`);
  await expect(firstPage.getByRole("heading", { level: 1, name: title })).toBeVisible();
  // A place belongs to an account: the visitor is asked to sign in first, and brought back.
  const queuePath = `/events/${slug}/queue`;
  const signInLink = firstPage.getByRole("link", { name: "Sign in to join the queue" });
  await expect(signInLink).toHaveAttribute("href", `/login?redirectTo=${encodeURIComponent(queuePath)}`);
  const origin = new URL(baseURL!).origin;
  const member = newMember("queue");
  await (await makeMember(playwright, baseURL!, member)).dispose();
  await signInLink.click();
  await firstPage.getByLabel("Email").fill(member.email);
  await firstPage.getByLabel("Password", { exact: true }).fill(member.password);
  await firstPage.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(firstPage).toHaveURL(queuePath);
  await firstPage.getByRole("button", { name: "Join the queue" }).click();
  // Sales opened two minutes ago and nobody was ahead: straight through, with a time limit.
  await expect(firstPage.getByRole("heading", { name: "It is your turn" })).toBeVisible();
  await expect(firstPage.getByText(/You can buy tickets until \w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2}/)).toBeVisible();
  await expect(firstPage.getByRole("link", { name: "Choose your tickets" })).toHaveAttribute(
    "href",
    `/events/${slug}#tickets`,
  );

  // Someone not signed in who posts Join is sent to sign in, and gets no place.
  const anonymous = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Origin: origin } });
  const refused = await anonymous.post(queuePath, { form: { intent: "join" }, maxRedirects: 0 });
  expect(refused.status()).toBe(303);
  expect(refused.headers().location).toBe(`/login?redirectTo=${encodeURIComponent(queuePath)}`);
  await anonymous.dispose();

  // Seven more members join from elsewhere, each signed in on its own browser.
  for (let index = 0; index < 7; index++) {
    const other = await makeMember(playwright, baseURL!, newMember("queue"));
    const joined = await other.post(queuePath, { form: { intent: "join" }, maxRedirects: 0 });
    expect(joined.status()).toBe(303);
    expect(joined.headers().location).toBe(queuePath);
    await other.dispose();
  }

  // The ninth: one a minute are let through, so behind the turns given so far.
  const late = await browser.newContext({ javaScriptEnabled: false, serviceWorkers: "block" });
  const latePage = await late.newPage();
  const lateMember = newMember("queue");
  await (await makeMember(playwright, baseURL!, lateMember)).dispose();
  await latePage.goto(`/login?redirectTo=${encodeURIComponent(queuePath)}`);
  await latePage.getByLabel("Email").fill(lateMember.email);
  await latePage.getByLabel("Password", { exact: true }).fill(lateMember.password);
  await latePage.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(latePage).toHaveURL(queuePath);
  await expect(latePage.getByText("8 people in the queue.")).toBeVisible();
  await latePage.getByRole("button", { name: "Join the queue" }).click();
  await expect(latePage.getByRole("heading", { name: "You are in the queue" })).toBeVisible();
  const facts = latePage.getByRole("region", { name: "You are in the queue" });
  await expect(facts.getByRole("definition").nth(0)).toHaveText("9");
  await expect(facts.getByRole("definition").nth(1)).toHaveText("8");
  await expect(facts.getByRole("definition").nth(2)).toHaveText(/^about \d+ minutes?$/);
  await expect(latePage.getByText(/1 person is let through every minute; your turn should come at/)).toBeVisible();
  // It moves on by itself, with no script: the page asks the browser to reload it.
  await expect(latePage.locator('meta[http-equiv="refresh"]')).toHaveAttribute("content", "15");
  const reloaded = await latePage.reload();
  expect(reloaded?.headers()["cache-control"]).toBe("private, no-store");
  await expect(facts.getByRole("definition").nth(0)).toHaveText("9");

  // Trying the event page's Add to cart before the turn comes is refused with the reason.
  await latePage.goto(`/events/${slug}`);
  await latePage.getByRole("button", { name: "Add to cart: Rally pass" }).click();
  await expect(
    latePage.getByText("It is not your turn in the queue yet: we will let you through as soon as it is."),
  ).toBeVisible();

  // The organizer sees the queue fill.
  await organizerPage.getByRole("navigation", { name: "Event pages" }).getByRole("link", { name: /Queue/ }).click();
  await expect(organizerPage.getByText(/^9 in the queue, \d+ let through\.$/)).toBeVisible();

  await Promise.all([first.close(), late.close(), organizer.close()]);
});

/** A confirmed member made by the test fixture, signed in on the request context it returns. */
async function makeMember(playwright: PlaywrightWorkerArgs["playwright"], baseURL: string, member: NewMember) {
  const origin = new URL(baseURL).origin;
  const context = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Origin: origin } });
  const handle = `q${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const made = await context.post("/dev/fixtures/member", {
    form: { email: member.email, name: member.name, password: member.password, handle },
  });
  expect(made.ok(), await made.text()).toBe(true);
  return context;
}
