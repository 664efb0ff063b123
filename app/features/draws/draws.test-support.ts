import { randomUUID } from "node:crypto";
import type { Db } from "~/server/db/client.server";
import { cartItems, carts, draws, users } from "../../../db/schema";
import { recordPostalEntry } from "./enter.server";
import { commitmentOf, newSeed } from "./fairness";

/** Draws, entrants and carts made straight in the database for the draw tests. */

export const DRAW_NOW = new Date("2027-05-01T10:00:00Z");

let drawCount = 0;

export async function createTestDraw(
  db: Db,
  input: Partial<typeof draws.$inferInsert> = {},
): Promise<{ id: string; slug: string; title: string }> {
  drawCount++;
  const title = input.title ?? `Test draw ${drawCount}`;
  const seed = newSeed();
  const [draw] = await db
    .insert(draws)
    .values({
      slug: `test-draw-${drawCount}-${randomUUID().slice(0, 8)}`,
      title,
      kind: "competition",
      status: "live",
      prize: "A track day for two",
      prizeValue: 50_000,
      cashAlternative: 40_000,
      price: 200,
      bundles: [{ entries: 5, price: 800 }],
      totalEntries: 100,
      maxPerMember: 20,
      opensAt: new Date(DRAW_NOW.getTime() - 24 * 60 * 60 * 1000),
      closesAt: new Date(DRAW_NOW.getTime() + 7 * 24 * 60 * 60 * 1000),
      question: "How many wheels does a car have?",
      options: ["Three", "Four", "Five"],
      answer: 1,
      beaconSource: "drand quicknet round 1000",
      seed,
      commitment: await commitmentOf(seed),
      publishedAt: DRAW_NOW,
      ...input,
    })
    .returning({ id: draws.id, slug: draws.slug, title: draws.title });
  return draw!;
}

let entrantCount = 0;

/** Adult members with a verified phone, inserted in one statement. */
export async function createEntrants(db: Db, count: number, overrides: Partial<typeof users.$inferInsert> = {}) {
  const rows = Array.from({ length: count }, () => {
    entrantCount++;
    const id = randomUUID();
    return {
      id,
      name: `Entrant ${entrantCount}`,
      email: `entrant-${id}@example.test`,
      emailVerified: true,
      dateOfBirth: "1990-01-01",
      phoneNumberVerified: true,
      town: "Testbury",
      ...overrides,
    };
  });
  await db.insert(users).values(rows);
  return rows.map(({ id, email }) => ({ id, email }));
}

/** A member's cart holding bundles of entries, written directly (no checks). */
export async function fillEntryCart(
  db: Db,
  userId: string,
  lines: { drawId: string; entriesPerUnit: number; quantity: number; answer: number }[],
) {
  const [cart] = await db.insert(carts).values({ userId }).returning({ id: carts.id });
  await db.insert(cartItems).values(lines.map((line) => ({ cartId: cart!.id, kind: "entry" as const, ...line })));
  return cart!.id;
}

/** A postal entry with the right answer, received and recorded by `actorId` at `at` (DRAW_NOW unless told). */
export function postalEntry(
  db: Db,
  input: { drawId: string; actorId: string; userId?: string | null; name?: string; at?: Date },
) {
  const at = input.at ?? DRAW_NOW;
  return recordPostalEntry(db, {
    drawId: input.drawId,
    name: input.name ?? "Pat Post",
    address: "1 High Street, Testbury",
    receivedAt: at,
    answer: 1,
    userId: input.userId ?? null,
    actorId: input.actorId,
    now: at,
  });
}
