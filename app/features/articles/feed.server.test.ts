import { parse, validate } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { addArticle } from "./articles.test-support";
import { articlesFeed, escapeXml, FEED_ENTRIES } from "./feed.server";

const database = freshDatabasePerFile();
const site = { name: "Pitlane & Co", url: "https://club.example" };
const now = new Date("2027-05-01T12:00:00Z");
const HOUR = 60 * 60 * 1000;

/** RFC 3339 date-time, as Atom requires (with a zone). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

type Node = Record<string, unknown>;
const list = (value: unknown) => (value === undefined ? [] : Array.isArray(value) ? value : [value]) as Node[];

let xml: string;

/** The five entities XML predefines, decoded (&amp; last, so "&amp;lt;" stays "&lt;"). */
const decode = (text: string) =>
  text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");

const OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseNodeValue: false,
  tagValueProcessor: decode,
  attrValueProcessor: decode,
};
const parsed = () => parse(xml, OPTIONS) as { feed: Node };

beforeAll(async () => {
  const { db } = database();
  const author = await testAccount(db, "organizer", "Jo <Editor>");
  await addArticle(db, {
    title: 'Oil & water: a "cooling" guide',
    excerpt: "Keep it <cool>.",
    body: "## Radiators\n\n![Fan](/media/events/fan.webp) [docs](/blog) \u0007 <script>alert(1)</script>",
    tags: ["guides", "track-days"],
    authorId: author.id,
    publishedAt: new Date(now.getTime() - HOUR),
  });
  for (let i = 0; i < FEED_ENTRIES + 3; i++)
    await addArticle(db, { title: `News ${i}`, publishedAt: new Date(now.getTime() - (i + 2) * HOUR) });
  await addArticle(db, { title: "Draft", status: "draft", publishedAt: null });
  await addArticle(db, { title: "Tomorrow", publishedAt: new Date(now.getTime() + 24 * HOUR) });
  xml = await articlesFeed(db, site, now);
});

describe("the Atom feed", () => {
  it("is well-formed XML", () => {
    expect(validate(xml)).toBe(true);
  });

  it("has the feed's required elements and links", () => {
    const { feed } = parsed();
    expect(feed["@xmlns"]).toBe("http://www.w3.org/2005/Atom");
    expect(feed.id).toBe("https://club.example/blog");
    expect(feed.title).toBe("Pitlane & Co blog");
    expect(feed.updated).toMatch(RFC3339);
    const links = list(feed.link);
    expect(links).toContainEqual({
      "@rel": "self",
      "@type": "application/atom+xml",
      "@href": "https://club.example/blog/feed.xml",
    });
    expect(links).toContainEqual({ "@rel": "alternate", "@type": "text/html", "@href": "https://club.example/blog" });
    expect((feed.author as Node).name).toBe("Pitlane & Co");
  });

  it("carries the newest twenty public articles, each with what Atom requires", () => {
    const { feed } = parsed();
    const entries = list(feed.entry);
    expect(entries).toHaveLength(FEED_ENTRIES);
    const ids = entries.map((entry) => entry.id as string);
    expect(new Set(ids).size).toBe(ids.length);
    for (const entry of entries) {
      expect(entry.id).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
      expect(entry.title).toBeTruthy();
      expect(entry.updated).toMatch(RFC3339);
      expect(entry.published).toMatch(RFC3339);
      expect(list(entry.link)[0]!["@href"]).toMatch(/^https:\/\/club\.example\/blog\/[a-z0-9-]+$/);
      expect((entry.author as Node).name).toBeTruthy();
    }
    const titles = entries.map((entry) => (entry.title as Node)["#text"] ?? entry.title);
    expect(titles[0]).toBe('Oil & water: a "cooling" guide');
    expect(titles).not.toContain("Draft");
    expect(titles).not.toContain("Tomorrow");
    expect(titles).not.toContain(`News ${FEED_ENTRIES + 2}`);
  });

  it("gives the sanitised HTML with absolute addresses, the summary and a category per tag", () => {
    const { feed } = parsed();
    const [first] = list(feed.entry);
    const content = first!.content as Node;
    expect(content["@type"]).toBe("html");
    const html = content["#text"] as string;
    expect(html).toContain('src="https://club.example/media/events/fan.webp"');
    expect(html).toContain('href="https://club.example/blog"');
    expect(html).toMatch(/href="https:\/\/club\.example\/blog\/oil-water-a-cooling-guide-\d+#radiators"/);
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("\u0007");
    expect((first!.summary as Node)["#text"]).toBe("Keep it <cool>.");
    expect((first!.author as Node).name).toBe("Jo <Editor>");
    expect(list(first!.category).map((category) => category["@term"])).toEqual(["guides", "track-days"]);
  });

  it("escapes every character XML reserves and drops those it forbids", () => {
    expect(escapeXml(`<a href="x">'&'</a>\u0000\uD800`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;",
    );
  });
});
