import { allowConsoleErrors, expect, FAILED_RESOURCE, test, visit } from "./fixtures";

// The demo events the e2e server seeds on its fresh database; their dates are relative to seeding.
const festival = { slug: "silverstone-festival-of-speed", title: "Silverstone Festival of Speed" };

test("a visitor filters events by type and month, opens one, sees its tickets and adds it to a calendar", async ({
  page,
}) => {
  // Narrowed by a search first: events other journeys create in the same run would otherwise
  // push the demo programme onto later pages.
  await visit(page, "/events?q=festival");
  await expect(page.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
  const tiles = page.getByRole("main").getByRole("article");
  await expect(tiles.first()).toBeVisible();

  // Choosing a type shows its events at once; the filter is in the address.
  await page.getByLabel("Type").selectOption({ label: "Show" });
  await expect(page).toHaveURL(/[?&]type=show/);
  await expect(page.getByRole("heading", { level: 2, name: /upcoming shows?\b/ })).toBeVisible();
  await expect(page.getByRole("link", { name: festival.title })).toBeVisible();
  await expect(page.getByRole("link", { name: "Brands Hatch Indy track day" })).toHaveCount(0);

  // The month the festival starts in, from the date block on its cover ("12" over "Jun").
  const tile = tiles.filter({ has: page.getByRole("link", { name: festival.title }) });
  const startMonth = await tile.getByText(/^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)$/).textContent();
  const month = page.getByLabel("Month");
  const option = month.locator("option", { hasText: new RegExp(`^${startMonth}\\w* \\d{4}`) }).first();
  const [, monthName, year] = /^(\w+) (\d{4})/.exec((await option.textContent()) ?? "") ?? [];
  const value = await option.getAttribute("value");
  expect(value).toMatch(/^\d{4}-\d{2}$/);
  await month.selectOption(value!);
  await expect(page).toHaveURL(new RegExp(`month=${value}`));
  await expect(page).toHaveURL(/type=show/);
  await expect(page.getByRole("heading", { level: 2, name: new RegExp(`in ${monthName} ${year}`) })).toBeVisible();

  await page.getByRole("link", { name: festival.title }).click();
  await expect(page).toHaveURL(`/events/${festival.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: festival.title })).toBeVisible();

  // Tickets: each type with its name, price and whether it can be had.
  const tickets = page.getByRole("region", { name: "Tickets" });
  const rows = tickets.getByRole("listitem");
  expect(await rows.count()).toBeGreaterThanOrEqual(2);
  await expect(tickets.getByRole("heading", { name: /weekend/i })).toBeVisible();
  for (const row of await rows.all()) {
    await expect(row.getByRole("heading", { level: 3 })).not.toBeEmpty();
    await expect(row).toContainText(/Price: (£\d[\d,.]*|Free)/);
    await expect(row).toContainText(/On sale|On sale from|Sold out|Sales ended/);
  }
  // A multi-day event says which days each pass covers.
  await expect(tickets).toContainText(/Covers \w{3} \d{1,2} \w+ and \w{3} \d{1,2} \w+/);

  // Add to calendar downloads an iCalendar file with the event in it.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Add to calendar" }).first().click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${festival.slug}.ics`);
  const response = await page.request.get(`/events/${festival.slug}/calendar.ics`);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
  const ics = await response.text();
  expect(ics).toContain("BEGIN:VEVENT");
  expect(ics).toContain(`SUMMARY:${festival.title}`);
  expect(ics).toMatch(/DTSTART;TZID=Europe\/London:\d{8}T\d{6}/);
});

