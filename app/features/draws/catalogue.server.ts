import { and, asc, desc, eq, getTableColumns, gt, inArray, ne, not, sql } from "drizzle-orm";
import { buyerPrice, memberOffer, type PriceBuyer } from "~/features/commerce/member-price";
import { renderMarkdown } from "~/features/content/markdown.server";
import type { Db } from "~/server/db/client.server";
import { formatMoney } from "~/ui/money";
import type { DrawBundle, DrawImage, DrawKind, DrawStatus, InstantWin, UndersoldPolicy } from "../../../db/schema";
import { drawEntries, draws, holds, users } from "../../../db/schema";
import { bundlesOf, type DrawPhase, drawPhase, maskedName, percentSold } from "./draw-rules";
import { ALGORITHM, type PublishedDraw } from "./fairness";

/**
 * What the public pages show of draws: the list, a draw's page, its published record. Never the
 * skill question's answer before close, never the seed before the draw.
 */

export type DrawTile = {
  slug: string;
  title: string;
  kind: DrawKind;
  prize: string;
  prizeValue: number;
  price: number;
  image: DrawImage | null;
  percentSold: number;
  closesAt: string;
  phase: DrawPhase;
  status: DrawStatus;
  winner: string | null;
  winnerNumber: number | null;
};

/**
 * How a winner is named in public: the masked name, with the town only when the member chose to
 * show it (`users.town_public`, docs/draws.md "After the draw"); a postal entrant has no town.
 */
export function winnerLabel(name: string | null, town: string | null, townPublic: boolean | null) {
  if (!name) return null;
  return town && townPublic ? `${maskedName(name)}, ${town}` : maskedName(name);
}

const tileColumns = {
  slug: draws.slug,
  title: draws.title,
  kind: draws.kind,
  prize: draws.prize,
  prizeValue: draws.prizeValue,
  price: draws.price,
  images: draws.images,
  totalEntries: draws.totalEntries,
  allocated: draws.allocated,
  opensAt: draws.opensAt,
  closesAt: draws.closesAt,
  status: draws.status,
  winnerNumber: draws.winnerNumber,
  winnerName: users.name,
  winnerTown: users.town,
  winnerTownPublic: users.townPublic,
  winnerPostalName: drawEntries.postalName,
};

type TileRow = {
  [K in keyof typeof tileColumns]: (typeof tileColumns)[K]["_"]["data"] | null;
};

function toTile(row: TileRow, now: Date): DrawTile {
  return {
    slug: row.slug!,
    title: row.title!,
    kind: row.kind!,
    prize: row.prize!,
    prizeValue: row.prizeValue!,
    price: row.price!,
    image: row.images?.[0] ?? null,
    percentSold: percentSold({ totalEntries: row.totalEntries! }, row.allocated!),
    closesAt: row.closesAt!.toISOString(),
    phase: drawPhase({ status: row.status!, opensAt: row.opensAt!, closesAt: row.closesAt! }, now),
    status: row.status!,
    winner: winnerLabel(row.winnerName ?? row.winnerPostalName, row.winnerTown, row.winnerTownPublic),
    winnerNumber: row.winnerNumber,
  };
}

const winnerJoin = and(eq(drawEntries.drawId, draws.id), eq(drawEntries.number, draws.winnerNumber));

function tileQuery(db: Db) {
  return db
    .select(tileColumns)
    .from(draws)
    .leftJoin(drawEntries, winnerJoin)
    .leftJoin(users, eq(users.id, drawEntries.userId));
}

/**
 * `/giveaways`: live draws ending soonest first, then the twelve most recently closed and drawn.
 * A live draw past its time is shown with the closed ones even before the close job has run.
 */
export async function listDraws(db: Db, now: Date) {
  const stillOpen = and(eq(draws.status, "live"), gt(draws.closesAt, now));
  const [open, ended] = await Promise.all([
    tileQuery(db).where(stillOpen).orderBy(asc(draws.closesAt)),
    tileQuery(db)
      .where(and(inArray(draws.status, ["live", "closed", "drawn"]), not(stillOpen!)))
      .orderBy(desc(draws.closesAt))
      .limit(12),
  ]);
  return { live: open.map((row) => toTile(row, now)), ended: ended.map((row) => toTile(row, now)) };
}

