import http from "node:http";
import path from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { saveStaffSession, signIn } from "./accounts-helpers";
import { expect, test, visit } from "./fixtures";
import { londonTime } from "./london-time";

// The organizer's event tools, driven as an organizer would: one sign-in per worker (sign-ins
// per address are rate limited), shared by the tests through the saved session.
const member = { email: "member@pitlane.test", password: "pitlane-member-demo" };
const sessionFile = path.resolve("test-results/e2e/admin-events-organizer.json");
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

test.beforeAll(async ({ browser }) => {
  await saveStaffSession(browser, "organizer", sessionFile);
});

/** A Saturday-and-Sunday-style weekend a month from now: 09:00 on one day to 17:00 the next. */
function weekendAhead() {
  const first = londonTime(new Date(Date.now() + 30 * 24 * 3600 * 1000)).slice(0, 10);
  const second = new Date(Date.parse(`${first}T12:00:00Z`) + 24 * 3600 * 1000).toISOString().slice(0, 10);
  return { startsAt: `${first}T09:00`, endsAt: `${second}T17:00` };
}

async function fillNewEvent(page: Page, event: { title: string; startsAt: string; endsAt: string; slug?: string }) {
  await visit(page, "/admin/events/new");
  await page.getByLabel("Title").fill(event.title);
  if (event.slug) await page.getByLabel("Web address").fill(event.slug);
  await page.getByLabel("Starts").fill(event.startsAt);
  await page.getByLabel("Ends").fill(event.endsAt);
  await page.getByLabel("Venue").fill("Brooklands Museum");
  await page.getByLabel("Town").fill("Weybridge");
}

