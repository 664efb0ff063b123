import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addArticle } from "~/features/articles/articles.test-support";
import { toLocalInputValue } from "~/features/dates/time-zones";
import { carPicture } from "~/features/media/test-images.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { TestRole } from "~/server/session-user.test-support";
import { localStorage } from "~/server/storage/storage.server";
import { answerOf, type FormFields, routeTestSite } from "~/web/route-calls.test-support";
import { articles, auditLog } from "../../../../db/schema";
import { action as editAction, loader as editLoader } from "./edit";
import { action as editorAction } from "./editor";
import { loader as listLoader } from "./list";
import { action as newAction, loader as newLoader } from "./new";

// The staff article pages, called as React Router calls them, for a visitor and each role.
const database = freshDatabasePerFile();
const storage = localStorage(path.join(mkdtempSync(path.join(tmpdir(), "pitlane-articles-")), "media"));
const site = routeTestSite(database, { name: "articles", runtime: () => ({ storage }) });
const { accounts } = site;

const call = (
  who: TestRole | null,
  path: string,
  options: { params?: Record<string, string>; body?: FormFields | FormData } = {},
) => site.args(who, { path, ...options });

const form = (fields: Record<string, string>) => ({
  intent: "save",
  title: "",
  slug: "",
  excerpt: "",
  tags: "",
  body: "",
  coverAlt: "",
  publishAt: "",
  ...fields,
});

/** A datetime-local value `minutes` from now in London. */
const londonIn = (minutes: number) => toLocalInputValue(new Date(Date.now() + minutes * 60_000), "Europe/London");

const rowBySlug = async (slug: string) =>
  (await database().db.select().from(articles).where(eq(articles.slug, slug)))[0];

describe("who may use the article pages", () => {
  it("sends visitors to sign in and refuses members, on every loader and action", async () => {
    const { id } = await addArticle(database().db, { title: "Guarded" });
    const pages = [
      () => listLoader(call(null, "/admin/articles")),
      () => newLoader(call(null, "/admin/articles/new")),
      () => newAction(call(null, "/admin/articles/new", { body: form({ title: "Sneaky" }) })),
      () => editLoader(call(null, `/admin/articles/${id}`, { params: { articleId: id } })),
      () =>
        editAction(call(null, `/admin/articles/${id}`, { params: { articleId: id }, body: form({ title: "Sneaky" }) })),
      () => editorAction(call(null, "/admin/articles/editor", { body: { intent: "preview", body: "# Hi" } })),
    ];
    for (const page of pages)
      expect((await answerOf(page)).location).toMatch(/^\/login\?redirectTo=%2Fadmin%2Farticles/);
    const asMember = [
      () => listLoader(call("member", "/admin/articles")),
      () => newLoader(call("member", "/admin/articles/new")),
      () => newAction(call("member", "/admin/articles/new", { body: form({ title: "Sneaky" }) })),
      () => editLoader(call("member", `/admin/articles/${id}`, { params: { articleId: id } })),
      () =>
        editAction(
          call("member", `/admin/articles/${id}`, { params: { articleId: id }, body: form({ title: "Sneaky" }) }),
        ),
      () => editorAction(call("member", "/admin/articles/editor", { body: { intent: "preview", body: "# Hi" } })),
    ];
    for (const page of asMember) expect((await answerOf(page)).status).toBe(403);
    expect(await database().db.select().from(articles).where(eq(articles.title, "Sneaky"))).toEqual([]);
  });

  it("lets organizers and admins list, open and search", async () => {
    const { id } = await addArticle(database().db, { title: "Findable gearbox piece" });
    for (const who of ["organizer", "admin"] as const) {
      const list = await answerOf(() => listLoader(call(who, "/admin/articles?q=gearbox")));
      expect((list.data!.articles as { title: string }[]).map((article) => article.title)).toEqual([
        "Findable gearbox piece",
      ]);
      const opened = await answerOf(() =>
        editLoader(call(who, `/admin/articles/${id}`, { params: { articleId: id } })),
      );
      expect(opened.data!.title).toBe("Findable gearbox piece");
      expect((await answerOf(() => newLoader(call(who, "/admin/articles/new")))).status).toBe(200);
    }
    const missing = await answerOf(() =>
      editLoader(call("admin", "/admin/articles/nope", { params: { articleId: "nope" } })),
    );
    expect(missing.status).toBe(404);
  });
});

