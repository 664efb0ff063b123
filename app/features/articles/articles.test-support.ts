import { randomUUID } from "node:crypto";
import type { SessionUser } from "~/server/context.server";
import type { Db } from "~/server/db/client.server";
import { testSessionUser } from "~/server/session-user.test-support";
import { articles, users } from "../../../db/schema";

// Test support for articles: accounts in each role and articles written directly.

const ROLES = ["member", "organizer", "admin"] as const;
export type TestRole = (typeof ROLES)[number];

let serial = 0;

/** An account with this role, and the session user the `auth` step would put in the context. */
export async function testAccount(db: Db, role: TestRole, name = `The ${role}`): Promise<SessionUser> {
  serial += 1;
  const id = randomUUID();
  const email = `${role}-${serial}-${id.slice(0, 8)}@club.example`;
  await db.insert(users).values({ id, email, name, role, emailVerified: true });
  return testSessionUser({ id, email, role, name });
}

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
