import { expect, test, visit } from "./fixtures";

// The public blog as a visitor uses it: search, tags, an article with anchors and data for
// search engines, the feed. The demo content's night-meet report is the article looked at.
const SLUG = "night-meet-at-the-old-airfield";
const TITLE = "Night meet at the old airfield: the report";

test("search finds an article by a word in its body, and tags filter the list", async ({ page }) => {
  await visit(page, "/blog");
  await expect(page.getByRole("heading", { level: 1, name: "Blog" })).toBeVisible();
  await expect(page.locator('link[rel="alternate"][type="application/atom+xml"]')).toHaveAttribute(
    "href",
    /\/blog\/feed\.xml$/,
  );

  await page.getByRole("searchbox", { name: "Search" }).fill("Hockenheimring");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/blog\?q=Hockenheimring/);
  await expect(page.getByRole("heading", { name: "1 article matching “Hockenheimring”" })).toBeVisible();
  await expect(page.getByRole("link", { name: TITLE })).toBeVisible();

  await page.getByRole("searchbox", { name: "Search" }).fill("zzzqqq");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("No articles match")).toBeVisible();

  await visit(page, "/blog");
  const tags = page.getByRole("navigation", { name: "Tags" });
  await tags.getByRole("link", { name: /Build diary/ }).click();
  await expect(page).toHaveURL(/tag=build-diary/);
  await expect(page.getByRole("link", { name: "Build diary: the E30 touring, part one" })).toBeVisible();
  await expect(page.getByRole("link", { name: TITLE })).toHaveCount(0);
  await expect(tags.getByRole("link", { name: /Build diary/ })).toHaveAttribute("aria-current", "page");
});

test("an article has its author, anchors on headings, safe links and JSON-LD", async ({ page }) => {
  await visit(page, `/blog/${SLUG}`);
  await expect(page.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  await expect(page.getByText(/min read/).first()).toBeVisible();
  const heading = page.locator("h2#the-cars");
  await expect(heading).toHaveText(/The cars/);
  await heading.getByRole("link", { name: "Link to this section" }).click();
  await expect(page).toHaveURL(/#the-cars$/);
  await expect(page.getByRole("table")).toBeVisible();
  await expect(page.getByRole("link", { name: "Air Ambulance Service" })).toHaveAttribute(
    "rel",
    "noopener nofollow ugc",
  );

  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
  expect(jsonLd).toMatchObject({
    "@type": "Article",
    headline: TITLE,
    author: { "@type": "Person" },
    publisher: { "@type": "Organization" },
  });
  expect(jsonLd.datePublished).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "article");

  await page.getByRole("link", { name: "Event report", exact: true }).first().click();
  await expect(page).toHaveURL(/\/blog\?tag=event-report/);
});

test("drafts and scheduled articles are not found", async ({ page }) => {
  for (const slug of ["committee-minutes-draft", "autumn-track-day-preview"]) {
    const response = await page.goto(`/blog/${slug}?preview=1`);
    expect(response?.status()).toBe(404);
  }
});

test("the Atom feed is served with the newest articles", async ({ request }) => {
  const response = await request.get("/blog/feed.xml");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("application/atom+xml; charset=utf-8");
  const xml = await response.text();
  expect(xml).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom"/);
  expect(xml).toContain(`/blog/${SLUG}"`);
  expect(xml).not.toContain("committee-minutes-draft");
});
