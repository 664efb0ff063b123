import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { articleBySlug, latestArticles, listArticles, tagsInUse } from "~/features/articles/catalogue.server";
import { renderMarkdown } from "~/features/content/markdown.server";
import { coverKey } from "~/features/events/cover-urls";
import { sitemapEntries } from "~/features/sitemap/sitemap.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { runSeeders } from "~/server/seed.server";
import { localStorage } from "~/server/storage/storage.server";
import { articles } from "../../db/schema";
import { demoAccountsSeeder } from "./demo-accounts.server";
import { DEMO_ARTICLE_SLUG, DEMO_SEARCH_WORD, demoArticlesSeeder } from "./demo-articles.server";

const database = freshDatabasePerFile();
const storage = localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-demo-articles-")));

beforeAll(async () => {
  await runSeeders(database().db, [demoAccountsSeeder, demoArticlesSeeder], { demo: true, storage });
});

describe("the demo articles", () => {
  it("show six on the blog, newest first, with covers, tags and authors", async () => {
    const now = new Date();
    const latest = await latestArticles(database().db, { now, limit: 20 });
    expect(latest).toHaveLength(6);
    expect(latest[0]!.slug).toBe(DEMO_ARTICLE_SLUG);
    for (const article of latest) {
      expect(article.cover?.alt).toBeTruthy();
      expect(article.tags.length).toBeGreaterThan(0);
      expect(article.authorName).toBeTruthy();
      expect(await storage.exists(coverKey(article.cover!.hash, 480, "webp"))).toBe(true);
    }
    const tags = (await tagsInUse(database().db, now)).map((facet) => facet.tag);
    expect(tags).toEqual(expect.arrayContaining(["event-report", "build-diary", "news", "track-days", "guides"]));
  });

  it("keep one scheduled and one draft out of sight", async () => {
    const rows = await database()
      .db.select({ slug: articles.slug, status: articles.status, publishedAt: articles.publishedAt })
      .from(articles);
    expect(rows).toHaveLength(8);
    const now = new Date();
    const hidden = rows.filter((row) => row.status === "draft" || row.publishedAt! > now);
    expect(hidden).toHaveLength(2);
    for (const row of hidden) expect(await articleBySlug(database().db, row.slug, { now })).toBeNull();
  });

  it("have a word the search finds in one body only, and headings, a table, a quote and links", async () => {
    const found = await listArticles(database().db, { q: DEMO_SEARCH_WORD, page: 1, now: new Date() });
    expect(found.articles.map((article) => article.slug)).toEqual([DEMO_ARTICLE_SLUG]);
    const page = await articleBySlug(database().db, DEMO_ARTICLE_SLUG, { now: new Date() });
    const html = renderMarkdown(page!.body, { article: true });
    for (const part of [
      '<h2 id="the-cars">',
      "<table>",
      "<blockquote>",
      'rel="noopener nofollow ugc"',
      '<a href="/events">',
    ])
      expect(html).toContain(part);
  });

  it("are in the sitemap with the blog, the hidden ones left out", async () => {
    const paths = (await sitemapEntries(database().db)).map((entry) => entry.path);
    expect(paths).toContain("/blog");
    expect(paths).toContain(`/blog/${DEMO_ARTICLE_SLUG}`);
    expect(paths.filter((entry) => entry.startsWith("/blog/"))).toHaveLength(6);
    expect(paths).not.toContain("/blog/committee-minutes-draft");
    expect(paths).not.toContain("/blog/autumn-track-day-preview");
  });
});
