import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "~/features/audit/audit.server";
import { newTicketCode } from "~/features/tickets/ticket-codes.server";
import type { Db } from "~/server/db/client.server";
import { memberships, membershipTiers, users } from "../../../db/schema";
import {
  checkImportRows,
  decodeImportFile,
  type HeldMembership,
  IMPORT_LIMITS,
  IMPORT_TOO_LARGE,
  type ImportFacts,
  type ImportOutcome,
  type ImportTotals,
  importTotals,
  normalizeImportText,
  type PlannedRow,
  planFingerprint,
  planImport,
  readImportSheet,
} from "./member-import";
import { membershipDate } from "./membership-labels";
import { movedPaymentMethod } from "./renewals.server";
import { placesLeft, readTierPlaces } from "./tier-places.server";

/**
 * Importing existing members from a CSV (docs/membership.md, "Staff"), in two steps.
 *
 * "Check file" reads the upload, decides every row (member-import.ts) against the accounts,
 * memberships and places the site holds, and writes nothing. Its answer carries the file's text
 * (normalized) and a digest: an HMAC, under a key only the server has, of that text and of every
 * decision the check made.
 *
 * "Import" is sent with that text and digest. It never trusts what the check showed: it reads the
 * text again and decides every row again, inside one transaction under the tiers' and the
 * memberships' locks, and goes ahead only if the digest of the text and of those new decisions is
 * the one the check gave. So what is written is exactly what the staff member was shown; if
 * anything changed in between (a member joined, a place went, the file was edited, the day
 * ended), nothing is written and the new check is shown instead. Carrying the text in the form
 * saves uploading the file twice; the digest makes that safe.
 *
 * Refused rows never stop the others: the check lists them, and the import leaves them out
 * (staff fix them and import them in another file).
 */

/** The import page's two forms: "Check file" with the upload, "Import" with the checked text and its digest. */
export const memberImportFormSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("check"), file: z.instanceof(Blob).nullish() }),
    z.object({ intent: z.literal("import"), text: z.string(), digest: z.string().max(200) }),
  ],
  { error: "The form could not be read. Reload the page and try again." },
);

export type ImportCall = { timeZone: string; now: Date; secret: string };

/** One row of the check, as the page lists it. */
type PreviewRow = { line: number; email: string; name: string; outcome: ImportOutcome; message: string };

export type ImportPreview = {
  rows: PreviewRow[];
  totals: ImportTotals;
  /** The file's text and the digest the import is sent with. */
  text: string;
  digest: string;
};

export type ImportCheck = { ok: true; preview: ImportPreview } | { ok: false; message: string };

export type ImportResult = { ok: true; totals: ImportTotals } | { ok: false; message: string; preview?: ImportPreview };

/** Rows written in one statement: well under PostgreSQL's 65,535 parameters. */
const BATCH = 500;

function batches<T>(items: readonly T[]) {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += BATCH) out.push(items.slice(start, start + BATCH));
  return out;
}

function digestOf(text: string, rows: readonly PlannedRow[], secret: string) {
  const key = createHmac("sha256", secret).update("pitlane membership import v1").digest();
  return createHmac("sha256", key).update(planFingerprint(rows)).update("\n").update(text).digest("base64url");
}