test("an event's page describes it to search engines and moves links by id to its slug", async ({ page }) => {
  const ics = await (await page.request.get(`/events/${festival.slug}/calendar.ics`)).text();
  const id = /UID:([0-9a-f-]{36})@/.exec(ics)?.[1];
  expect(id).toBeTruthy();

  const response = await page.request.get(`/events/${id}?from=newsletter`, { maxRedirects: 0 });
  expect(response.status()).toBe(301);
  expect(response.headers().location).toBe(`/events/${festival.slug}?from=newsletter`);

  await visit(page, `/events/${id}`);
  await expect(page).toHaveURL(`/events/${festival.slug}`);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`/events/${festival.slug}$`));
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /^https?:\/\/.+-1600\.webp$/);
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
  expect(jsonLd).toMatchObject({
    "@type": "Event",
    name: festival.title,
    eventStatus: "https://schema.org/EventScheduled",
  });
  expect(jsonLd.startDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
  expect(jsonLd.offers.length).toBeGreaterThanOrEqual(2);
  // Without a Maps key there is no embedded map, only a link to a map search.
  await expect(page.getByRole("link", { name: /Open in Google Maps/ })).toHaveAttribute(
    "href",
    /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=/,
  );
});

test("sold out, cancelled and open-for-applications events say so", async ({ page }) => {
  // Searched for, not looked for on the first page: events other journeys create in the same
  // run can push the demo programme onto a second page.
  await visit(page, "/events?q=brands");
  const brands = page
    .getByRole("article")
    .filter({ has: page.getByRole("link", { name: "Brands Hatch Indy track day" }) });
  await expect(brands.getByText("Sold out")).toBeVisible();
  await visit(page, "/events?q=classics");
  const classics = page.getByRole("article").filter({ has: page.getByRole("link", { name: "Classics on the Green" }) });
  await expect(classics.getByText("Cancelled")).toBeVisible();

  await visit(page, "/events/classics-on-the-green");
  await expect(page.getByText("This event has been cancelled.")).toBeVisible();

  await visit(page, "/events/japanese-performance-day");
  const applications = page.getByRole("region", { name: "Show your car" });
  await expect(applications).toContainText("Applications open");
  await expect(applications).toContainText("Apply by");
  await expect(applications.getByRole("button")).toHaveCount(0);
});

test("search finds an event from the start of a word, and past events have their own tab", async ({ page }) => {
  await visit(page, "/events");
  await page.getByLabel("Search").fill("silver");
  await page.getByLabel("Search").press("Enter");
  await expect(page).toHaveURL(/q=silver/);
  await expect(page.getByRole("link", { name: festival.title })).toBeVisible();

  await page.getByRole("navigation", { name: "Upcoming or past events" }).getByRole("link", { name: "Past" }).click();
  await expect(page).toHaveURL(/when=past/);
  await expect(page.getByRole("heading", { level: 1, name: "Past events" })).toBeVisible();
  await page.getByRole("link", { name: "Clear filters" }).first().click();
  await expect(page.getByRole("main").getByRole("article").first()).toBeVisible();
});

test("odd addresses never break the events pages", async ({ page }) => {
  allowConsoleErrors(page, FAILED_RESOURCE);
  for (const query of ["?month=2027-13&type=rally&page=9999", `?q=${"x".repeat(5000)}`, "?page=-1&when=soon"]) {
    const response = await page.request.get(`/events${query}`);
    expect(response.status(), query).toBe(200);
  }
  const missing = await page.goto("/events/no-such-event");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This page could not be found" })).toBeVisible();
  expect((await page.request.get("/events/no-such-event/calendar.ics")).status()).toBe(404);
});

test("the home page leads with the next headline event and the ones after it", async ({ page }) => {
  await visit(page, "/");
  await expect(page.getByRole("heading", { level: 1, name: festival.title })).toBeVisible();
  await expect(page.getByRole("link", { name: "Tickets and details" })).toHaveAttribute(
    "href",
    `/events/${festival.slug}`,
  );
  const discover = page.getByRole("region", { name: "Discover events" });
  await expect(discover.getByRole("article").first()).toBeVisible();
  await discover.getByRole("link", { name: "All events" }).click();
  await expect(page).toHaveURL("/events");
});