describe("writing an article", () => {
  it("saves a draft with its author, a slug from the title and normalised tags, audited", async () => {
    const answer = await answerOf(() =>
      newAction(
        call("organizer", "/admin/articles/new", {
          body: form({
            title: "Winter Storage: 5 Tips!",
            tags: "Guides, Track Days,guides , ,",
            body: "## Batteries\n\nKeep them charged.",
          }),
        }),
      ),
    );
    expect(answer.status).toBe(302);
    const row = await rowBySlug("winter-storage-5-tips");
    expect(row).toMatchObject({
      status: "draft",
      publishedAt: null,
      authorId: accounts.organizer.id,
      tags: ["guides", "track-days"],
    });
    expect(answer.location).toBe(`/admin/articles/${row!.id}`);
    const [audit] = await database().db.select().from(auditLog).where(eq(auditLog.subjectId, row!.id));
    expect(audit).toMatchObject({ action: "article.create", actorId: accounts.organizer.id });
  });

  it("refuses bad input with field messages and keeps what was typed", async () => {
    const tooLong = "x".repeat(100_001);
    const answer = await answerOf(() =>
      newAction(
        call("admin", "/admin/articles/new", {
          body: form({ title: "", slug: "Not A Slug", body: tooLong, excerpt: "Kept" }),
        }),
      ),
    );
    expect(answer.status).toBe(400);
    const result = answer.data!.result as { error: Record<string, string[]>; initialValue: Record<string, string> };
    expect(result.error.title).toEqual(["Give the article a title"]);
    expect(result.error.slug?.[0]).toMatch(/^Use lowercase letters, numbers and single hyphens/);
    expect(result.error.body?.[0]).toMatch(/too long/);
    expect(result.initialValue.excerpt).toBe("Kept");
  });

  it("refuses an address another article has, with a message", async () => {
    await addArticle(database().db, { title: "Taken", slug: "taken-address" });
    const answer = await answerOf(() =>
      newAction(call("organizer", "/admin/articles/new", { body: form({ title: "Mine", slug: "taken-address" }) })),
    );
    expect(answer.status).toBe(400);
    expect((answer.data!.result as { error: Record<string, string[]> }).error.slug).toEqual([
      "Another article already uses this address. Choose another.",
    ]);
    // A slug made from the title is numbered instead.
    await answerOf(() =>
      newAction(call("organizer", "/admin/articles/new", { body: form({ title: "Taken address" }) })),
    );
    expect(await rowBySlug("taken-address-2")).toBeTruthy();
  });

  it("publishes now, schedules ahead (refusing the past) and unpublishes, each audited", async () => {
    const { id } = await addArticle(database().db, {
      title: "Lifecycle",
      slug: "lifecycle",
      status: "draft",
      publishedAt: null,
    });
    const edit = (fields: Record<string, string>, who: TestRole = "organizer") =>
      answerOf(() =>
        editAction(
          call(who, `/admin/articles/${id}`, {
            params: { articleId: id },
            body: form({ title: "Lifecycle", slug: "lifecycle", ...fields }),
          }),
        ),
      );

    expect((await edit({ intent: "publish" })).status).toBe(302);
    const published = await rowBySlug("lifecycle");
    expect(published!.status).toBe("published");
    expect(published!.publishedAt!.getTime()).toBeLessThanOrEqual(Date.now());

    const past = await edit({ intent: "schedule", publishAt: londonIn(-60) });
    expect(past.status).toBe(400);
    expect((past.data!.result as { error: Record<string, string[]> }).error.publishAt).toEqual([
      "Choose a time in the future, or publish it now",
    ]);
    expect((await edit({ intent: "schedule", publishAt: "" })).status).toBe(400);

    expect((await edit({ intent: "schedule", publishAt: londonIn(90) }, "admin")).status).toBe(302);
    const scheduled = await rowBySlug("lifecycle");
    expect(scheduled!.publishedAt!.getTime()).toBeGreaterThan(Date.now() + 80 * 60_000);
    expect(scheduled!.publishedAt!.getTime()).toBeLessThan(Date.now() + 100 * 60_000);

    expect((await edit({ intent: "unpublish" })).status).toBe(302);
    expect(await rowBySlug("lifecycle")).toMatchObject({ status: "draft", publishedAt: null });

    const actions = (await database().db.select().from(auditLog).where(eq(auditLog.subjectId, id))).map(
      (row) => row.action,
    );
    expect(actions).toEqual(["article.publish", "article.schedule", "article.unpublish"]);
  });

  it("stores a cover through the media pipeline and needs its description", async () => {
    const bytes = await carPicture(1600, 900).jpeg().toBuffer();
    const withoutAlt = new FormData();
    for (const [key, value] of Object.entries(form({ title: "Covered" }))) withoutAlt.set(key, value);
    withoutAlt.set("cover", new File([new Uint8Array(bytes)], "cover.jpg", { type: "image/jpeg" }));
    const refused = await answerOf(() => newAction(call("organizer", "/admin/articles/new", { body: withoutAlt })));
    expect(refused.status).toBe(400);
    expect((refused.data!.result as { error: Record<string, string[]> }).error.coverAlt).toBeTruthy();

    withoutAlt.set("coverAlt", "A blue car on the grid");
    const saved = await answerOf(() => newAction(call("organizer", "/admin/articles/new", { body: withoutAlt })));
    expect(saved.status).toBe(302);
    const row = await rowBySlug("covered");
    expect(row!.cover).toMatchObject({ alt: "A blue car on the grid" });
    expect(await storage.exists(`events/${row!.cover!.hash}-960.webp`)).toBe(true);
  });
});

