import { randomInt, randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, gt, ilike, inArray, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { recordAudit } from "~/features/audit/audit.server";
import { changesBetween } from "~/features/audit/changes";
import { eventDateLabels } from "~/features/dates/event-dates";
import { gone, type NotFound, type Refusal, refuse } from "~/features/forms/refusal";
import type { Db } from "~/server/db/client.server";
import { containing } from "~/server/db/like";
import { isUniqueViolation } from "~/server/db/retry.server";
import { pageOf } from "~/ui/paging";
import {
  draws,
  events,
  membershipTiers,
  orders,
  products,
  ticketTypes,
  vouchers,
  voucherUses,
} from "../../../db/schema";
import { CODE_MESSAGES, KIND_LABELS, type VoucherInput, type VoucherTermsInput } from "./schemas";
import { normaliseCode } from "./voucher-rules";
import { countingOrder, readVoucherUses, type Voucher } from "./voucher-uses.server";

// Staff's side of vouchers and discount codes (docs/membership.md, "Vouchers"): the list with
// each code's uses, making one code or a batch of generated ones, changing a code's terms and
// switching it off or on, every change audited. Checkout decides with `voucher-uses.server.ts`.

const PER_PAGE = 50;

/** Letters and digits that cannot be misread for one another: no 0, O, 1 or I. */
const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const GENERATED_LENGTH = 10;

/** A code nobody can guess: 10 characters from 32, 50 random bits. */
export function generateCode() {
  let code = "";
  for (let i = 0; i < GENERATED_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

type Targets = Pick<Voucher, "kinds" | "eventIds" | "ticketTypeIds" | "productIds" | "tierIds" | "drawIds">;

/** Units used at `now` by the vouchers grouped under each of `keys` (a code's id, or a batch's). */
async function usedBy(db: Db, key: SQL, keys: readonly string[], now: Date) {
  if (keys.length === 0) return new Map<string, number>();
  const rows = await db
    .select({
      key: sql<string>`${key}`,
      used: sql<number>`coalesce(sum(${voucherUses.units}), 0)::int`.mapWith(Number),
    })
    .from(voucherUses)
    .innerJoin(orders, eq(orders.id, voucherUses.orderId))
    .innerJoin(vouchers, eq(vouchers.id, voucherUses.voucherId))
    .where(and(inArray(key, [...keys]), countingOrder(now)))
    .groupBy(key);
  return new Map(rows.map((row) => [String(row.key), row.used]));
}

/** The names of what the codes name, read once for all of them. */
async function targetNames(db: Db, list: readonly Targets[]) {
  const all = (pick: (targets: Targets) => string[]) => [...new Set(list.flatMap(pick))];
  const [eventIds, typeIds, productIds, tierIds, drawIds] = [
    all((v) => v.eventIds),
    all((v) => v.ticketTypeIds),
    all((v) => v.productIds),
    all((v) => v.tierIds),
    all((v) => v.drawIds),
  ];
  const [eventRows, typeRows, productRows, tierRows, drawRows] = await Promise.all([
    eventIds.length
      ? db.select({ id: events.id, name: events.title }).from(events).where(inArray(events.id, eventIds))
      : [],
    typeIds.length
      ? db
          .select({ id: ticketTypes.id, name: ticketTypes.name, event: events.title })
          .from(ticketTypes)
          .innerJoin(events, eq(events.id, ticketTypes.eventId))
          .where(inArray(ticketTypes.id, typeIds))
      : [],
    productIds.length
      ? db.select({ id: products.id, name: products.title }).from(products).where(inArray(products.id, productIds))
      : [],
    tierIds.length
      ? db
          .select({ id: membershipTiers.id, name: membershipTiers.name })
          .from(membershipTiers)
          .where(inArray(membershipTiers.id, tierIds))
      : [],
    drawIds.length ? db.select({ id: draws.id, name: draws.title }).from(draws).where(inArray(draws.id, drawIds)) : [],
  ]);
  const named = (rows: { id: string; name: string }[]) => new Map(rows.map((row) => [row.id, row.name]));
  return {
    events: named(eventRows),
    ticketTypes: new Map(typeRows.map((row) => [row.id, `${row.name} tickets (${row.event})`])),
    products: named(productRows),
    tiers: named(tierRows),
    draws: named(drawRows),
  };
}

type TargetNames = Awaited<ReturnType<typeof targetNames>>;

/** What a code applies to, in staff's words: "Everything", "Tickets for Summer Meet", "Junior membership". */
function appliesToWords(voucher: Targets, names: TargetNames) {
  const words = [
    ...voucher.kinds.map((kind) => KIND_LABELS[kind]),
    ...voucher.eventIds.map((id) => `Tickets for ${names.events.get(id) ?? "a removed event"}`),
    ...voucher.ticketTypeIds.map((id) => names.ticketTypes.get(id) ?? "A removed ticket type"),
    ...voucher.productIds.map((id) => names.products.get(id) ?? "A removed product"),
    ...voucher.tierIds.map((id) => {
      const tier = names.tiers.get(id);
      return tier ? `${tier} membership` : "A removed membership tier";
    }),
    ...voucher.drawIds.map((id) => {
      const draw = names.draws.get(id);
      return draw ? `${draw} entries` : "A removed draw";
    }),
  ];
  return words.length > 0 ? words : ["Everything"];
}

export const VOUCHER_STATES = {
  active: "Active",
  scheduled: "Not started",
  ended: "Ended",
  used_up: "Used up",
  off: "Off",
} as const;
export type VoucherState = keyof typeof VOUCHER_STATES;

/** Where a code (or a batch, all its codes together) stands at `now`. */
function stateOf(
  voucher: {
    activeCodes: number;
    validFrom: Date | null;
    validUntil: Date | null;
    used: number;
    maxUses: number | null;
  },
  now: Date,
): VoucherState {
  if (voucher.activeCodes === 0) return "off";
  if (voucher.validUntil && voucher.validUntil <= now) return "ended";
  if (voucher.validFrom && voucher.validFrom > now) return "scheduled";
  if (voucher.maxUses !== null && voucher.used >= voucher.maxUses) return "used_up";
  return "active";
}

/**
 * The codes for staff, newest first, searched by code or label: a batch is one row (its first
 * code's terms, its codes' uses added up) unless `batchId` opens it to its codes. Uses are
 * counted at `now` in one query for the whole page.
 */
/** Codes staff made: a waiting list's offers, each for one member, are the list's own. */
const staffsOwn = isNull(vouchers.forUserId);

export async function listVouchers(db: Db, input: { q: string; batchId?: string; page: number; now: Date }) {
  const key: SQL = input.batchId ? sql`${vouchers.id}` : sql`coalesce(${vouchers.batchId}, ${vouchers.id})`;
  const typedCode = normaliseCode(input.q);
  const match = input.q
    ? or(
        typedCode ? ilike(vouchers.code, containing(typedCode)) : undefined,
        ilike(vouchers.label, containing(input.q)),
      )
    : undefined;
  const listed = db
    .select({
      key: sql<string>`${key}`.as("key"),
      firstId: sql<string>`(array_agg(${vouchers.id} order by ${vouchers.createdAt}, ${vouchers.code}))[1]`.as(
        "first_id",
      ),
      codes: sql<number>`count(*)::int`.as("codes"),
      activeCodes: sql<number>`(count(*) filter (where ${vouchers.active}))::int`.as("active_codes"),
      maxUses: sql<
        number | null
      >`case when bool_and(${vouchers.maxUses} is not null) then sum(${vouchers.maxUses})::int end`.as("max_uses"),
      newest: sql`max(${vouchers.createdAt})`.as("newest"),
    })
    .from(vouchers)
    .where(and(staffsOwn, input.batchId ? eq(vouchers.batchId, input.batchId) : undefined))
    .groupBy(key)
    .having(match ? sql`bool_or(${match})` : undefined)
    .as("listed");
  const [groups, [total]] = await Promise.all([
    db
      .select({
        key: listed.key,
        firstId: listed.firstId,
        codes: listed.codes,
        activeCodes: listed.activeCodes,
        maxUses: listed.maxUses,
      })
      .from(listed)
      .orderBy(desc(listed.newest), asc(listed.key))
      .limit(PER_PAGE)
      .offset((input.page - 1) * PER_PAGE),
    db.select({ count: count() }).from(listed),
  ]);
  const firstIds = groups.map((group) => group.firstId);
  const [firsts, used] = await Promise.all([
    firstIds.length
      ? db
          .select({
            id: vouchers.id,
            code: vouchers.code,
            batchId: vouchers.batchId,
            label: vouchers.label,
            effect: vouchers.effect,
            value: vouchers.value,
            kinds: vouchers.kinds,
            eventIds: vouchers.eventIds,
            ticketTypeIds: vouchers.ticketTypeIds,
            productIds: vouchers.productIds,
            tierIds: vouchers.tierIds,
            drawIds: vouchers.drawIds,
            validFrom: vouchers.validFrom,
            validUntil: vouchers.validUntil,
            holdsPlaces: vouchers.holdsPlaces,
          })
          .from(vouchers)
          .where(inArray(vouchers.id, firstIds))
      : [],
    usedBy(
      db,
      key,
      groups.map((group) => group.key),
      input.now,
    ),
  ]);
  const names = await targetNames(db, firsts);
  const byId = new Map(firsts.map((voucher) => [voucher.id, voucher]));
  const rows = groups.flatMap((group) => {
    const voucher = byId.get(group.firstId);
    if (!voucher) return [];
    const counts = {
      used: used.get(String(group.key)) ?? 0,
      maxUses: group.maxUses === null ? null : Number(group.maxUses),
      codes: Number(group.codes),
      activeCodes: Number(group.activeCodes),
    };
    const isBatch = !input.batchId && voucher.batchId !== null;
    return [
      {
        id: voucher.id,
        code: voucher.code,
        label: voucher.label,
        batchId: isBatch ? voucher.batchId : null,
        effect: voucher.effect,
        value: voucher.value,
        appliesTo: appliesToWords(voucher, names),
        validFrom: voucher.validFrom,
        validUntil: voucher.validUntil,
        holdsPlaces: voucher.holdsPlaces,
        ...counts,
        state: stateOf({ ...voucher, ...counts }, input.now),
      },
    ];
  });
  return { ...pageOf(total?.count ?? 0, input.page, PER_PAGE), rows };
}

/** A batch's name and size, or null when there is no such batch. */
export async function batchSummary(db: Db, batchId: string) {
  const [row] = await db
    .select({
      codes: count(),
      label: sql<string>`(array_agg(${vouchers.label} order by ${vouchers.createdAt}, ${vouchers.code}))[1]`,
    })
    .from(vouchers)
    .where(eq(vouchers.batchId, batchId));
  return row && row.codes > 0 ? { id: batchId, label: row.label, codes: row.codes } : null;
}

/** Every code of a batch with its terms and the uses counted at `now`, for its CSV; null for no batch. */
export async function batchCodes(db: Db, batchId: string, now: Date) {
  const codes = await db
    .select({
      id: vouchers.id,
      code: vouchers.code,
      label: vouchers.label,
      effect: vouchers.effect,
      value: vouchers.value,
      maxUses: vouchers.maxUses,
      maxUsesPerMember: vouchers.maxUsesPerMember,
      validFrom: vouchers.validFrom,
      validUntil: vouchers.validUntil,
      active: vouchers.active,
    })
    .from(vouchers)
    .where(eq(vouchers.batchId, batchId))
    .orderBy(asc(vouchers.createdAt), asc(vouchers.code));
  if (codes.length === 0) return null;
  const used = await usedBy(
    db,
    sql`${vouchers.id}`,
    codes.map((code) => code.id),
    now,
  );
  return {
    label: codes[0]!.label,
    codes: codes.map((code) => ({ ...code, used: used.get(code.id) ?? 0 })),
  };
}

/**
 * One code for its page: its row, its uses at `now`, whether it has ever been used (its code is
 * then fixed: orders and receipts show it), and its batch.
 */
export async function voucherForStaff(db: Db, voucherId: string, now: Date) {
  const [voucher] = await db
    .select()
    .from(vouchers)
    .where(and(eq(vouchers.id, voucherId), staffsOwn));
  if (!voucher) return null;
  const [uses, everUsed, batch] = await Promise.all([
    readVoucherUses(db, voucherId, { now }),
    hasBeenUsed(db, voucherId),
    voucher.batchId ? batchSummary(db, voucher.batchId) : null,
  ]);
  const names = await targetNames(db, [voucher]);
  return { voucher, used: uses.all, everUsed, batch, appliesTo: appliesToWords(voucher, names) };
}

async function hasBeenUsed(db: Db, voucherId: string) {
  const [use] = await db
    .select({ id: voucherUses.id })
    .from(voucherUses)
    .where(eq(voucherUses.voucherId, voucherId))
    .limit(1);
  return Boolean(use);
}

/**
 * What the form's pickers offer: events not yet over (with their ticket types, hidden ones too),
 * products not archived, every tier, draws not yet ended; and whatever `chosen` names already, so
 * editing a code never drops a target that has since ended.
 */
export async function voucherTargetOptions(db: Db, input: { now: Date; chosen?: Targets }) {
  const chosen = input.chosen;
  const orChosen = (column: PgColumn, ids: string[] | undefined) =>
    ids && ids.length > 0 ? inArray(column, ids) : undefined;
  const upcoming = and(gt(events.endsAt, input.now), ne(events.status, "cancelled"));
  const [eventRows, typeRows, productRows, tierRows, drawRows] = await Promise.all([
    db
      .select({
        id: events.id,
        title: events.title,
        startsAt: events.startsAt,
        endsAt: events.endsAt,
        timeZone: events.timeZone,
      })
      .from(events)
      .where(or(upcoming, orChosen(events.id, chosen?.eventIds)))
      .orderBy(asc(events.startsAt), asc(events.title)),
    db
      .select({
        id: ticketTypes.id,
        name: ticketTypes.name,
        hidden: ticketTypes.hidden,
        eventId: events.id,
        event: events.title,
      })
      .from(ticketTypes)
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .where(or(upcoming, orChosen(ticketTypes.id, chosen?.ticketTypeIds)))
      .orderBy(asc(events.startsAt), asc(events.id), asc(ticketTypes.sortOrder), asc(ticketTypes.name)),
    db
      .select({ id: products.id, title: products.title, status: products.status })
      .from(products)
      .where(or(ne(products.status, "archived"), orChosen(products.id, chosen?.productIds)))
      .orderBy(asc(products.title)),
    db
      .select({ id: membershipTiers.id, name: membershipTiers.name, onSale: membershipTiers.onSale })
      .from(membershipTiers)
      .orderBy(asc(membershipTiers.position), asc(membershipTiers.createdAt)),
    db
      .select({ id: draws.id, title: draws.title, status: draws.status })
      .from(draws)
      .where(or(inArray(draws.status, ["draft", "live"]), orChosen(draws.id, chosen?.drawIds)))
      .orderBy(asc(draws.closesAt), asc(draws.title)),
  ]);
  const ticketGroups: { event: string; options: { value: string; label: string }[] }[] = [];
  let lastEventId: string | null = null;
  for (const type of typeRows) {
    if (type.eventId !== lastEventId) ticketGroups.push({ event: type.event, options: [] });
    lastEventId = type.eventId;
    ticketGroups.at(-1)!.options.push({ value: type.id, label: type.hidden ? `${type.name} (hidden)` : type.name });
  }
  return {
    events: eventRows.map((event) => ({
      value: event.id,
      label: `${event.title}, ${eventDateLabels(event.startsAt, event.endsAt, event.timeZone).dates}`,
    })),
    ticketTypes: ticketGroups,
    products: productRows.map((product) => ({
      value: product.id,
      label: product.status === "active" ? product.title : `${product.title} (${product.status})`,
    })),
    tiers: tierRows.map((tier) => ({ value: tier.id, label: tier.onSale ? tier.name : `${tier.name} (not on sale)` })),
    draws: drawRows.map((draw) => ({
      value: draw.id,
      label: draw.status === "live" ? draw.title : `${draw.title} (${draw.status})`,
    })),
  };
}

/** How many of `ids` are rows of `table`. */
async function existing(db: Db, table: PgTable & { id: PgColumn }, ids: string[]) {
  const [row] = await db
    .select({ count: count() })
    .from(table as PgTable)
    .where(inArray(table.id, ids));
  return row?.count ?? 0;
}

/** A refusal when something the code names has gone since the form was shown. */
async function missingTarget(db: Db, terms: VoucherTermsInput): Promise<Refusal | null> {
  const lists = [
    { field: "eventIds", table: events, ids: terms.eventIds, what: "events" },
    { field: "ticketTypeIds", table: ticketTypes, ids: terms.ticketTypeIds, what: "ticket types" },
    { field: "productIds", table: products, ids: terms.productIds, what: "products" },
    { field: "tierIds", table: membershipTiers, ids: terms.tierIds, what: "membership tiers" },
    { field: "drawIds", table: draws, ids: terms.drawIds, what: "draws" },
  ] as const;
  for (const list of lists) {
    if (list.ids.length === 0) continue;
    if ((await existing(db, list.table, list.ids)) < list.ids.length)
      return refuse(list.field, `One of the chosen ${list.what} no longer exists: reload the page and choose again`);
  }
  return null;
}

async function codeTaken(db: Db, code: string, exceptId?: string) {
  const [row] = await db
    .select({ id: vouchers.id })
    .from(vouchers)
    .where(and(eq(vouchers.code, code), exceptId ? ne(vouchers.id, exceptId) : undefined))
    .limit(1);
  return Boolean(row);
}

type Actor = { actorId: string; now: Date };

export type CreatedVouchers = { ok: true; id: string; code: string; batchId: null } | CreatedBatch;
type CreatedBatch = { ok: true; id: null; code: null; batchId: string; codes: number };

/**
 * Makes the code staff typed, or a batch of `count` generated codes sharing one batch id and
 * the same terms. A typed code already in use is refused on its field, also when another
 * organizer saved it a moment before (the unique index decides); a generated batch that happens
 * to meet a code in use is made again.
 */
export async function createVouchers(db: Db, input: VoucherInput, actor: Actor): Promise<CreatedVouchers | Refusal> {
  if (input.code === null) return createBatch(db, input.terms, input.count ?? 1, actor);
  const code = input.code;
  try {
    return await db.transaction(async (tx): Promise<CreatedVouchers | Refusal> => {
      if (await codeTaken(tx, code)) return refuse("code", CODE_MESSAGES.taken);
      const missing = await missingTarget(tx, input.terms);
      if (missing) return missing;
      const [created] = await tx
        .insert(vouchers)
        .values({ ...input.terms, code, createdBy: actor.actorId, createdAt: actor.now, updatedAt: actor.now })
        .returning({ id: vouchers.id });
      await recordAudit(tx, {
        actorId: actor.actorId,
        action: "voucher.create",
        subjectType: "voucher",
        subjectId: created!.id,
        details: auditTerms(code, input.terms),
      });
      return { ok: true, id: created!.id, code, batchId: null };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return refuse("code", CODE_MESSAGES.taken);
    throw error;
  }
}

const BATCH_ATTEMPTS = 5;

async function createBatch(
  db: Db,
  terms: VoucherTermsInput,
  size: number,
  actor: Actor,
): Promise<CreatedBatch | Refusal> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx): Promise<CreatedBatch | Refusal> => {
        const missing = await missingTarget(tx, terms);
        if (missing) return missing;
        const codes = new Set<string>();
        while (codes.size < size) codes.add(generateCode());
        const batchId = randomUUID();
        await tx.insert(vouchers).values(
          [...codes].map((code) => ({
            ...terms,
            code,
            batchId,
            createdBy: actor.actorId,
            createdAt: actor.now,
            updatedAt: actor.now,
          })),
        );
        await recordAudit(tx, {
          actorId: actor.actorId,
          action: "voucher.create_batch",
          subjectType: "voucher_batch",
          subjectId: batchId,
          details: { ...auditTerms(null, terms), codes: size },
        });
        return { ok: true, id: null, code: null, batchId, codes: size };
      });
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= BATCH_ATTEMPTS) throw error;
    }
  }
}

