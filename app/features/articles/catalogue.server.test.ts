import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/server/db/client.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { users } from "../../../db/schema";
import { insertCar, insertMember } from "../community/cars.test-support";
import { addArticle as addTestArticle } from "./articles.test-support";
import {
  articleBySlug,
  feedArticles,
  latestArticles,
  listArticles,
  readingMinutes,
  relatedArticles,
  sitemapArticles,
  tagsInUse,
} from "./catalogue.server";

const database = freshDatabasePerFile();
const now = new Date("2027-05-01T12:00:00Z");
const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY);

/** Each article a day older than the one before, unless told when it was published. */
let serial = 0;
function addArticle(db: Db, values: Parameters<typeof addTestArticle>[1]) {
  serial += 1;
  return addTestArticle(db, { publishedAt: daysAgo(serial), ...values });
}

let authorId: string;
let slugs: Record<string, string>;

beforeAll(async () => {
  const { db } = database();
  authorId = randomUUID();
  await db.insert(users).values({ id: authorId, name: "Sam Writer", email: "sam@example.test" });
  const bodyOnly = await addArticle(db, {
    title: "Spring meet report",
    excerpt: "What happened at the airfield.",
    body: "We saw a rare Lancia Stratos in the far corner.\n\n## Weather\n\nDry all day.",
    tags: ["event-report"],
    authorId,
  });
  const scheduled = await addArticle(db, {
    title: "Summer calendar",
    tags: ["news"],
    publishedAt: new Date(now.getTime() + 60_000),
  });
  const draft = await addArticle(db, { title: "Secret draft", status: "draft", publishedAt: null, tags: ["news"] });
  const guide = await addArticle(db, { title: "Track day guide", tags: ["guides", "track-days"] });
  const diary = await addArticle(db, { title: "Build diary part one", tags: ["build-diary", "track-days"] });
  slugs = {
    bodyOnly: bodyOnly.slug,
    scheduled: scheduled.slug,
    draft: draft.slug,
    guide: guide.slug,
    diary: diary.slug,
  };
  // Enough news to fill more than one page.
  for (let i = 0; i < 13; i++) await addArticle(db, { title: `Club news ${i}`, tags: ["news"] });
});

describe("the public list", () => {
  it("finds a word that is only in an article's body", async () => {
    const list = await listArticles(database().db, { q: "stratos", page: 1, now });
    expect(list.articles.map((article) => article.title)).toEqual(["Spring meet report"]);
    expect(list.articles[0]!.authorName).toBe("Sam Writer");
  });

  it("matches the last word as a prefix and ranks title matches first", async () => {
    const prefix = await listArticles(database().db, { q: "strat", page: 1, now });
    expect(prefix.articles.map((article) => article.title)).toEqual(["Spring meet report"]);
    const ranked = await listArticles(database().db, { q: "diary", page: 1, now });
    expect(ranked.articles[0]!.title).toBe("Build diary part one");
  });

  it("answers odd searches with nothing rather than an error", async () => {
    for (const q of ["the", "'\"):*&|!", "-", "or", "a".repeat(500)]) {
      const list = await listArticles(database().db, { q, page: 1, now });
      expect(list.total).toBe(0);
    }
  });

  it("filters by a tag and ignores a malformed one", async () => {
    const list = await listArticles(database().db, { tag: "track-days", page: 1, now });
    expect(list.articles.map((article) => article.title).sort()).toEqual(["Build diary part one", "Track day guide"]);
    const odd = await listArticles(database().db, { tag: "Track Days!", page: 1, now });
    expect(odd.tag).toBeNull();
    expect(odd.total).toBe(16);
  });

  it("pages twelve at a time, newest first, keeping the page in range", async () => {
    const first = await listArticles(database().db, { page: 1, now });
    expect(first.total).toBe(16);
    expect(first.pageCount).toBe(2);
    expect(first.articles).toHaveLength(12);
    expect(first.articles[0]!.title).toBe("Spring meet report");
    const second = await listArticles(database().db, { page: 2, now });
    expect(second.articles).toHaveLength(4);
    const beyond = await listArticles(database().db, { page: 99, now });
    expect(beyond.page).toBe(2);
    const nonsense = await listArticles(database().db, { page: Number.NaN, now });
    expect(nonsense.page).toBe(1);
  });

  it("hides drafts, and a scheduled article until its time comes", async () => {
    const before = await listArticles(database().db, { q: "summer calendar", page: 1, now });
    expect(before.total).toBe(0);
    const after = await listArticles(database().db, {
      q: "summer calendar",
      page: 1,
      now: new Date(now.getTime() + 61_000),
    });
    expect(after.articles.map((article) => article.title)).toEqual(["Summer calendar"]);
    const draft = await listArticles(database().db, { q: "secret", page: 1, now: new Date(now.getTime() + 365 * DAY) });
    expect(draft.total).toBe(0);
  });

  it("counts the tags of public articles only", async () => {
    const tags = await tagsInUse(database().db, now);
    expect(tags[0]).toEqual({ tag: "news", count: 13 });
    expect(tags).toContainEqual({ tag: "track-days", count: 2 });
  });

  it("gives the home page the newest public articles", async () => {
    const latest = await latestArticles(database().db, { now, limit: 3 });
    expect(latest.map((article) => article.title)).toEqual([
      "Spring meet report",
      "Track day guide",
      "Build diary part one",
    ]);
    expect(latest[0]!.readingMinutes).toBe(1);
    expect(latest[0]!.publishedAt).toBeInstanceOf(Date);
  });
});

