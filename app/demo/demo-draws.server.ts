import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import { closeDraw, drawWinner, publishDraw, recordBeacon } from "~/features/draws/closing.server";
import type { Db } from "~/server/db/client.server";
import type { Seeder } from "~/server/seed.server";
import { drawEntries, draws, users } from "../../db/schema";
import { type CoverArt, storeDemoCovers } from "./demo-covers.server";
import { BRANDS_HATCH_AT_DUSK, COAST_ROAD_AT_NIGHT } from "./demo-events.server";

/**
 * Demo prize draws for a new install: a live competition with instant wins, one closing within hours, a free
 * giveaway and one sold out and drawn, so a newcomer sees every state. Entries already in
 * them are postal entries from made-up entrants; the drawn one is closed and drawn through the
 * same functions as a real draw, so its verify page checks out.
 */

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

type DemoDraw = Omit<typeof draws.$inferInsert, "images" | "createdBy" | "status" | "rules" | "beaconSource"> & {
  beaconSource?: string;
  art: CoverArt[];
  alt: string[];
  entries: number;
  drawn?: boolean;
};

/** The rules every demo draw shows. */
const RULES =
  "Entries close at the closing time shown. The winner is told by email within 7 days and named on this page.";
/** Where a demo draw's random number will come from, unless the draw names its own. */
const NEXT_ROUND = "drand quicknet, the first round after the closing time";
const POSTAL = "Pitlane Prize Draws, PO Box 123, Milton Keynes MK1 1AA";

function demoDraws(now: Date): DemoDraw[] {
  const at = (ms: number) => new Date(now.getTime() + ms);
  return [
    {
      slug: "win-a-mk2-golf-gti",
      title: "Win a 1989 Mk2 Golf GTI 16v",
      kind: "competition",
      summary: "A restored Mk2 16v in Tornado Red, or £9,000 cash.",
      description:
        "A **1989 Golf GTI 16v**, restored over two winters: fresh paint, rebuilt KR engine, new clutch and a full history file.\n\nMOT until next summer. Collected from our unit or delivered anywhere in mainland UK.",
      prize: "1989 Volkswagen Golf GTI 16v",
      prizeValue: 1_200_000,
      cashAlternative: 900_000,
      price: 249,
      bundles: [
        { entries: 5, price: 1000 },
        { entries: 10, price: 1800 },
        { entries: 25, price: 4000 },
      ],
      totalEntries: 6000,
      maxPerMember: 100,
      minEntries: 3000,
      undersoldPolicy: "extend",
      extendDays: 7,
      opensAt: at(-5 * DAY),
      closesAt: at(10 * DAY),
      instantWins: [
        { number: 17, prize: "£50 fuel card" },
        { number: 404, prize: "Pitlane hoodie" },
        { number: 999, prize: "£50 fuel card" },
        { number: 1234, prize: "Detailing kit" },
        { number: 2024, prize: "£100 fuel card" },
        { number: 3333, prize: "Pitlane hoodie" },
        { number: 4096, prize: "£50 fuel card" },
        { number: 5150, prize: "Track-day passenger ride" },
      ],
      question: "Which company makes the Golf?",
      options: ["Ford", "Volkswagen", "Vauxhall"],
      answer: 1,
      postalRoute: POSTAL,
      art: [
        {
          scene: "floodlit",
          car: "hatch",
          lights: 2,
          backdrop: "city",
          palette: {
            sky: ["#03101a", "#134a5a"],
            glow: "#3de0ff",
            paint: ["#ff3b30", "#5a0b0b"],
            ground: ["#1a1c20", "#050607"],
          },
        },
        {
          scene: "hills",
          car: "hatch",
          palette: {
            sky: ["#6fb1e0", "#d8ecf7"],
            glow: "#fff3c4",
            paint: ["#ff3b30", "#5a0b0b"],
            ground: ["#4e7a3a", "#1e3318"],
          },
        },
      ],
      alt: ["The red Golf GTI under floodlights", "The Golf GTI on a country road"],
      entries: 2280,
    },
    {
      slug: "track-day-for-two",
      title: "Track day for two at Brands Hatch",
      kind: "competition",
      summary: "Two places on an open-pit track day, with tuition. Closing tonight.",
      description: "Bring your own car: open pit lane, a sighting session and an hour with an instructor.",
      prize: "Two track-day places with tuition",
      prizeValue: 60_000,
      cashAlternative: 45_000,
      price: 99,
      bundles: [{ entries: 10, price: 800 }],
      totalEntries: 1000,
      maxPerMember: 50,
      minEntries: 1,
      undersoldPolicy: "cash",
      opensAt: at(-9 * DAY),
      closesAt: at(6 * HOUR),
      question: "How many wheels drive a rear-wheel-drive car?",
      options: ["One", "Two", "Four"],
      answer: 1,
      postalRoute: POSTAL,
      art: [BRANDS_HATCH_AT_DUSK],
      alt: ["The Brands Hatch circuit at dusk"],
      entries: 870,
    },
    {
      slug: "detailing-kit-giveaway",
      title: "Free giveaway: a pro detailing kit",
      kind: "giveaway",
      summary: "Snow foam, ceramic spray, polisher and towels. Free to enter, one entry each.",
      description: "Everything for a weekend of detailing. Members enter free; one entry per member.",
      prize: "Detailing kit with dual-action polisher",
      prizeValue: 35_000,
      cashAlternative: null,
      price: 0,
      bundles: [],
      totalEntries: 5000,
      maxPerMember: 1,
      minEntries: 1,
      undersoldPolicy: "cash",
      opensAt: at(-2 * DAY),
      closesAt: at(12 * DAY),
      question: "What should you use to wash a car?",
      options: ["Washing-up liquid", "Car shampoo", "Sand"],
      answer: 1,
      art: [COAST_ROAD_AT_NIGHT],
      alt: ["A freshly detailed coupe by the sea at night"],
      entries: 312,
    },
    {
      slug: "forged-wheel-set",
      title: "Forged wheel set, fitted",
      kind: "competition",
      summary: "Sold out and drawn: a set of four forged 18-inch wheels, fitted and balanced.",
      description: "Four forged 18-inch wheels in satin bronze, with fitting and balancing at our partner garage.",
      prize: "Four forged 18-inch wheels, fitted",
      prizeValue: 240_000,
      cashAlternative: 180_000,
      price: 150,
      bundles: [{ entries: 5, price: 600 }],
      totalEntries: 400,
      maxPerMember: 40,
      minEntries: 1,
      undersoldPolicy: "cash",
      opensAt: at(-30 * DAY),
      closesAt: at(-3 * DAY),
      question: "How many wheels are in a set?",
      options: ["Two", "Four", "Six"],
      answer: 1,
      postalRoute: POSTAL,
      beaconSource: "drand quicknet round 12345678",
      art: [
        {
          scene: "floodlit",
          car: "supercar",
          lights: 3,
          backdrop: "grandstand",
          palette: {
            sky: ["#0b0614", "#2b1a4a"],
            glow: "#c9a0ff",
            paint: ["#c08a4a", "#3a2410"],
            ground: ["#1a1620", "#060508"],
          },
        },
      ],
      alt: ["A sports car on bronze forged wheels under floodlights"],
      entries: 400,
      drawn: true,
    },
  ];
}