async function coverPhoto() {
  const art = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900">
    <defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#ff7a1a"/><stop offset="1" stop-color="#0b0c0e"/></linearGradient></defs>
    <rect width="1600" height="900" fill="url(#g)"/><rect x="300" y="560" width="900" height="140" rx="60" fill="#111214"/>
  </svg>`;
  return sharp(Buffer.from(art)).jpeg({ quality: 80 }).toBuffer();
}

test.describe("as an organizer", () => {
  test.use({ storageState: sessionFile });

  test("creates a weekend event with a day ticket, a weekend pass and a cover, and publishes it", async ({ page }) => {
    test.setTimeout(90_000);
    const title = `Harbour Lights Weekender ${unique()}`;
    const dates = weekendAhead();

    await visit(page, "/admin");
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Events" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
    await page.getByRole("link", { name: "New event" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "New event" })).toBeVisible();

    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Kind of event").selectOption("show");
    await page.getByLabel("Summary (optional)").fill("Two days on the quayside: classics by day, a cruise by night.");
    await page.getByLabel("Starts").fill(dates.startsAt);
    await page.getByLabel("Ends").fill(dates.endsAt);
    await page.getByLabel("Venue").fill("Harbour Quay");
    await page.getByLabel("Town").fill("Whitby");
    await page.getByLabel("Capacity (optional)").fill("400");
    await page.getByRole("button", { name: "Save draft" }).click();

    await expect(page.getByText("Draft saved. Add ticket types and a cover, then publish it.")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    const eventPath = new URL(page.url()).pathname;
    expect(eventPath).toMatch(/^\/admin\/events\/[0-9a-f-]{36}$/);

    // Two ticket types: a ticket for the first day, and a pass for both.
    const eventPages = page.getByRole("navigation", { name: "Event pages" });
    await eventPages.getByRole("link", { name: /Tickets/ }).click();
    await expect(page.getByRole("heading", { name: "Add a ticket type" })).toBeVisible();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page.getByLabel("Ticket name").fill("Saturday ticket");
    await page.getByLabel("Price").fill("15");
    await page.getByRole("group", { name: "Days it admits to" }).getByRole("checkbox").first().check();
    await page.getByRole("button", { name: "Add ticket type" }).click();
    await expect(page.getByText("“Saturday ticket” added.")).toBeVisible();

    await page.getByLabel("Ticket name").fill("Weekend pass");
    await page.getByLabel("Price").fill("25.50");
    await page.getByLabel("Tickets available (optional)").fill("250");
    await page.getByRole("button", { name: "Add ticket type" }).click();
    await expect(page.getByText("“Weekend pass” added.")).toBeVisible();
    const types = page.getByRole("region", { name: "Ticket types" });
    await expect(types.getByRole("heading", { name: "Saturday ticket" })).toBeVisible();
    await expect(types.getByText("£15.00")).toBeVisible();
    await expect(types.getByText("Pass · all 2 days")).toBeVisible();
    await expect(types.getByText("£25.50")).toBeVisible();

    // The cover, with its description.
    await eventPages.getByRole("link", { name: /Cover/ }).click();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await page
      .getByLabel("Photo", { exact: true })
      .setInputFiles({ name: "quay.jpg", mimeType: "image/jpeg", buffer: await coverPhoto() });
    await page.getByLabel("Describe the image").fill("Orange dusk over the harbour car park");
    await page.getByRole("button", { name: "Save cover" }).click();
    await expect(page.getByText("Cover added.")).toBeVisible();
    await expect(page.getByRole("img", { name: "Orange dusk over the harbour car park" })).toBeVisible();

    // Ready: publish it.
    await eventPages.getByRole("link", { name: "Details" }).click();
    const status = page.getByRole("complementary", { name: "Status" });
    await expect(status.getByText("2 ticket types on sale")).toBeVisible();
    await expect(status.getByText("Cover image set")).toBeVisible();
    await status.getByRole("button", { name: "Publish event" }).click();
    await expect(page.getByText("Published. The event is now listed on the site.")).toBeVisible();
    await expect(page.getByRole("link", { name: "View on the site" })).toBeVisible();

    // The list shows it among the upcoming events, with its sales.
    await visit(page, `/admin/events?q=${encodeURIComponent(title)}`);
    const row = page.getByRole("listitem").filter({ hasText: title });
    await expect(row.getByText("Published")).toBeVisible();
    await expect(row.getByText("/ 400 sold")).toBeVisible();
  });

  test("a bad submission shows field messages and keeps what was typed", async ({ page }) => {
    test.setTimeout(90_000);
    const dates = weekendAhead();
    const slug = `taken-${unique()}`;

    // Checked in the browser before anything is sent.
    await fillNewEvent(page, { title: "<b>Loud</b> night", startsAt: dates.endsAt, endsAt: dates.startsAt });
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByText("Leave out < and >")).toBeVisible();
    await expect(page.getByText("The end must be after the start")).toBeVisible();
    await expect(page.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Title")).toHaveValue("<b>Loud</b> night");
    await expect(page).toHaveURL("/admin/events/new");

    // Checked by the server: an address another event already has.
    await fillNewEvent(page, { title: "Taken address", slug, ...dates });
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByText("Draft saved.", { exact: false })).toBeVisible();
    const eventPath = new URL(page.url()).pathname;
    await fillNewEvent(page, { title: "Wants the same address", slug, ...dates });
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByText(`Another event already uses this address. Try “${slug}-2”.`)).toBeVisible();
    await expect(page.getByLabel("Venue")).toHaveValue("Brooklands Museum");

    // A ticket type with a negative price and a capacity out of range.
    await visit(page, `${eventPath}/tickets`);
    await page.getByLabel("Ticket name").fill("Broken ticket");
    await page.getByLabel("Price").fill("-5");
    await page.getByLabel("Tickets available (optional)").fill("0");
    await page.getByRole("button", { name: "Add ticket type" }).click();
    await expect(page.getByText("Enter an amount like 12.50 in £ (0 for free)")).toBeVisible();
    await expect(page.getByText("Enter at least 1")).toBeVisible();

    // Covers are checked by their content on the server: a text file, then a picture too big to decode.
    await visit(page, `${eventPath}/cover`);
    await page.getByLabel("Describe the image").fill("Not really a photo");
    await page
      .getByLabel("Photo", { exact: true })
      .setInputFiles({ name: "photo.jpg", mimeType: "image/jpeg", buffer: Buffer.from("<script>alert(1)</script>") });
    await page.getByRole("button", { name: "Save cover" }).click();
    await expect(page.getByText("Choose a JPEG, PNG, WebP or HEIC image.")).toBeVisible();

    const huge = await sharp({ create: { width: 14_000, height: 14_000, channels: 3, background: "#ff7a1a" } })
      .png({ compressionLevel: 9, adaptiveFiltering: false })
      .toBuffer();
    await page
      .getByLabel("Photo", { exact: true })
      .setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: huge });
    await page.getByRole("button", { name: "Save cover" }).click();
    await expect(page.getByText("This image is too large (14000 × 14000 pixels).", { exact: false })).toBeVisible();
    await expect(page.getByText("No cover yet")).toBeVisible();
  });

  // The catalogue and the home page are built with the public events area; this is what a visitor
  // sees there once an organizer publishes an event.
  test("a published event is listed on /events and on the home page", async ({ page, browser }) => {
    // A long journey: an organizer builds and publishes an event, a visitor finds it twice.
    test.setTimeout(90_000);
    const title = `Midnight Harbour Cruise ${unique()}`;
    const soon = Date.now() + 3 * 3600 * 1000;
    await fillNewEvent(page, {
      title,
      startsAt: londonTime(new Date(soon)),
      endsAt: londonTime(new Date(soon + 4 * 3600 * 1000)),
    });
    await page.getByLabel("Kind of event").selectOption("cruise");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByText("Draft saved.", { exact: false })).toBeVisible();
    await page
      .getByRole("navigation", { name: "Event pages" })
      .getByRole("link", { name: /Tickets/ })
      .click();
    await page.getByLabel("Ticket name").fill("Free entry");
    await page.getByLabel("Price").fill("0");
    await page.getByRole("button", { name: "Add ticket type" }).click();
    await expect(page.getByText("“Free entry” added.")).toBeVisible();
    await page.getByRole("navigation", { name: "Event pages" }).getByRole("link", { name: "Details" }).click();
    await page.getByRole("button", { name: "Publish event" }).click();
    await expect(page.getByText("Published. The event is now listed on the site.")).toBeVisible();

    // Starting in three hours, it is the next event: first in "Discover events" on the home page.
    const visitor = await browser.newPage({ storageState: { cookies: [], origins: [] } });
    await visit(visitor, "/events");
    await expect(visitor.getByRole("link", { name: new RegExp(title) }).first()).toBeVisible();
    await visit(visitor, "/");
    await expect(visitor.getByRole("link", { name: new RegExp(title) }).first()).toBeVisible();
    await visitor.close();
  });

  test("only the cover form takes bodies over the general limit, up to 16 MB", async ({ page, baseURL }) => {
    const eventPath = "/admin/events/00000000-0000-4000-8000-000000000000";
    const upload = await page.request.post(`${eventPath}/cover`, {
      headers: { Origin: baseURL! },
      multipart: {
        intent: "upload",
        coverAlt: "x",
        cover: { name: "big.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(3 * 1024 * 1024) },
      },
    });
    // Read in full by the page, which then finds no such event: the body itself was accepted.
    expect(upload.status()).toBe(404);
    expect(await sendUpload(`${baseURL}${eventPath}/cover`, 17 * 1024 * 1024)).toBe(413);
    expect(await sendUpload(`${baseURL}${eventPath}`, 3 * 1024 * 1024)).toBe(413);
  });
});

/**
 * The answer to a POST of `bytes` bytes, sent as a browser sends an upload: the server refuses a
 * body over its limit (413), and answers once it has read it, so the client sees the answer and
 * not a connection cut while it was still sending.
 */
function sendUpload(url: string, bytes: number) {
  return new Promise<number>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "POST",
        headers: {
          Origin: new URL(url).origin,
          "Content-Type": "multipart/form-data; boundary=pitlane",
          "Content-Length": String(bytes),
        },
      },
      (response) => {
        resolve(response.statusCode ?? 0);
        response.resume();
      },
    );
    request.on("error", reject);
    request.end(Buffer.alloc(bytes));
  });
}

test.describe("as a member", () => {
  test("gets the 403 page on /admin/events, and cannot post to it", async ({ page }) => {
    await signIn(page, member.email, member.password, "/login?redirectTo=/admin/events");
    await expect(page.getByRole("heading", { level: 1, name: "You do not have access to this page" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Dashboard" })).toHaveCount(0);
    const answer = await page.request.get("/admin/events/new");
    expect(answer.status()).toBe(403);
    const post = await page.request.post("/admin/events/new", {
      form: { title: "Sneaky", type: "meet", timeZone: "Europe/London" },
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(post.status()).toBe(403);
  });
});
