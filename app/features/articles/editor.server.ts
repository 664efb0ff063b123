import { and, desc, eq, ilike, ne, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import { parseLocalDateTime } from "~/features/dates/time-zones";
import { prepareCover, storeCover } from "~/features/events/cover.server";
import type { Refusal } from "~/features/forms/refusal";
import { numberedSlug } from "~/features/forms/slug";
import { encodeRendition, prepareUpload, renditionHash } from "~/features/media/pipeline.server";
import type { Db } from "~/server/db/client.server";
import { containing } from "~/server/db/like";
import { isUniqueViolation } from "~/server/db/retry.server";
import type { Storage } from "~/server/storage/storage.server";
import { users } from "../../../db/schema/accounts";
import { type ArticleCover, type ArticleStatus, articles } from "../../../db/schema/articles";
import { ARTICLE_LIMITS, slugFromTitle } from "./article-limits";
import { articleColumns } from "./catalogue.server";
import type { ArticleFormInput } from "./schemas";

/**
 * The staff side of articles (docs/articles.md): writing, publishing now or at a time,
 * unpublishing, the cover and images in the body. Every change is audited in the transaction
 * that makes it. The author is whoever created the article.
 */

export type { Refusal };
export type Saved = {
  ok: true;
  id: string;
  slug: string;
  outcome: "created" | "saved" | "published" | "scheduled" | "unpublished";
};

type SaveCall = {
  actorId: string;
  /** null for a new article. */
  articleId: string | null;
  input: ArticleFormInput;
  now: Date;
  /** The site's zone, in which a scheduled time is typed. */
  timeZone: string;
};

type Existing = {
  id: string;
  slug: string;
  status: ArticleStatus;
  publishedAt: Date | null;
  cover: ArticleCover | null;
};

async function slugTaken(db: Db, slug: string, exceptId: string | null) {
  const [row] = await db
    .select({ id: articles.id })
    .from(articles)
    .where(exceptId ? and(eq(articles.slug, slug), ne(articles.id, exceptId)) : eq(articles.slug, slug))
    .limit(1);
  return Boolean(row);
}

/** The address the article gets: the one typed (refused when taken), else one made from the title (numbered when taken). */
async function chooseSlug(db: Db, input: ArticleFormInput, existing: Existing | null): Promise<string | Refusal> {
  if (input.slug) {
    if (await slugTaken(db, input.slug, existing?.id ?? null))
      return { ok: false, field: "slug", message: "Another article already uses this address. Choose another." };
    return input.slug;
  }
  if (existing) return existing.slug;
  const base = slugFromTitle(input.title);
  for (let n = 1; n < 50; n++) {
    const candidate = numberedSlug(base, n, ARTICLE_LIMITS.slug);
    if (!(await slugTaken(db, candidate, null))) return candidate;
  }
  return `${base}-${Date.now().toString(36)}`;
}

/** Status and publication time after the editor's choice. */
function publication(
  input: ArticleFormInput,
  existing: Existing | null,
  now: Date,
  timeZone: string,
): { status: ArticleStatus; publishedAt: Date | null } | Refusal {
  switch (input.intent) {
    case "publish": {
      // Already out: it keeps its date. A draft or a scheduled article goes out now.
      const out = existing?.status === "published" && existing.publishedAt && existing.publishedAt <= now;
      return { status: "published", publishedAt: out ? existing.publishedAt : now };
    }
    case "schedule": {
      const read = parseLocalDateTime(input.publishAt, timeZone);
      if (!read.ok)
        return {
          ok: false,
          field: "publishAt",
          message:
            read.reason === "missing"
              ? `This time does not exist in ${timeZone}: the clocks go forward then. Choose a time an hour later.`
              : "Enter a real date and time like 2027-06-12 09:30",
        };
      if (read.instant <= now)
        return { ok: false, field: "publishAt", message: "Choose a time in the future, or publish it now" };
      return { status: "published", publishedAt: read.instant };
    }
    case "unpublish":
      return { status: "draft", publishedAt: null };
    default:
      return existing
        ? { status: existing.status, publishedAt: existing.publishedAt }
        : { status: "draft", publishedAt: null };
  }
}

const AUDIT_ACTIONS: Record<Saved["outcome"], string> = {
  created: "article.create",
  saved: "article.update",
  published: "article.publish",
  scheduled: "article.schedule",
  unpublished: "article.unpublish",
};

function outcomeOf(input: ArticleFormInput, created: boolean): Saved["outcome"] {
  if (input.intent === "publish") return "published";
  if (input.intent === "schedule") return "scheduled";
  if (input.intent === "unpublish") return "unpublished";
  return created ? "created" : "saved";
}

/**
 * Creates or updates an article from the editor's form, and publishes, schedules or
 * unpublishes it as asked. A refusal names the field to fix; nothing is written then.
 */
export async function saveArticle(
  db: Db,
  storage: Storage,
  call: SaveCall,
): Promise<Saved | Refusal | { ok: false; notFound: true }> {
  const { input, now } = call;
  let existing: Existing | null = null;
  if (call.articleId) {
    const [row] = await db
      .select({
        id: articles.id,
        slug: articles.slug,
        status: articles.status,
        publishedAt: articles.publishedAt,
        cover: articles.cover,
      })
      .from(articles)
      .where(eq(articles.id, call.articleId));
    if (!row) return { ok: false, notFound: true };
    existing = row;
  }
  const slug = await chooseSlug(db, input, existing);
  if (typeof slug !== "string") return slug;
  const published = publication(input, existing, now, call.timeZone);
  if ("ok" in published) return published;

  let cover: ArticleCover | null = existing?.cover ?? null;
  if (input.cover) {
    const prepared = await prepareCover(new Uint8Array(await input.cover.arrayBuffer()));
    if (!prepared.ok) return { ok: false, field: "cover", message: prepared.message };
    const stored = await storeCover(storage, prepared);
    cover = { hash: stored.coverHash, color: stored.coverColor, alt: input.coverAlt };
  } else if (cover && input.coverAlt) {
    cover = { ...cover, alt: input.coverAlt };
  } else if (cover && !input.coverAlt) {
    return { ok: false, field: "coverAlt", message: "Describe the cover for people who cannot see it" };
  }

  const values = {
    slug,
    title: input.title,
    excerpt: input.excerpt,
    body: input.body,
    tags: input.tags,
    cover,
    status: published.status,
    publishedAt: published.publishedAt,
    updatedAt: now,
  };
  const outcome = outcomeOf(input, existing === null);
  try {
    const id = await db.transaction(async (tx) => {
      let id: string;
      if (existing) {
        await tx.update(articles).set(values).where(eq(articles.id, existing.id));
        id = existing.id;
      } else {
        const [row] = await tx
          .insert(articles)
          .values({ ...values, authorId: call.actorId, createdAt: now })
          .returning({ id: articles.id });
        id = row!.id;
      }
      await recordAudit(tx as unknown as Db, {
        actorId: call.actorId,
        action: AUDIT_ACTIONS[outcome],
        subjectType: "article",
        subjectId: id,
        details: {
          title: input.title,
          slug,
          status: published.status,
          publishedAt: published.publishedAt?.toISOString() ?? null,
          ...(input.cover ? { cover: cover?.hash } : {}),
        },
      });
      return id;
    });
    return { ok: true, id, slug, outcome };
  } catch (error) {
    // Two editors taking the same address at once: the unique index decides.
    if (isUniqueViolation(error))
      return { ok: false, field: "slug", message: "Another article already uses this address. Choose another." };
    throw error;
  }
}

/** Images in a body are at most this wide: twice the reading column. */
const BODY_IMAGE_WIDTH = 1536;

/**
 * An image for an article's body through the media pipeline (checked by content, upright,
 * metadata removed), stored once as WebP by its content hash. Answers the Markdown to insert.
 */
export async function storeBodyImage(
  storage: Storage,
  bytes: Uint8Array,
  alt: string,
): Promise<{ ok: true; url: string; markdown: string } | { ok: false; message: string }> {
  const prepared = await prepareUpload(bytes, {
    maxBytes: 15 * 1024 * 1024,
    maxPixels: 10_000 * 10_000,
    maxSide: 4000,
    noun: "image",
    checkSize: (width, height) =>
      Math.min(width, height) < 64 ? `This image is too small (${width} × ${height} pixels).` : null,
  });
  if (!prepared.ok) return prepared;
  const key = `articles/${renditionHash(prepared.master)}-${BODY_IMAGE_WIDTH}.webp`;
  if (!(await storage.exists(key)))
    await storage.put(key, await encodeRendition(prepared.master, BODY_IMAGE_WIDTH, "webp"), "image/webp");
  const url = storage.url(key);
  // Brackets in the description would end the Markdown's alt text early.
  const text = alt.replace(/[[\]\\]/g, "");
  return { ok: true, url, markdown: `![${text}](${url})` };
}

export type AdminArticleRow = {
  id: string;
  slug: string;
  title: string;
  status: ArticleStatus;
  publishedAt: Date | null;
  updatedAt: Date;
  authorName: string | null;
  tags: string[];
};

/** Every article for the staff list, newest change first; `q` searches titles. */
export async function listArticlesForStaff(
  db: Db,
  options: { q?: string; limit?: number },
): Promise<AdminArticleRow[]> {
  const q = (options.q ?? "").trim().slice(0, 100);
  return db
    .select({
      id: articles.id,
      slug: articles.slug,
      title: articles.title,
      status: articles.status,
      publishedAt: articles.publishedAt,
      updatedAt: articles.updatedAt,
      authorName: users.name,
      tags: articles.tags,
    })
    .from(articles)
    .leftJoin(users, eq(users.id, articles.authorId))
    .where(q ? ilike(articles.title, containing(q)) : sql`true`)
    .orderBy(desc(articles.updatedAt), desc(articles.id))
    .limit(options.limit ?? 200);
}

/** An article as the editor opens it. */
export async function articleForEditor(db: Db, id: string) {
  const [row] = await db
    .select(articleColumns)
    .from(articles)
    .leftJoin(users, eq(users.id, articles.authorId))
    .where(eq(articles.id, id));
  return row ?? null;
}

/** Where an article stands: a draft, scheduled (published with a time ahead) or published. */
export function articleState(article: { status: ArticleStatus; publishedAt: Date | null }, now: Date) {
  if (article.status === "draft" || !article.publishedAt) return "draft" as const;
  return article.publishedAt > now ? ("scheduled" as const) : ("published" as const);
}