function sameDigest(given: string, expected: string) {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * What the site holds about the rows' members and tiers. With `lock`, the tiers are locked first
 * (the one lock order, ADR 0007) and then the members' membership rows, so nothing the plan
 * relies on can change before the import writes.
 */
async function factsFor(
  db: Db,
  rows: ReturnType<typeof checkImportRows>,
  call: ImportCall,
  lock: boolean,
): Promise<ImportFacts> {
  const tierIds = rows.flatMap((row) => (row.ok ? [row.tier.id] : []));
  const places = await readTierPlaces(db, tierIds, call.now, { lock });
  const emails = [...new Set(rows.flatMap((row) => (row.ok ? [row.email] : [])))];
  const accounts = new Map<string, { id: string; name: string }>();
  for (const batch of batches(emails)) {
    const found = await db
      .select({ id: users.id, name: users.name, email: sql<string>`lower(${users.email})` })
      .from(users)
      .where(inArray(sql`lower(${users.email})`, batch));
    for (const account of found) accounts.set(account.email, { id: account.id, name: account.name });
  }
  const held = new Map<string, HeldMembership>();
  for (const batch of batches([...accounts.values()].map((account) => account.id))) {
    const select = db
      .select({
        id: memberships.id,
        userId: memberships.userId,
        tierId: memberships.tierId,
        tierName: membershipTiers.name,
        paidUntil: memberships.paidUntil,
        renews: memberships.renews,
        endedAt: memberships.endedAt,
      })
      .from(memberships)
      .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
      .where(inArray(memberships.userId, batch))
      .orderBy(memberships.id);
    for (const row of lock ? await select.for("no key update", { of: memberships }) : await select) {
      held.set(row.userId, row);
    }
  }
  const left = new Map<string, number>();
  for (const [id, line] of places.tiers) {
    const count = placesLeft(line);
    if (count !== null) left.set(id, count);
  }
  return {
    accounts,
    memberships: held,
    placesLeft: left,
    now: call.now,
    formatDate: (date) => membershipDate(date, call.timeZone),
  };
}

async function tiersForImport(db: Db) {
  return db
    .select({
      id: membershipTiers.id,
      name: membershipTiers.name,
      slug: membershipTiers.slug,
      autoRenews: membershipTiers.autoRenews,
    })
    .from(membershipTiers);
}

/** The file's rows, each decided against what the site holds now. */
async function planFor(db: Db, text: string, call: ImportCall, lock: boolean) {
  const sheet = readImportSheet(text);
  if (!sheet.ok) return sheet;
  const tiers = await tiersForImport(db);
  const checked = checkImportRows(sheet.value, { tiers, timeZone: call.timeZone, now: call.now });
  const planned = planImport(checked, await factsFor(db, checked, call, lock));
  return { ok: true as const, value: planned, tiers };
}

function previewOf(text: string, rows: readonly PlannedRow[], secret: string): ImportPreview {
  return {
    rows: rows.map(({ line, email, name, outcome, message }) => ({ line, email, name, outcome, message })),
    totals: importTotals(rows),
    text,
    digest: digestOf(text, rows, secret),
  };
}

/** The dry run: reads the uploaded file and says what importing it would do. Writes nothing. */
export async function checkMemberImport(db: Db, file: Blob | null, call: ImportCall): Promise<ImportCheck> {
  if (!file || file.size === 0) return { ok: false, message: "Choose a CSV file to check" };
  if (file.size > IMPORT_LIMITS.bytes) return { ok: false, message: IMPORT_TOO_LARGE };
  const text = decodeImportFile(new Uint8Array(await file.arrayBuffer()));
  if (!text.ok) return text;
  const plan = await planFor(db, text.value, call, false);
  if (!plan.ok) return plan;
  return { ok: true, preview: previewOf(text.value, plan.value, call.secret) };
}

/** Raised inside the import's transaction when a write finds the site other than the plan read it. */
class ImportChanged extends Error {}

const CHANGED =
  "Something changed since the file was checked (a member joined, a place was taken, or the day ended): check the new results below and import again.";

/**
 * Imports the checked file: every row the check said would join, rejoin or be extended, in one
 * transaction, with one audit entry ("membership.import") holding the counts and each membership
 * written. Refused and unchanged rows are left alone.
 */
export async function importMembers(
  db: Db,
  input: { text: string; digest: string; actorId: string },
  call: ImportCall,
): Promise<ImportResult> {
  const text = normalizeImportText(input.text);
  if (!text.ok) return text;
  try {
    return await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      const plan = await planFor(tx, text.value, call, true);
      if (!plan.ok) return plan;
      const rows = plan.value;
      if (!sameDigest(input.digest, digestOf(text.value, rows, call.secret))) {
        return { ok: false as const, message: CHANGED, preview: previewOf(text.value, rows, call.secret) };
      }
      const totals = importTotals(rows);
      if (totals.importable === 0) {
        return { ok: false as const, message: "No row of this file can be imported: see the reasons below." };
      }
      await writeImport(tx, rows, plan.tiers, call.now);
      await recordAudit(tx, {
        actorId: input.actorId,
        action: "membership.import",
        subjectType: "membership_import",
        subjectId: createHash("sha256").update(text.value).digest("hex").slice(0, 32),
        details: {
          totals,
          memberships: rows
            .filter((row) => row.outcome === "join" || row.outcome === "rejoin" || row.outcome === "extend")
            .map((row) => ({
              row: row.line,
              email: row.email,
              outcome: row.outcome,
              tierId: row.tierId,
              paidUntil: row.paidUntil?.toISOString(),
              previousPaidUntil: row.previousPaidUntil?.toISOString() ?? null,
            })),
        },
      });
      return { ok: true as const, totals };
    });
  } catch (error) {
    if (!(error instanceof ImportChanged)) throw error;
    const again = await planFor(db, text.value, call, false);
    if (!again.ok) return again;
    return { ok: false, message: CHANGED, preview: previewOf(text.value, again.value, call.secret) };
  }
}