describe("the editor's helpers", () => {
  it("preview the body with the blog's renderer, for staff", async () => {
    for (const who of ["organizer", "admin"] as const) {
      const answer = await answerOf(() =>
        editorAction(
          call(who, "/admin/articles/editor", {
            body: { intent: "preview", body: "## Hello\n\n<script>alert(1)</script>" },
          }),
        ),
      );
      expect(answer.status).toBe(200);
      const json = JSON.parse(answer.text!);
      expect(json.html).toContain('<h2 id="hello">');
      expect(json.html).toContain("&lt;script&gt;");
    }
    const long = await answerOf(() =>
      editorAction(
        call("organizer", "/admin/articles/editor", { body: { intent: "preview", body: "x".repeat(100_001) } }),
      ),
    );
    expect(long.status).toBe(400);
    expect(JSON.parse(long.text!).error).toMatch(/Too long/);
  });

  it("store a body image and answer its Markdown; refuse what is not an image", async () => {
    const image = new FormData();
    image.set("intent", "image");
    image.set("alt", "Pit [lane] view");
    image.set(
      "image",
      new File([new Uint8Array(await carPicture(800, 600).png().toBuffer())], "pit.png", { type: "image/png" }),
    );
    const answer = await answerOf(() => editorAction(call("organizer", "/admin/articles/editor", { body: image })));
    expect(answer.status).toBe(200);
    const { markdown } = JSON.parse(answer.text!);
    expect(markdown).toMatch(/^!\[Pit lane view\]\(\/media\/articles\/[0-9a-f]+-1536\.webp\)$/);

    const notImage = new FormData();
    notImage.set("intent", "image");
    notImage.set("alt", "Nothing");
    notImage.set("image", new File(["just text"], "notes.png", { type: "image/png" }));
    const refused = await answerOf(() => editorAction(call("organizer", "/admin/articles/editor", { body: notImage })));
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text!).errors.image[0]).toBeTruthy();
  });
});
