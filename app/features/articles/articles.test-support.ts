import type { Db } from "~/server/db/client.server";
import { articles } from "../../../db/schema";

// Test support for articles: articles written directly.

let serial = 0;

/** An article written straight into the table: published a day ago unless told otherwise. */
export async function addArticle(db: Db, values: Partial<typeof articles.$inferInsert> & { title: string }) {
  serial += 1;
  const [row] = await db
    .insert(articles)
    .values({
      slug: `${values.title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${serial}`,
      status: "published",
      publishedAt: new Date(Date.now() - 24 * 60 * 60 * 1000),
      body: "Some words about cars.",
      ...values,
    })
    .returning({ id: articles.id, slug: articles.slug });
  return row!;
}