describe("an article", () => {
  it("is found by its slug when public, with its author", async () => {
    const page = await articleBySlug(database().db, slugs.bodyOnly!, { now });
    expect(page?.title).toBe("Spring meet report");
    expect(page?.author?.name).toBe("Sam Writer");
    expect(page?.unpublished).toBe(false);
  });

  it("is not found as a draft or before its time, except in a preview", async () => {
    const { db } = database();
    expect(await articleBySlug(db, slugs.draft!, { now })).toBeNull();
    expect(await articleBySlug(db, slugs.scheduled!, { now })).toBeNull();
    expect(await articleBySlug(db, "no-such-article", { now, preview: true })).toBeNull();
    const preview = await articleBySlug(db, slugs.draft!, { now, preview: true });
    expect(preview?.unpublished).toBe(true);
    expect((await articleBySlug(db, slugs.scheduled!, { now: new Date(now.getTime() + DAY) }))?.title).toBe(
      "Summer calendar",
    );
  });

  it("suggests related articles by shared tags first, then the newest", async () => {
    const { db } = database();
    const guide = await articleBySlug(db, slugs.guide!, { now });
    const related = await relatedArticles(db, guide!, { now });
    expect(related.map((article) => article.title)[0]).toBe("Build diary part one");
    expect(related).toHaveLength(3);
    expect(related.map((article) => article.slug)).not.toContain(slugs.guide);
  });
});

describe("related articles of an article without tags", () => {
  it("are the newest others", async () => {
    const { db } = database();
    const untagged = await addArticle(db, { title: "No tags at all", tags: [] });
    const related = await relatedArticles(db, { id: untagged.id, tags: [] }, { now });
    expect(related.map((article) => article.title)).toEqual([
      "Spring meet report",
      "Track day guide",
      "Build diary part one",
    ]);
  });
});

describe("reading time", () => {
  it("is about 230 words a minute, at least one", () => {
    expect(readingMinutes(0)).toBe(1);
    expect(readingMinutes(230 * 4)).toBe(4);
    expect(readingMinutes(230 * 4 + 100)).toBe(4);
  });

  it("is counted from the body by the database the same way", async () => {
    const { db } = database();
    const words = Array.from({ length: 230 * 5 }, (_, i) => `word${i}`).join(" \n");
    await addArticle(db, { title: "Long read", body: `  ${words}  `, publishedAt: daysAgo(0.5) });
    const [latest] = await latestArticles(db, { now, limit: 1 });
    expect(latest?.title).toBe("Long read");
    expect(latest?.readingMinutes).toBe(5);
  });
});

describe("feed and sitemap", () => {
  it("lists public articles only", async () => {
    const { db } = database();
    const feed = await feedArticles(db, { now });
    expect(feed.length).toBeLessThanOrEqual(20);
    expect(feed.map((entry) => entry.slug)).not.toContain(slugs.draft);
    expect(feed.map((entry) => entry.slug)).not.toContain(slugs.scheduled);
    const sitemap = await sitemapArticles(db, now);
    expect(sitemap.map((row) => row.slug)).toContain(slugs.bodyOnly);
    expect(sitemap.map((row) => row.slug)).not.toContain(slugs.draft);
  });
});

describe("an article's author", () => {
  it("is linked to their profile only once it opens for everyone, and shows their photo only when chosen", async () => {
    const { db } = database();
    const quiet = await insertMember(db, { handle: "quiet_writer", name: "Quinn Writer", image: "quinn.webp" });
    const { slug } = await addArticle(db, {
      title: "By a quiet writer",
      authorId: quiet.id,
      publishedAt: daysAgo(400),
    });
    const read = async () => (await articleBySlug(db, slug, { now }))?.author;

    // No car anyone may see: the profile is a 404 for readers, so the name is not a link.
    expect(await read()).toEqual({ name: "Quinn Writer", handle: null, image: null });
    await insertCar(db, quiet.id, { visibility: "members" });
    await insertCar(db, quiet.id, { visibility: "public", hidden: true });
    expect((await read())?.handle).toBeNull();

    await insertCar(db, quiet.id, { visibility: "public" });
    expect(await read()).toEqual({ name: "Quinn Writer", handle: "quiet_writer", image: null });
    await db.update(users).set({ avatarPublic: true }).where(eq(users.id, quiet.id));
    expect(await read()).toEqual({ name: "Quinn Writer", handle: "quiet_writer", image: "quinn.webp" });
  });
});