function auditTerms(code: string | null, terms: VoucherTermsInput) {
  return {
    ...(code ? { code } : {}),
    label: terms.label,
    effect: terms.effect,
    value: terms.value,
    maxUses: terms.maxUses,
    holdsPlaces: terms.holdsPlaces,
    active: terms.active,
  };
}

/** The fields whose old and new values the audit log keeps (the rest it names only). */
const AUDITED_VALUES = new Set([
  "code",
  "effect",
  "value",
  "maxUses",
  "maxUsesPerMember",
  "validFrom",
  "validUntil",
  "minBasket",
  "holdsPlaces",
  "active",
]);

/**
 * Saves a code's terms, under its row lock (the lock checkout takes to count its uses). A code
 * that has been used keeps its code, and its limit cannot go below the uses that count now.
 */
export async function updateVoucher(
  db: Db,
  voucherId: string,
  input: VoucherInput,
  actor: Actor,
): Promise<{ ok: true; id: string; code: string } | Refusal | NotFound> {
  try {
    return await db.transaction(async (tx): Promise<{ ok: true; id: string; code: string } | Refusal | NotFound> => {
      const [voucher] = await tx
        .select()
        .from(vouchers)
        .where(and(eq(vouchers.id, voucherId), staffsOwn))
        .for("no key update");
      if (!voucher) return gone("This code");
      const code = input.code ?? voucher.code;
      if (code !== voucher.code) {
        if (await hasBeenUsed(tx, voucherId)) return refuse("code", CODE_MESSAGES.used);
        if (await codeTaken(tx, code, voucherId)) return refuse("code", CODE_MESSAGES.taken);
      }
      const uses = await readVoucherUses(tx, voucherId, { now: actor.now });
      if (input.terms.maxUses !== null && input.terms.maxUses < uses.all)
        return refuse(
          "maxUses",
          `${uses.all} ${uses.all === 1 ? "item has" : "items have"} used this code: the limit cannot be lower`,
        );
      const missing = await missingTarget(tx, input.terms);
      if (missing) return missing;
      const values = { ...input.terms, code };
      const changes = changesBetween(voucher, values, AUDITED_VALUES);
      await tx
        .update(vouchers)
        .set({ ...values, updatedAt: actor.now })
        .where(eq(vouchers.id, voucherId));
      await recordAudit(tx, {
        actorId: actor.actorId,
        action: "voucher.update",
        subjectType: "voucher",
        subjectId: voucherId,
        details: { changes },
      });
      return { ok: true, id: voucherId, code };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return refuse("code", CODE_MESSAGES.taken);
    throw error;
  }
}

/** Switches a code off (nobody can use it from now on; its history stays) or back on. */
export async function setVoucherActive(
  db: Db,
  voucherId: string,
  active: boolean,
  actor: Actor,
): Promise<{ ok: true; code: string } | NotFound> {
  return db.transaction(async (tx): Promise<{ ok: true; code: string } | NotFound> => {
    const [voucher] = await tx
      .update(vouchers)
      .set({ active, updatedAt: actor.now })
      .where(and(eq(vouchers.id, voucherId), staffsOwn))
      .returning({ code: vouchers.code });
    if (!voucher) return gone("This code");
    await recordAudit(tx, {
      actorId: actor.actorId,
      action: active ? "voucher.switch_on" : "voucher.switch_off",
      subjectType: "voucher",
      subjectId: voucherId,
      details: { code: voucher.code },
    });
    return { ok: true, code: voucher.code };
  });
}