export type DrawPage = {
  id: string;
  slug: string;
  title: string;
  kind: DrawKind;
  summary: string;
  descriptionHtml: string;
  rulesHtml: string;
  prize: string;
  prizeValue: number;
  cashAlternative: number | null;
  cashPrize: boolean;
  images: DrawImage[];
  price: number;
  bundles: DrawBundle[];
  totalEntries: number;
  allocated: number;
  held: number;
  percentSold: number;
  maxPerMember: number;
  minEntries: number;
  undersoldPolicy: UndersoldPolicy;
  extendDays: number;
  extended: boolean;
  opensAt: string;
  closesAt: string;
  phase: DrawPhase;
  status: DrawStatus;
  question: string;
  options: string[];
  allowPicks: boolean;
  postalRoute: string;
  beaconSource: string;
  beaconValue: string | null;
  commitment: string | null;
  listHash: string | null;
  eligibleCount: number | null;
  /** Revealed only once drawn. */
  seed: string | null;
  /** Revealed only after close. */
  correctAnswer: string | null;
  winner: { number: number; name: string | null } | null;
  cancelReason: string | null;
  /** Instant wins: how many, the commitment, and after close the list with who won each. */
  instantWins: {
    count: number;
    commitment: string | null;
    salt: string | null;
    revealed: { number: number; prize: string; winner: string | null }[] | null;
  } | null;
};

/** A bundle as the draw page offers it to one buyer: what they pay, and a note in words. */
export type BundleOffer = { entries: number; price: number; note: string | null };

/** A draw's page as one buyer sees it: its bundles at their prices. */
export type OfferedDrawPage = Omit<DrawPage, "bundles"> & { bundles: BundleOffer[] };

/**
 * The page's bundles at `buyer`'s prices (docs/membership.md, "Member prices…"), each noting what
 * it saves on single entries, "Member price" for a member who pays one, and what members pay for
 * anyone else. The words are made here, so the page's script does not grow with them.
 */
export function offeredTo(page: DrawPage, buyer: PriceBuyer, currency: string): OfferedDrawPage {
  const money = (minor: number) => formatMoney(minor, currency);
  const single = page.bundles[0] ? buyerPrice(page.bundles[0], buyer) : 0;
  const bundles = page.bundles.map((bundle) => {
    const price = buyerPrice(bundle, buyer);
    const saving = single * bundle.entries - price;
    const members = memberOffer(bundle, buyer);
    const notes = [
      price === bundle.price ? null : "Member price",
      saving > 0 ? `Save ${money(saving)}` : null,
      members === null ? null : `Members pay ${money(members)}`,
    ].filter((note) => note !== null);
    return { entries: bundle.entries, price, note: notes.length > 0 ? notes.join(" · ") : null };
  });
  return { ...page, bundles };
}

/** A public draw's id by slug, for the page's form; drafts are not public. */
export async function publicDraw(db: Db, slug: string) {
  const [draw] = await db
    .select({ id: draws.id, slug: draws.slug })
    .from(draws)
    .where(and(eq(draws.slug, slug), ne(draws.status, "draft")));
  return draw ?? null;
}

