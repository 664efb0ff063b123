import { and, arrayContains, asc, desc, eq, isNotNull, lte, ne, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { users } from "../../../db/schema/accounts";
import { type ArticleCover, articles } from "../../../db/schema/articles";
import { sharesPublicCar } from "../community/visibility.server";
import { isTag } from "./tags";

/**
 * The public side of articles (docs/articles.md): the /blog list, an article's page, related
 * articles, the feed, the home page's latest. An article is public when it is published and
 * its `published_at` has come; a scheduled one turns public on its own at that moment, because
 * every query here compares with the `now` it is given. Drafts never leave this module.
 */

const PER_PAGE = 12;
/** Longest search text we look at: anything longer is cut, never refused. */
const MAX_QUERY_LENGTH = 100;
const MAX_SEARCH_WORDS = 8;
/** Reading speed behind "4 min read". */
const WORDS_PER_MINUTE = 230;

export type { ArticleCover };

/** What an article card shows, on /blog and on the home page. */
export type ArticleCard = {
  slug: string;
  title: string;
  excerpt: string;
  cover: ArticleCover | null;
  publishedAt: Date;
  tags: string[];
  readingMinutes: number;
  authorName: string | null;
};

/** Published, and its time has come. */
const isPublicAt = (now: Date) =>
  and(eq(articles.status, "published"), isNotNull(articles.publishedAt), lte(articles.publishedAt, now))!;

/** Words in the body, counted by the database so a list never loads whole bodies. */
const bodyWords = sql<number>`coalesce(array_length(regexp_split_to_array(btrim(${articles.body}), '\\s+'), 1), 0)::int`;

/** Minutes to read `words` words: at least one. */
export function readingMinutes(words: number) {
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}

/** Words in a Markdown source, as a reader counts them. */
function countWords(source: string) {
  const trimmed = source.trim();
  return trimmed === "" ? 0 : trimmed.split(/\s+/).length;
}

const cardColumns = {
  slug: articles.slug,
  title: articles.title,
  excerpt: articles.excerpt,
  cover: articles.cover,
  publishedAt: articles.publishedAt,
  tags: articles.tags,
  words: bodyWords,
  authorName: users.name,
};

type CardRow = {
  slug: string;
  title: string;
  excerpt: string;
  cover: ArticleCover | null;
  publishedAt: Date | null;
  tags: string[];
  words: number;
  authorName: string | null;
};

function toCard(row: CardRow): ArticleCard {
  return {
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    cover: row.cover ?? null,
    publishedAt: row.publishedAt ?? new Date(0),
    tags: row.tags,
    readingMinutes: readingMinutes(row.words),
    authorName: row.authorName ?? null,
  };
}

const newestFirst = [desc(articles.publishedAt), desc(articles.id)];

/** The newest public articles, for the home page's DiscoverArticles. */
export async function latestArticles(db: Db, options: { now: Date; limit: number }): Promise<ArticleCard[]> {
  const rows = await db
    .select(cardColumns)
    .from(articles)
    .leftJoin(users, eq(users.id, articles.authorId))
    .where(isPublicAt(options.now))
    .orderBy(...newestFirst)
    .limit(Math.min(Math.max(1, Math.trunc(options.limit)), 48));
  return rows.map(toCard);
}

/** The search text as we use it: trimmed, spaces collapsed, at most MAX_QUERY_LENGTH characters. */
export function normaliseQuery(q: string | null | undefined) {
  return (q ?? "").replace(/\s+/g, " ").trim().slice(0, MAX_QUERY_LENGTH).trim();
}

/**
 * websearch_to_tsquery reads what people type ("quoted phrases", -excluded, or) and never
 * fails on odd input; it only matches whole words, so a second query matches the last word as
 * a prefix, for someone still typing ("silver" finds Silverstone). That query is built from
 * letters and digits only, so nothing typed can break its syntax. Words the parser drops (stop
 * words alone: "the") leave an empty query, which matches nothing rather than failing.
 */
function searchQueries(q: string) {
  const web = sql`websearch_to_tsquery('english', ${q})`;
  if (/"|(^|\s)-|\bor\b/i.test(q)) return { condition: sql`${articles.search} @@ ${web}`, rank: web };
  const words = (q.match(/[\p{L}\p{N}]+/gu) ?? []).slice(-MAX_SEARCH_WORDS);
  if (words.length === 0) return { condition: sql`${articles.search} @@ ${web}`, rank: web };
  const prefix = words.map((word, i) => (i === words.length - 1 ? `${word}:*` : word)).join(" & ");
  const prefixQuery = sql`to_tsquery('english', ${prefix})`;
  return {
    condition: or(sql`${articles.search} @@ ${web}`, sql`${articles.search} @@ ${prefixQuery}`)!,
    rank: sql`(${web} || ${prefixQuery})`,
  };
}

export type ArticlesListQuery = { q?: string; tag?: string; page: number; perPage?: number; now: Date };

export type TagFacet = { tag: string; count: number };

export type ArticlesList = {
  articles: ArticleCard[];
  total: number;
  page: number;
  pageCount: number;
  perPage: number;
  /** The search as it was used (trimmed and cut). */
  q: string;
  tag: string | null;
};

/**
 * One page of /blog: public articles, filtered by a tag and searched by words, best matches
 * first when searching and newest first otherwise. Two queries: the count, then the page.
 */
export async function listArticles(db: Db, query: ArticlesListQuery): Promise<ArticlesList> {
  const perPage = Math.min(Math.max(1, Math.trunc(query.perPage ?? PER_PAGE)), 48);
  const q = normaliseQuery(query.q);
  const tag = isTag(query.tag) ? query.tag : null;
  const filters: SQL[] = [isPublicAt(query.now)];
  if (tag) filters.push(arrayContains(articles.tags, [tag]));
  const search = q ? searchQueries(q) : null;
  if (search) filters.push(search.condition as SQL);

  const [counted] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(articles)
    .where(and(...filters));
  const total = counted?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const page = Math.min(Math.max(1, Number.isFinite(query.page) ? Math.trunc(query.page) : 1), pageCount);

  const order = search ? [desc(sql`ts_rank(${articles.search}, ${search.rank})`), ...newestFirst] : newestFirst;
  const rows =
    total === 0
      ? []
      : await db
          .select(cardColumns)
          .from(articles)
          .leftJoin(users, eq(users.id, articles.authorId))
          .where(and(...filters))
          .orderBy(...order)
          .limit(perPage)
          .offset((page - 1) * perPage);
  return { articles: rows.map(toCard), total, page, pageCount, perPage, q, tag };
}

/** Every tag on a public article, with how many, most used first. */
export async function tagsInUse(db: Db, now: Date): Promise<TagFacet[]> {
  const result = (await db.execute(sql`
    select t.tag, count(*)::int as count
    from ${articles}, unnest(${articles.tags}) as t(tag)
    where ${isPublicAt(now)}
    group by t.tag
    order by count(*) desc, t.tag asc`)) as unknown as { rows: { tag: string; count: number }[] };
  return result.rows.map((row) => ({ tag: row.tag, count: Number(row.count) }));
}

export type ArticlePage = {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  body: string;
  cover: ArticleCover | null;
  tags: string[];
  status: "draft" | "published";
  publishedAt: Date | null;
  updatedAt: Date;
  readingMinutes: number;
  /**
   * `handle` only when the author's community profile opens for everyone, so the page links to
   * it; `image` only when the author chose to show their photo (docs/community.md "Profiles").
   */
  author: { name: string; handle: string | null; image: string | null } | null;
  /** Not public yet: a draft, or published with a time still ahead. */
  unpublished: boolean;
};

/** An article whole, with its author's name: what its page and the editor read (the author joined). */
export const articleColumns = {
  id: articles.id,
  slug: articles.slug,
  title: articles.title,
  excerpt: articles.excerpt,
  body: articles.body,
  cover: articles.cover,
  tags: articles.tags,
  status: articles.status,
  publishedAt: articles.publishedAt,
  updatedAt: articles.updatedAt,
  authorName: users.name,
};

/**
 * An article by its slug. Public ones only, unless `preview` (staff): then drafts and
 * scheduled ones too, marked `unpublished`. Null when there is none to show.
 */
export async function articleBySlug(
  db: Db,
  slug: string,
  options: { now: Date; preview?: boolean },
): Promise<ArticlePage | null> {
  if (!slug || slug.length > 200) return null;
  const [row] = await db
    .select({
      ...articleColumns,
      authorHandle: users.handle,
      authorOnboardedAt: users.onboardedAt,
      authorSharesPublicCar: sharesPublicCar(articles.authorId),
      authorImage: users.image,
      authorAvatarPublic: users.avatarPublic,
    })
    .from(articles)
    .leftJoin(users, eq(users.id, articles.authorId))
    .where(options.preview ? eq(articles.slug, slug) : and(eq(articles.slug, slug), isPublicAt(options.now)))
    .limit(1);
  if (!row) return null;
  const unpublished = row.status !== "published" || row.publishedAt === null || row.publishedAt > options.now;
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    body: row.body,
    cover: row.cover ?? null,
    tags: row.tags,
    status: row.status,
    publishedAt: row.publishedAt,
    updatedAt: row.updatedAt,
    readingMinutes: readingMinutes(countWords(row.body)),
    author: row.authorName
      ? {
          name: row.authorName,
          handle: row.authorOnboardedAt && row.authorSharesPublicCar ? row.authorHandle : null,
          image: row.authorAvatarPublic ? row.authorImage : null,
        }
      : null,
    unpublished,
  };
}

/** Up to `limit` other public articles: those sharing most tags first, then the newest. */
export async function relatedArticles(
  db: Db,
  article: { id: string; tags: string[] },
  options: { now: Date; limit?: number },
): Promise<ArticleCard[]> {
  const tags = article.tags.filter(isTag);
  // Without tags there is nothing to share: the newest come first.
  const byShared =
    tags.length === 0
      ? []
      : [
          desc(
            sql<number>`cardinality(array(select unnest(${articles.tags}) intersect select unnest(array[${sql.join(
              tags.map((tag) => sql`${tag}`),
              sql`, `,
            )}]::text[])))`,
          ),
        ];
  const rows = await db
    .select(cardColumns)
    .from(articles)
    .leftJoin(users, eq(users.id, articles.authorId))
    .where(and(isPublicAt(options.now), ne(articles.id, article.id)))
    .orderBy(...byShared, ...newestFirst)
    .limit(options.limit ?? 3);
  return rows.map(toCard);
}

export type FeedEntry = {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  body: string;
  tags: string[];
  publishedAt: Date;
  updatedAt: Date;
  authorName: string | null;
};

/** The newest public articles with their bodies, for the Atom feed. */
export async function feedArticles(db: Db, options: { now: Date; limit?: number }): Promise<FeedEntry[]> {
  const rows = await db
    .select({
      id: articles.id,
      slug: articles.slug,
      title: articles.title,
      excerpt: articles.excerpt,
      body: articles.body,
      tags: articles.tags,
      publishedAt: articles.publishedAt,
      updatedAt: articles.updatedAt,
      authorName: users.name,
    })
    .from(articles)
    .leftJoin(users, eq(users.id, articles.authorId))
    .where(isPublicAt(options.now))
    .orderBy(...newestFirst)
    .limit(options.limit ?? 20);
  return rows.map((row) => ({ ...row, publishedAt: row.publishedAt ?? new Date(0) }));
}

/** Public articles for the sitemap: slug and when each last changed. */
export async function sitemapArticles(db: Db, now: Date) {
  return db
    .select({ slug: articles.slug, updatedAt: articles.updatedAt })
    .from(articles)
    .where(isPublicAt(now))
    .orderBy(asc(articles.slug));
}