const FIRST = ["Alex", "Sam", "Jamie", "Chris", "Priya", "Tom", "Ellie", "Mo", "Hannah", "Dev", "Katie", "Lewis"];
const LAST = ["Taylor", "Shah", "Evans", "Walsh", "Hughes", "Patel", "Green", "Murphy", "Clarke", "Jones"];

/** `count` distinct numbers from 1 to `total`, at random. */
function randomNumbers(total: number, count: number) {
  const pool = Array.from({ length: total }, (_, index) => index + 1);
  for (let i = 0; i < count; i++) {
    const j = i + randomInt(total - i);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, count);
}

export const demoDrawsSeeder: Seeder = {
  name: "demo-draws",
  demo: true,
  async run(db: Db, { storage }) {
    const now = new Date();
    const programme = demoDraws(now);
    const images = await storeDemoCovers(
      storage,
      programme.flatMap((draw) => draw.art.map((art, index) => ({ art, seed: `${draw.slug}-${index}` }))),
    );
    const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, "admin@pitlane.test")).limit(1);
    const actorId = admin?.id ?? null;
    let next = 0;
    for (const { art, alt, entries, drawn, ...draw } of programme) {
      const stored = art.map((_, index) => ({ ...images[next++]!, alt: alt[index] ?? "" }));
      const [row] = await db
        .insert(draws)
        .values({
          ...draw,
          status: "draft",
          rules: RULES,
          beaconSource: draw.beaconSource ?? NEXT_ROUND,
          // Published below, so the commitment is made the way a real draw's is.
          closesAt: drawn ? new Date(now.getTime() + DAY) : draw.closesAt,
          images: stored.map((image) => ({ hash: image.coverHash, color: image.coverColor, alt: image.alt })),
          createdBy: actorId,
        })
        .returning({ id: draws.id });
      const drawId = row!.id;
      await publishDraw(db, { drawId, actorId, now });
      const numbers = randomNumbers(draw.totalEntries, entries);
      const rows = numbers.map((number, index) => ({
        drawId,
        number,
        source: "postal" as const,
        answer: index % 9 === 0 ? 0 : draw.answer,
        eligible: index % 9 !== 0,
        postalName: `${FIRST[index % FIRST.length]} ${LAST[(index * 7) % LAST.length]}`,
        postalAddress: "Demo entrant",
        receivedAt: now,
        createdAt: now,
      }));
      for (let i = 0; i < rows.length; i += 500) await db.insert(drawEntries).values(rows.slice(i, i + 500));
      const full = entries >= draw.totalEntries;
      await db
        .update(draws)
        .set({
          allocated: entries,
          ...(drawn ? { closesAt: draw.closesAt } : {}),
          ...(full ? { status: "closed" as const, closedAt: draw.closesAt } : {}),
        })
        .where(eq(draws.id, drawId));
      if (drawn) {
        await closeDraw(db, { drawId, actorId, now });
        const value = "a5f1c2e0d9b84f7e6a3c1b2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a7b8";
        await recordBeacon(db, { drawId, value, actorId, now });
        await drawWinner(db, { drawId, actorId, now });
      }
    }
  },
};