/** A draw's public page, by slug; drafts are not public. */
export async function drawPage(db: Db, slug: string, now: Date): Promise<DrawPage | null> {
  const [row] = await db
    .select({
      ...getTableColumns(draws),
      // Entries held by unpaid orders, read with the draw in one statement.
      held: sql<number>`(select coalesce(sum(${holds.quantity}), 0)::int from ${holds}
        where ${and(eq(holds.drawId, draws.id), eq(holds.status, "active"), gt(holds.expiresAt, now))})`,
    })
    .from(draws)
    .where(eq(draws.slug, slug));
  if (!row || row.status === "draft") return null;
  const { held, ...draw } = row;
  const phase = drawPhase(draw, now);
  let winner: DrawPage["winner"] = null;
  if (draw.status === "drawn" && draw.winnerNumber !== null) {
    const [row] = await db
      .select({ name: users.name, town: users.town, townPublic: users.townPublic, postalName: drawEntries.postalName })
      .from(drawEntries)
      .leftJoin(users, eq(users.id, drawEntries.userId))
      .where(and(eq(drawEntries.drawId, draw.id), eq(drawEntries.number, draw.winnerNumber)));
    winner = {
      number: draw.winnerNumber,
      name: winnerLabel(row?.name ?? row?.postalName ?? null, row?.town ?? null, row?.townPublic ?? null),
    };
  }
  const closedForGood = draw.status === "closed" || draw.status === "drawn";
  const instantWins = draw.instantWins.length > 0 ? await instantWinsOf(db, draw, closedForGood) : null;
  return {
    id: draw.id,
    slug: draw.slug,
    title: draw.title,
    kind: draw.kind,
    summary: draw.summary,
    descriptionHtml: renderMarkdown(draw.description),
    rulesHtml: renderMarkdown(draw.rules),
    prize: draw.prize,
    prizeValue: draw.prizeValue,
    cashAlternative: draw.cashAlternative,
    cashPrize: draw.cashPrize,
    images: draw.images,
    price: draw.price,
    bundles: bundlesOf(draw),
    totalEntries: draw.totalEntries,
    allocated: draw.allocated,
    held: Number(held),
    percentSold: percentSold(draw, draw.allocated),
    maxPerMember: draw.maxPerMember,
    minEntries: draw.minEntries,
    undersoldPolicy: draw.undersoldPolicy,
    extendDays: draw.extendDays,
    extended: draw.extended,
    opensAt: draw.opensAt.toISOString(),
    closesAt: draw.closesAt.toISOString(),
    phase,
    status: draw.status,
    question: draw.question,
    options: draw.options,
    allowPicks: draw.allowPicks,
    postalRoute: draw.postalRoute,
    beaconSource: draw.beaconSource,
    beaconValue: draw.beaconValue,
    commitment: draw.commitment,
    listHash: draw.listHash,
    eligibleCount: draw.eligibleCount,
    seed: draw.status === "drawn" ? draw.seed : null,
    correctAnswer: closedForGood ? (draw.options[draw.answer] ?? null) : null,
    winner,
    cancelReason: draw.cancelReason,
    instantWins,
  };
}

/** A draw's instant wins as its page shows them: the list and its winners only after close. */
async function instantWinsOf(
  db: Db,
  draw: { id: string; instantWins: InstantWin[]; instantCommitment: string | null; instantSalt: string | null },
  revealed: boolean,
): Promise<DrawPage["instantWins"]> {
  const base = { count: draw.instantWins.length, commitment: draw.instantCommitment };
  if (!revealed) return { ...base, salt: null, revealed: null };
  const numbers = draw.instantWins.map((win) => win.number);
  const rows = await db
    .select({
      number: drawEntries.number,
      name: users.name,
      town: users.town,
      townPublic: users.townPublic,
      postalName: drawEntries.postalName,
    })
    .from(drawEntries)
    .leftJoin(users, eq(users.id, drawEntries.userId))
    .where(
      and(
        eq(drawEntries.drawId, draw.id),
        inArray(drawEntries.number, numbers),
        eq(drawEntries.status, "valid"),
        eq(drawEntries.eligible, true),
      ),
    );
  const winners = new Map(
    rows.map((row) => [row.number, winnerLabel(row.name ?? row.postalName, row.town, row.townPublic)]),
  );
  return {
    ...base,
    salt: draw.instantSalt,
    revealed: [...draw.instantWins]
      .sort((a, b) => a.number - b.number)
      .map((win) => ({ number: win.number, prize: win.prize, winner: winners.get(win.number) ?? null })),
  };
}

/** The member's entry numbers in a draw, and whether each counts (shown only after close). */
export async function memberEntries(db: Db, drawId: string, userId: string) {
  const rows = await db
    .select({ number: drawEntries.number, source: drawEntries.source })
    .from(drawEntries)
    .where(and(eq(drawEntries.drawId, drawId), eq(drawEntries.userId, userId), eq(drawEntries.status, "valid")))
    .orderBy(asc(drawEntries.number));
  return rows;
}

const ENTRY_LIST_PAGE = 500;

/**
 * One page of the entry list published after close: each valid entry's number, masked name and
 * whether it was eligible. Null for a draw that has not closed.
 */
