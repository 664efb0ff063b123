import type { Db } from "~/server/db/client.server";
import { membershipTiers } from "../../../db/schema";

let made = 0;

/** A membership tier on sale: an annual rolling tier at £30 unless told otherwise. */
export async function createTestTier(db: Db, overrides: Partial<typeof membershipTiers.$inferInsert> = {}) {
  made += 1;
  const [tier] = await db
    .insert(membershipTiers)
    .values({
      slug: `tier-${made}-${Math.random().toString(36).slice(2, 8)}`,
      name: `Tier ${made}`,
      price: 3000,
      period: "rolling",
      rollingMonths: 12,
      timeZone: "Europe/London",
      onSale: true,
      ...overrides,
    })
    .returning();
  return tier!;
}