/**
 * The writes of a plan. A new or restarted membership is written like one issued at checkout
 * (a new card code, renewal as the tier does it), but paid until the file's date, for nothing
 * and with no saved way to pay: the member renews by paying themselves. An extension moves the
 * paid-until date on and forgets a renewal's failed tries.
 */
async function writeImport(
  tx: Db,
  rows: readonly PlannedRow[],
  tiers: readonly { id: string; autoRenews: boolean }[],
  now: Date,
) {
  const renewsOf = new Map(tiers.map((tier) => [tier.id, tier.autoRenews]));
  const issued = rows.filter((row) => row.outcome === "join" || row.outcome === "rejoin");
  const restarted = issued.flatMap((row) => (row.membershipId ? [row.membershipId] : []));
  for (const batch of batches(issued)) {
    const values = batch.map((row) => ({
      userId: row.userId!,
      tierId: row.tierId!,
      people: [],
      joinedAt: now,
      periodStartsAt: now,
      paidUntil: row.paidUntil!,
      orderId: null,
      paidPence: 0,
      paidAt: now,
      renews: renewsOf.get(row.tierId!) ?? false,
      endedAt: null,
      endReason: null,
      cardCode: newTicketCode(),
      paymentMethod: null,
      remindedFor: null,
      remindedAt: null,
      renewalFailures: 0,
      retryAt: null,
      lapseNoticeFor: null,
      updatedAt: now,
    }));
    const columns = Object.keys(values[0]!).filter((key) => key !== "userId") as (keyof (typeof values)[number])[];
    const set = Object.fromEntries(columns.map((key) => [key, sql.raw(`excluded.${memberships[key].name}`)]));
    // Only the rows the plan read (and locked) are restarted: a membership that appeared since,
    // by a payment settling at this moment, is left alone and the import stops.
    const written = await tx
      .insert(memberships)
      .values(values)
      .onConflictDoUpdate({
        target: memberships.userId,
        set,
        setWhere: restarted.length > 0 ? inArray(memberships.id, restarted) : sql`false`,
      })
      .returning({ id: memberships.id });
    if (written.length !== batch.length) throw new ImportChanged();
  }
  const extended = rows.filter((row) => row.outcome === "extend");
  for (const batch of batches(extended)) {
    const list = (items: ReturnType<typeof sql>[]) => sql`array[${sql.join(items, sql`, `)}]`;
    await tx.execute(sql`
      update ${memberships}
      set paid_until = changed.paid_until, renewal_failures = 0, retry_at = null,
        payment_method = ${movedPaymentMethod(sql`${memberships.paymentMethod}`)},
        updated_at = ${now.toISOString()}::timestamptz
      from unnest(
        ${list(batch.map((row) => sql`${row.membershipId}::uuid`))},
        ${list(batch.map((row) => sql`${row.paidUntil!.toISOString()}::timestamptz`))}
      ) as changed(id, paid_until)
      where ${memberships.id} = changed.id`);
  }
}
