import { type SQL, sql } from "drizzle-orm";
import { customType, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * draft (staff only) or published. A published article whose `published_at` is still ahead is
 * scheduled: it appears on its own at that moment, with no job to run.
 */
export const ARTICLE_STATUSES = ["draft", "published"] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

/** A stored article cover: the content hash of its renditions (media pipeline), colour and text. */
export type ArticleCover = { hash: string; color: string; alt: string };

/** An article on /blog (docs/articles.md). */
export const articles = pgTable(
  "articles",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    excerpt: text("excerpt").notNull().default(""),
    /** Markdown, rendered with raw HTML escaped and only http(s), mailto and relative links. */
    body: text("body").notNull().default(""),
    cover: jsonb("cover").$type<ArticleCover>(),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    /** Lower-case, hyphenated: "track-days". */
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    status: text("status", { enum: ARTICLE_STATUSES }).notNull().default("draft"),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    /** Full-text search over the title, excerpt and body (tags have their own filter). */
    search: tsvector("search").generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english', coalesce(${articles.title}, '')), 'A') || setweight(to_tsvector('english', coalesce(${articles.excerpt}, '')), 'B') || setweight(to_tsvector('english', coalesce(${articles.body}, '')), 'C')`,
    ),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("articles_slug_key").on(table.slug),
    index("articles_listing_idx").on(table.status, table.publishedAt),
    index("articles_tags_idx").using("gin", table.tags),
    index("articles_search_idx").using("gin", table.search),
  ],
);
