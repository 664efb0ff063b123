import { beforeAll, describe, expect, it } from "vitest";
import { addArticle } from "~/features/articles/articles.test-support";
import type { SessionUser } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { type TestRole, testAccount } from "~/server/session-user.test-support";
import { answerOf, routeArgs } from "~/web/route-calls.test-support";
import { loader as articleLoader } from "./article";
import { loader as feedLoader } from "./feed";
import { loader as listLoader } from "./list";

// The public article routes, called as React Router calls them, for a visitor and each role.
const database = freshDatabasePerFile();
const ENV = { TIME_ZONE: "Europe/London", SITE_URL: "https://club.example", SITE_NAME: "Pitlane" };
const people: Record<"visitor" | TestRole, SessionUser | null> = { visitor: null } as never;
const slugs: Record<string, string> = {};

const call = (who: SessionUser | null, path: string, params: Record<string, string> = {}) =>
  routeArgs({ db: database().db, env: ENV, who, path, params });

beforeAll(async () => {
  const { db } = database();
  for (const role of ["member", "organizer", "admin"] as const) people[role] = await testAccount(db, role);
  const author = await testAccount(db, "organizer", "Alex Author");
  slugs.public = (
    await addArticle(db, {
      title: "Brake pads explained",
      excerpt: "Pads, discs and fluid.",
      body: "## Pads\n\nThe carbotanium compound squeals.\n\n[Supplier](https://parts.example) <script>alert(1)</script>",
      tags: ["guides"],
      authorId: author.id,
    })
  ).slug;
  slugs.other = (await addArticle(db, { title: "Track day at Anglesey", tags: ["guides", "track-days"] })).slug;
  slugs.draft = (
    await addArticle(db, { title: "Unfinished draft", status: "draft", publishedAt: null, tags: ["guides"] })
  ).slug;
  slugs.scheduled = (
    await addArticle(db, { title: "Next season", publishedAt: new Date(Date.now() + 60 * 60 * 1000), tags: ["news"] })
  ).slug;
});

const everyone = ["visitor", "member", "organizer", "admin"] as const;

describe("/blog", () => {
  it("lists public articles for everyone, with the tags in use", async () => {
    for (const who of everyone) {
      const answer = await answerOf(() => listLoader(call(people[who], "/blog")));
      expect(answer.status).toBe(200);
      const titles = (answer.data!.articles as { title: string }[]).map((article) => article.title);
      expect(titles.sort()).toEqual(["Brake pads explained", "Track day at Anglesey"]);
      expect(answer.data!.tags).toEqual([
        { tag: "guides", count: 2 },
        { tag: "track-days", count: 1 },
      ]);
    }
  });

  it("searches, filters by tag and ignores what it cannot read", async () => {
    const search = await answerOf(() => listLoader(call(null, "/blog?q=carbotanium")));
    expect((search.data!.articles as { title: string }[]).map((article) => article.title)).toEqual([
      "Brake pads explained",
    ]);
    const tagged = await answerOf(() => listLoader(call(null, "/blog?tag=track-days")));
    expect((tagged.data!.articles as { title: string }[]).map((article) => article.title)).toEqual([
      "Track day at Anglesey",
    ]);
    const odd = await answerOf(() => listLoader(call(null, "/blog?tag=%3Cscript%3E&page=-4&q=%27%22%29")));
    expect(odd.status).toBe(200);
    expect(odd.data!.filters).toEqual({ q: `'")`, tag: "" });
    expect(odd.data!.page).toBe(1);
  });
});

describe("/blog/:slug", () => {
  it("shows a public article to everyone, its body sanitised with anchors", async () => {
    for (const who of everyone) {
      const answer = await answerOf(() =>
        articleLoader(call(people[who], `/blog/${slugs.public}`, { slug: slugs.public! })),
      );
      expect(answer.status).toBe(200);
      const html = answer.data!.html as string;
      expect(html).toContain('<h2 id="pads">');
      expect(html).toContain('href="https://parts.example" rel="noopener nofollow ugc"');
      expect(html).toContain("&lt;script&gt;");
      expect(html).not.toContain("<script>");
      expect(answer.data!.preview).toBe(false);
      expect((answer.data!.article as { author: { name: string } }).author.name).toBe("Alex Author");
      expect(answer.data!.article).not.toHaveProperty("body");
      const jsonLd = JSON.parse(answer.data!.jsonLd as string);
      expect(jsonLd).toMatchObject({
        "@type": "Article",
        headline: "Brake pads explained",
        author: { name: "Alex Author" },
      });
      expect((answer.data!.related as { title: string }[]).map((article) => article.title)).toEqual([
        "Track day at Anglesey",
      ]);
    }
  });

  it("is a 404 for drafts and scheduled articles, even with ?preview=1, unless staff", async () => {
    for (const slug of [slugs.draft!, slugs.scheduled!]) {
      for (const who of everyone) {
        const plain = await answerOf(() => articleLoader(call(people[who], `/blog/${slug}`, { slug })));
        expect(plain.status, `${who} ${slug}`).toBe(404);
      }
      for (const who of ["visitor", "member"] as const) {
        const asked = await answerOf(() => articleLoader(call(people[who], `/blog/${slug}?preview=1`, { slug })));
        expect(asked.status, `${who} ${slug}`).toBe(404);
      }
      for (const who of ["organizer", "admin"] as const) {
        const preview = await answerOf(() => articleLoader(call(people[who], `/blog/${slug}?preview=1`, { slug })));
        expect(preview.status).toBe(200);
        expect(preview.data!.preview).toBe(true);
      }
    }
  });

  it("is a 404 for an unknown slug", async () => {
    const answer = await answerOf(() => articleLoader(call(null, "/blog/no-such-thing", { slug: "no-such-thing" })));
    expect(answer.status).toBe(404);
  });
});

describe("/blog/feed.xml", () => {
  it("is the same Atom feed of public articles for everyone", async () => {
    for (const who of everyone) {
      const answer = await answerOf(() => feedLoader(call(people[who], "/blog/feed.xml")));
      expect(answer.status).toBe(200);
      expect(answer.headers!.get("Content-Type")).toBe("application/atom+xml; charset=utf-8");
      expect(answer.headers!.get("Cache-Control")).toMatch(/^public/);
      expect(answer.text).toContain('<title type="text">Brake pads explained</title>');
      expect(answer.text).not.toContain("Unfinished draft");
      expect(answer.text).not.toContain("Next season");
    }
  });
});