export async function publicEntryList(db: Db, slug: string, page: number) {
  const [draw] = await db
    .select({ id: draws.id, slug: draws.slug, title: draws.title, status: draws.status, allocated: draws.allocated })
    .from(draws)
    .where(eq(draws.slug, slug));
  if (!draw || (draw.status !== "closed" && draw.status !== "drawn")) return null;
  const rows = await db
    .select({
      number: drawEntries.number,
      eligible: drawEntries.eligible,
      name: users.name,
      postalName: drawEntries.postalName,
      source: drawEntries.source,
    })
    .from(drawEntries)
    .leftJoin(users, eq(users.id, drawEntries.userId))
    .where(and(eq(drawEntries.drawId, draw.id), eq(drawEntries.status, "valid")))
    .orderBy(asc(drawEntries.number))
    .limit(ENTRY_LIST_PAGE)
    .offset((page - 1) * ENTRY_LIST_PAGE);
  return {
    slug: draw.slug,
    title: draw.title,
    total: draw.allocated,
    pages: Math.max(1, Math.ceil(draw.allocated / ENTRY_LIST_PAGE)),
    entries: rows.map((row) => ({
      number: row.number,
      eligible: row.eligible,
      name: maskedName(row.name ?? row.postalName ?? ""),
      source: row.source,
    })),
  };
}

/** The record anyone can check (`npm run verify-draw`, the verify page): null before close. */
export async function publishedRecord(db: Db, slug: string): Promise<PublishedDraw | null> {
  const [draw] = await db
    .select({
      id: draws.id,
      slug: draws.slug,
      status: draws.status,
      commitment: draws.commitment,
      seed: draws.seed,
      beaconSource: draws.beaconSource,
      beaconValue: draws.beaconValue,
      listHash: draws.listHash,
      winnerNumber: draws.winnerNumber,
      instantWins: draws.instantWins,
      instantSalt: draws.instantSalt,
      instantCommitment: draws.instantCommitment,
    })
    .from(draws)
    .where(eq(draws.slug, slug));
  if (!draw?.commitment || !draw.listHash || !["closed", "drawn"].includes(draw.status)) return null;
  const entries = await db
    .select({ number: drawEntries.number })
    .from(drawEntries)
    .where(and(eq(drawEntries.drawId, draw.id), eq(drawEntries.status, "valid"), eq(drawEntries.eligible, true)))
    .orderBy(asc(drawEntries.number));
  return {
    algorithm: ALGORITHM,
    slug: draw.slug,
    commitment: draw.commitment,
    seed: draw.status === "drawn" ? draw.seed : null,
    beacon: { source: draw.beaconSource, value: draw.beaconValue },
    entries: entries.map((entry) => entry.number),
    listHash: draw.listHash,
    winners: draw.status === "drawn" && draw.winnerNumber !== null ? [draw.winnerNumber] : [],
    ...(draw.instantCommitment
      ? {
          instantWins: {
            commitment: draw.instantCommitment,
            wins: draw.instantWins.map((win) => ({ number: win.number, prize: win.prize })),
            salt: draw.instantSalt,
          },
        }
      : {}),
  };
}

export type MyDrawEntries = {
  slug: string;
  title: string;
  status: DrawStatus;
  closesAt: string;
  numbers: number[];
  won: boolean;
};

/** "My entries": the member's draws with their numbers, newest first. */
export async function myEntries(db: Db, userId: string) {
  const rows = await db
    .select({
      slug: draws.slug,
      title: draws.title,
      status: draws.status,
      closesAt: draws.closesAt,
      winnerNumber: draws.winnerNumber,
      number: drawEntries.number,
    })
    .from(drawEntries)
    .innerJoin(draws, eq(draws.id, drawEntries.drawId))
    .where(and(eq(drawEntries.userId, userId), eq(drawEntries.status, "valid")))
    .orderBy(desc(draws.closesAt), asc(drawEntries.number));
  const byDraw = new Map<
    string,
    { slug: string; title: string; status: DrawStatus; closesAt: string; numbers: number[]; won: boolean }
  >();
  for (const row of rows) {
    const entry = byDraw.get(row.slug) ?? {
      slug: row.slug,
      title: row.title,
      status: row.status,
      closesAt: row.closesAt.toISOString(),
      numbers: [],
      won: false,
    };
    entry.numbers.push(row.number);
    if (row.winnerNumber === row.number) entry.won = true;
    byDraw.set(row.slug, entry);
  }
  return [...byDraw.values()];
}

/** Draw pages for the sitemap: every draw the public can open (not drafts), newest first. */
export async function sitemapDraws(db: Db) {
  return db
    .select({ slug: draws.slug, updatedAt: draws.updatedAt })
    .from(draws)
    .where(ne(draws.status, "draft"))
    .orderBy(desc(draws.closesAt), asc(draws.slug));
}
