import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { draws, users } from "../../../db/schema";
import { publishDraw } from "./closing.server";

/**
 * For end-to-end tests only (the fixture route exists with ENABLE_TEST_FIXTURES): a small live
 * competition of its own (members may choose numbers), published through the real step, so a journey can fill it, close it
 * and draw it without touching the demo draws other specs look at.
 */
export async function liveFixtureDraw(db: Db, now: Date) {
  const slug = `journey-draw-${randomUUID().slice(0, 8)}`;
  const [draw] = await db
    .insert(draws)
    .values({
      slug,
      title: `Win a set of track tyres (${slug.slice(-8)})`,
      kind: "competition",
      summary: "Four semi-slicks, fitted and balanced.",
      description: "Four **semi-slick** tyres in your size, fitted and balanced at our unit.",
      prize: "A set of four track tyres",
      prizeValue: 80_000,
      cashAlternative: 60_000,
      price: 200,
      bundles: [{ entries: 5, price: 800 }],
      totalEntries: 20,
      maxPerMember: 5,
      allowPicks: true,
      minEntries: 1,
      undersoldPolicy: "cash",
      opensAt: new Date(now.getTime() - 60_000),
      closesAt: new Date(now.getTime() + 24 * 60 * 60 * 1000),
      question: "Which tyres are made for the track?",
      options: ["Winter tyres", "Semi-slicks", "Space savers"],
      answer: 1,
      postalRoute: "Track tyres draw, PO Box 1, Testbury TE1 1ST",
      beaconSource: "drand quicknet, the first round after the closing time",
    })
    .returning({ id: draws.id, slug: draws.slug });
  const published = await publishDraw(db, { drawId: draw!.id, actorId: null, now });
  if (!published.ok) throw new Error(published.problem);
  return draw!;
}

/** The clock moves on for a journey's own draw: its closing time is now past, so it can be closed. */
export async function makeFixtureDrawDue(db: Db, slug: string, now: Date) {
  if (!slug.startsWith("journey-draw-")) return false;
  const updated = await db
    .update(draws)
    .set({ closesAt: new Date(now.getTime() - 1000), opensAt: new Date(now.getTime() - 2000) })
    .where(eq(draws.slug, slug))
    .returning({ id: draws.id });
  return updated.length === 1;
}

/** Makes a member an entrant as their profile would: a date of birth and, if asked, a verified phone. */
export async function setEntrantProfile(
  db: Db,
  email: string,
  profile: { dateOfBirth: string | null; phone: string | null },
) {
  await db
    .update(users)
    .set({
      dateOfBirth: profile.dateOfBirth,
      phoneNumber: profile.phone,
      phoneNumberVerified: profile.phone !== null,
    })
    .where(eq(users.email, email.toLowerCase()));
}
