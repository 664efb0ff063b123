import { and, asc, count, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { formatEventInstant } from "~/features/dates/event-dates";
import { toLocalInputValue } from "~/features/dates/time-zones";
import type { PriceTier } from "~/features/forms/fields";
import type { Db } from "~/server/db/client.server";
import { moneyInputValue } from "~/ui/money";
import { pageOf } from "~/ui/paging";
import { type DrawStatus, drawEntries, draws, users } from "../../../../db/schema";
import { bundlesText, type DrawFilter, type DrawFormDefaults, instantWinsText } from "./schemas";

// What the organizer's draw pages read. Staff see what the public never does before the draw:
// the right answer, entrants' names and emails. The seed stays hidden until the draw reveals it.

const DRAWS_PER_PAGE = 25;

const FILTER_STATUSES: Record<DrawFilter, DrawStatus[] | null> = {
  active: ["draft", "live"],
  ended: ["closed", "drawn"],
  cancelled: ["cancelled"],
  all: null,
};

const winnerEntry = alias(drawEntries, "winner_entry");
const winnerUser = alias(users, "winner_user");
const winnerJoin = and(eq(winnerEntry.drawId, draws.id), eq(winnerEntry.number, draws.winnerNumber));

/** What a draw's row in the list and the header of its pages both show. */
const overviewColumns = {
  id: draws.id,
  slug: draws.slug,
  title: draws.title,
  kind: draws.kind,
  status: draws.status,
  closesAt: draws.closesAt,
  allocated: draws.allocated,
  totalEntries: draws.totalEntries,
};

export async function listDrawsForAdmin(db: Db, input: { show: DrawFilter; page: number; timeZone: string }) {
  const statuses = FILTER_STATUSES[input.show];
  const where: SQL | undefined = statuses ? inArray(draws.status, statuses) : undefined;
  const [rows, totals] = await Promise.all([
    db
      .select({
        ...overviewColumns,
        winnerNumber: draws.winnerNumber,
        winnerName: sql<string | null>`coalesce(${winnerUser.name}, ${winnerEntry.postalName})`,
      })
      .from(draws)
      .leftJoin(winnerEntry, winnerJoin)
      .leftJoin(winnerUser, eq(winnerUser.id, winnerEntry.userId))
      .where(where)
      .orderBy(input.show === "active" ? asc(draws.closesAt) : desc(draws.closesAt), asc(draws.id))
      .limit(DRAWS_PER_PAGE)
      .offset((input.page - 1) * DRAWS_PER_PAGE),
    db.select({ status: draws.status, count: count() }).from(draws).groupBy(draws.status),
  ]);
  const byStatus = new Map(totals.map((row) => [row.status, Number(row.count)]));
  const sum = (statuses: DrawStatus[] | null) =>
    statuses
      ? statuses.reduce((total, status) => total + (byStatus.get(status) ?? 0), 0)
      : [...byStatus.values()].reduce((a, b) => a + b, 0);
  const counts = Object.fromEntries(
    (Object.keys(FILTER_STATUSES) as DrawFilter[]).map((filter) => [filter, sum(FILTER_STATUSES[filter])]),
  ) as Record<DrawFilter, number>;
  const total = counts[input.show];
  return {
    draws: rows.map((row) => ({ ...row, closesLabel: formatEventInstant(row.closesAt, input.timeZone) })),
    counts,
    ...pageOf(total, input.page, DRAWS_PER_PAGE),
  };
}

export type AdminDrawRow = Awaited<ReturnType<typeof listDrawsForAdmin>>["draws"][number];

/** The header every page of one draw shares. */
export async function getDrawSummary(db: Db, drawId: string, timeZone: string) {
  const [row] = await db
    .select({ ...overviewColumns, opensAt: draws.opensAt, images: draws.images })
    .from(draws)
    .where(eq(draws.id, drawId));
  if (!row) return null;
  const { images, ...draw } = row;
  return {
    ...draw,
    imageCount: images.length,
    cover: images[0] ?? null,
    opensLabel: formatEventInstant(row.opensAt, timeZone),
    closesLabel: formatEventInstant(row.closesAt, timeZone),
  };
}

export type DrawSummary = NonNullable<Awaited<ReturnType<typeof getDrawSummary>>>;

/** The draw form's saved values, as text the way the form shows them (times in the site's zone). */
export async function getDrawFormValues(
  db: Db,
  drawId: string,
  timeZone: string,
  tiers: readonly PriceTier[] = [],
): Promise<DrawFormDefaults | null> {
  const [draw] = await db.select().from(draws).where(eq(draws.id, drawId));
  if (!draw) return null;
  return {
    title: draw.title,
    slug: draw.slug,
    kind: draw.kind,
    summary: draw.summary,
    description: draw.description,
    rules: draw.rules,
    postalRoute: draw.postalRoute,
    prize: draw.prize,
    prizeValue: moneyInputValue(draw.prizeValue),
    cashAlternative: draw.cashAlternative === null ? "" : moneyInputValue(draw.cashAlternative),
    price: moneyInputValue(draw.price),
    bundles: bundlesText(draw.bundles, tiers),
    totalEntries: String(draw.totalEntries),
    maxPerMember: String(draw.maxPerMember),
    minEntries: String(draw.minEntries),
    undersoldPolicy: draw.undersoldPolicy,
    extendDays: String(draw.extendDays),
    opensAt: toLocalInputValue(draw.opensAt, timeZone),
    closesAt: toLocalInputValue(draw.closesAt, timeZone),
    question: draw.question,
    options: Array.from({ length: 5 }, (_, index) => draw.options[index] ?? ""),
    answer: String(draw.answer),
    beaconSource: draw.beaconSource,
    // While the draw is live its instant wins are a secret kept from everyone, staff included:
    // its page shows their commitment. The list is shown again once entries have closed.
    instantWins: draw.status === "live" ? "" : instantWinsText(draw.instantWins),
    allowPicks: draw.allowPicks ? "on" : null,
  };
}

/** Everything about a draw's progress that its page shows staff: the fairness record, counts, the winner. */
export async function getDrawState(db: Db, drawId: string, timeZone: string) {
  const [draw] = await db.select().from(draws).where(eq(draws.id, drawId));
  if (!draw) return null;
  const [sources, winner] = await Promise.all([
    db
      .select({ source: drawEntries.source, status: drawEntries.status, count: count() })
      .from(drawEntries)
      .where(eq(drawEntries.drawId, drawId))
      .groupBy(drawEntries.source, drawEntries.status),
    draw.winnerNumber === null
      ? Promise.resolve([])
      : db
          .select({
            number: drawEntries.number,
            source: drawEntries.source,
            name: sql<string | null>`coalesce(${users.name}, ${drawEntries.postalName})`,
            email: users.email,
            postalAddress: drawEntries.postalAddress,
          })
          .from(drawEntries)
          .leftJoin(users, eq(users.id, drawEntries.userId))
          .where(and(eq(drawEntries.drawId, drawId), eq(drawEntries.number, draw.winnerNumber))),
  ]);
  const valid = { paid: 0, postal: 0, free: 0 };
  let voided = 0;
  for (const row of sources) {
    if (row.status === "valid") valid[row.source] += Number(row.count);
    else voided += Number(row.count);
  }
  const label = (instant: Date | null) => (instant ? formatEventInstant(instant, timeZone) : null);
  return {
    id: draw.id,
    slug: draw.slug,
    kind: draw.kind,
    status: draw.status,
    closesAt: draw.closesAt,
    opensAt: draw.opensAt,
    closesLabel: label(draw.closesAt)!,
    allocated: draw.allocated,
    totalEntries: draw.totalEntries,
    minEntries: draw.minEntries,
    undersoldPolicy: draw.undersoldPolicy,
    extended: draw.extended,
    cashPrize: draw.cashPrize,
    imageCount: draw.images.length,
    question: draw.question,
    options: draw.options,
    answer: draw.answer,
    instantWinCount: draw.instantWins.length,
    commitment: draw.commitment,
    instantCommitment: draw.instantCommitment,
    listHash: draw.listHash,
    eligibleCount: draw.eligibleCount,
    beaconSource: draw.beaconSource,
    beaconValue: draw.beaconValue,
    // The seed is secret until the draw: even staff only see it once it is published.
    seed: draw.status === "drawn" ? draw.seed : null,
    winnerNumber: draw.winnerNumber,
    winner: winner[0] ?? null,
    counts: { ...valid, voided },
    publishedLabel: label(draw.publishedAt),
    closedLabel: label(draw.closedAt),
    drawnLabel: label(draw.drawnAt),
    cancelledLabel: label(draw.cancelledAt),
    cancelReason: draw.cancelReason,
  };
}

export type DrawState = NonNullable<Awaited<ReturnType<typeof getDrawState>>>;

const entryColumns = {
  number: drawEntries.number,
  source: drawEntries.source,
  status: drawEntries.status,
  eligible: drawEntries.eligible,
  memberName: users.name,
  memberEmail: users.email,
  postalName: drawEntries.postalName,
  postalAddress: drawEntries.postalAddress,
  receivedAt: drawEntries.receivedAt,
  createdAt: drawEntries.createdAt,
};

/** A draw's entries by number, for its entries page (the latest `limit`) or the CSV (all). */
export async function listDrawEntries(db: Db, drawId: string, options: { limit?: number; latest?: boolean } = {}) {
  const query = db
    .select(entryColumns)
    .from(drawEntries)
    .leftJoin(users, eq(users.id, drawEntries.userId))
    .where(eq(drawEntries.drawId, drawId))
    .orderBy(options.latest ? desc(drawEntries.createdAt) : asc(drawEntries.number), asc(drawEntries.number));
  return options.limit ? query.limit(options.limit) : query;
}

/** The prize gallery and whether it may still change. */
export async function getDrawImages(db: Db, drawId: string) {
  const [draw] = await db
    .select({ images: draws.images, status: draws.status })
    .from(draws)
    .where(eq(draws.id, drawId));
  return draw ?? null;
}

/** What the entries page needs: the draw's answers and status, its latest entries and their count. */
export async function getEntriesPage(db: Db, drawId: string, timeZone: string) {
  const [draw] = await db
    .select({ status: draws.status, options: draws.options, closesAt: draws.closesAt, slug: draws.slug })
    .from(draws)
    .where(eq(draws.id, drawId));
  if (!draw) return null;
  const [latest, [total]] = await Promise.all([
    listDrawEntries(db, drawId, { limit: 50, latest: true }),
    db.select({ count: count() }).from(drawEntries).where(eq(drawEntries.drawId, drawId)),
  ]);
  const entries = latest.map((entry) => ({
    number: entry.number,
    source: entry.source,
    status: entry.status,
    eligible: entry.eligible,
    who: entry.memberName ?? entry.postalName ?? "Former member",
    email: entry.memberEmail,
    when: formatEventInstant(entry.receivedAt ?? entry.createdAt, timeZone),
  }));
  return { ...draw, entries, total: Number(total?.count ?? 0) };
}

export async function drawExists(db: Db, drawId: string) {
  const [row] = await db.select({ id: draws.id }).from(draws).where(eq(draws.id, drawId));
  return Boolean(row);
}
