import { emailField } from "~/features/accounts/schemas";
import { wallTimeAt, wallTimeToInstant } from "~/features/dates/time-zones";
import { formatCount } from "~/ui/plural";
import { hasBenefits, membershipStatus } from "./membership-rules";

/**
 * Importing existing members from a spreadsheet (docs/membership.md, "Staff"): reading the file,
 * its CSV, its header and each row, and deciding what each row does given what the site already
 * holds. Pure functions, so the dry run and the import decide alike, and the rules are tested
 * without a database.
 */

/** The largest file taken (1 MB: it fits, with the form around it, in the site's default body limit) and rows in it. */
export const IMPORT_LIMITS = { bytes: 1_000_000, rows: 5_000 } as const;

/** How far ahead a "valid until" may be before it reads as a typo in the year. */
const MAX_YEARS_AHEAD = 10;

type Read<T> = { ok: true; value: T } | { ok: false; message: string };

export const IMPORT_TOO_LARGE = "The file is larger than 1 MB: split it into smaller files";

/**
 * The CSV as the import reads it: without a byte-order mark, every line break a plain newline.
 * The same text read from the upload and from the form that confirms it (browsers send a form's
 * line breaks as CRLF) is then the same text, so its digest matches.
 */
export function normalizeImportText(text: string): Read<string> {
  const plain = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (plain.includes("\u0000")) return { ok: false, message: "The file is not a CSV: save the spreadsheet as CSV" };
  if (new TextEncoder().encode(plain).length > IMPORT_LIMITS.bytes) return { ok: false, message: IMPORT_TOO_LARGE };
  return { ok: true, value: plain };
}

/** An uploaded file's bytes as text: UTF-8 (with or without its byte-order mark), at most 1 MB. */
export function decodeImportFile(bytes: Uint8Array): Read<string> {
  if (bytes.length === 0) return { ok: false, message: "The file is empty" };
  if (bytes.length > IMPORT_LIMITS.bytes) return { ok: false, message: IMPORT_TOO_LARGE };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, message: 'The file is not UTF-8 text: save it from the spreadsheet as "CSV UTF-8"' };
  }
  return normalizeImportText(text);
}

/**
 * Reads CSV (RFC 4180): fields separated by commas, records by LF, CRLF or CR; a field in double
 * quotes may hold commas, line breaks and doubled quotes (""). Spaces around a quoted field are
 * dropped. A record is a spreadsheet row, so row numbers count records, not lines.
 */
export function parseCsv(text: string): Read<string[][]> {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let inQuotes = false;
  let wasQuoted = false;
  let row = 1;
  let quoteRow = 1;
  const endField = () => {
    record.push(field);
    field = "";
    wasQuoted = false;
  };
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (inQuotes) {
      if (char !== '"') {
        field += char;
        index += 1;
      } else if (text[index + 1] === '"') {
        field += '"';
        index += 2;
      } else {
        inQuotes = false;
        index += 1;
        while (text[index] === " " || text[index] === "\t") index += 1;
        const next = text[index];
        if (next !== undefined && next !== "," && next !== "\n" && next !== "\r") {
          return {
            ok: false,
            message: `Row ${row}: there is text after a closing quote. Put the whole value in quotes, with any quote inside it doubled ("")`,
          };
        }
      }
      continue;
    }
    if (char === '"' && !wasQuoted && field.trim() === "") {
      field = "";
      inQuotes = true;
      wasQuoted = true;
      quoteRow = row;
    } else if (char === ",") {
      endField();
    } else if (char === "\n" || char === "\r") {
      endField();
      records.push(record);
      record = [];
      row += 1;
      if (char === "\r" && text[index + 1] === "\n") index += 1;
    } else {
      field += char;
    }
    index += 1;
  }
  if (inQuotes) return { ok: false, message: `Row ${quoteRow}: a quoted value is never closed (a " is missing)` };
  if (field !== "" || wasQuoted || record.length > 0) {
    endField();
    records.push(record);
  }
  return { ok: true, value: records };
}

/** The columns the import reads, by their header ("Valid until", "valid_until" and "VALID-UNTIL" alike). */
const COLUMNS = { email: "email", name: "name", tier: "tier", validUntil: "valid until" } as const;
type Column = keyof typeof COLUMNS;
const REQUIRED: readonly Column[] = ["email", "tier", "validUntil"];

const headerName = (cell: string) =>
  cell
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, " ");

/** One data row of the sheet, as typed; `line` is its spreadsheet row number (the header is row 1). */
export type SheetRow = { line: number; email: string; name: string; tier: string; validUntil: string };

/**
 * The sheet's data rows, found by the header row's names: email, tier and valid until are
 * needed, name is read when it is there, other columns are left alone. Blank rows are skipped
 * (but counted, so row numbers match the spreadsheet's).
 */
export function readImportSheet(text: string): Read<SheetRow[]> {
  const parsed = parseCsv(text);
  if (!parsed.ok) return parsed;
  const [header, ...records] = parsed.value;
  const blank = (cells: string[]) => cells.every((cell) => cell.trim() === "");
  if (!header || blank(header)) return { ok: false, message: "The file is empty" };
  const positions = new Map<Column, number>();
  for (const [position, cell] of header.entries()) {
    const column = (Object.keys(COLUMNS) as Column[]).find((name) => COLUMNS[name] === headerName(cell));
    if (!column) continue;
    if (positions.has(column)) return { ok: false, message: `The header row has two "${COLUMNS[column]}" columns` };
    positions.set(column, position);
  }
  const missing = REQUIRED.filter((column) => !positions.has(column)).map((column) => `"${COLUMNS[column]}"`);
  if (missing.length > 0) {
    return {
      ok: false,
      message: `The first row must name the columns email, name, tier and valid until: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} missing`,
    };
  }
  const cell = (cells: string[], column: Column) => {
    const position = positions.get(column);
    return position === undefined ? "" : (cells[position] ?? "").trim();
  };
  const rows: SheetRow[] = [];
  for (const [index, cells] of records.entries()) {
    if (blank(cells)) continue;
    rows.push({
      line: index + 2,
      email: cell(cells, "email"),
      name: cell(cells, "name"),
      tier: cell(cells, "tier"),
      validUntil: cell(cells, "validUntil"),
    });
  }
  if (rows.length === 0) return { ok: false, message: "The file has a header row but no members under it" };
  if (rows.length > IMPORT_LIMITS.rows) {
    return {
      ok: false,
      message: `The file has ${formatCount(rows.length)} members: import at most ${formatCount(IMPORT_LIMITS.rows)} at a time`,
    };
  }
  return { ok: true, value: rows };
}

const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The end of a calendar day ("2027-12-31") in `timeZone`: the midnight that starts the next day,
 * which is when a membership valid until that day stops. Null when it is not a real date.
 */
export function endOfLocalDay(text: string, timeZone: string): Date | null {
  const match = LOCAL_DATE.exec(text.trim());
  if (!match) return null;
  const [year, month, day] = match.slice(1, 4).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1970 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  const next = new Date(Date.UTC(year, month - 1, day + 1));
  const wall = { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), minute: 0 };
  // Where the clocks go forward at midnight, the day starts at the first hour that exists.
  return wallTimeToInstant({ ...wall, hour: 0 }, timeZone) ?? wallTimeToInstant({ ...wall, hour: 1 }, timeZone);
}

/** The calendar day a membership valid until `paidUntil` (an end of day) was valid through. */
export function lastLocalDay(paidUntil: Date, timeZone: string) {
  const wall = wallTimeAt(new Date(paidUntil.getTime() - 1), timeZone);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${wall.year}-${pad(wall.month)}-${pad(wall.day)}`;
}

export type ImportTier = { id: string; name: string; slug: string };

/** A row that reads well: the member's email, the tier it names, and the end of the day it is valid until. */
type CheckedRow =
  | { ok: true; line: number; email: string; name: string; tier: ImportTier; paidUntil: Date }
  | { ok: false; line: number; email: string; name: string; message: string };

/**
 * Checks each row on its own terms: an email address, a tier the club has (by its name or its
 * address, whatever the case), and a valid-until date (YYYY-MM-DD, in the club's time zone) that
 * is not over. An email on more than one row refuses all of them: which row is right is for
 * staff to say.
 */
export function checkImportRows(
  rows: readonly SheetRow[],
  site: { tiers: readonly ImportTier[]; timeZone: string; now: Date },
): CheckedRow[] {
  const byName = new Map(site.tiers.map((tier) => [tier.name.trim().toLowerCase(), tier]));
  const bySlug = new Map(site.tiers.map((tier) => [tier.slug.toLowerCase(), tier]));
  const latest = new Date(site.now);
  latest.setUTCFullYear(latest.getUTCFullYear() + MAX_YEARS_AHEAD);
  const linesOf = new Map<string, number[]>();
  const checked = rows.map((row): CheckedRow => {
    const refuse = (problem: string) => ({
      ok: false as const,
      line: row.line,
      email: row.email,
      name: row.name,
      message: `Row ${row.line}: ${problem}`,
    });
    if (row.email === "") return refuse("the email is missing");
    const email = emailField.safeParse(row.email);
    if (!email.success) return refuse("the email is not valid");
    linesOf.set(email.data, [...(linesOf.get(email.data) ?? []), row.line]);
    if (row.tier === "") return refuse("the tier is missing");
    const key = row.tier.toLowerCase();
    const tier = byName.get(key) ?? bySlug.get(key);
    if (!tier) return refuse(`no tier called '${row.tier}'`);
    if (row.validUntil === "") return refuse("valid until is missing");
    const paidUntil = endOfLocalDay(row.validUntil, site.timeZone);
    if (!paidUntil) return refuse(`valid until '${row.validUntil}' is not a date like 2027-12-31`);
    if (paidUntil.getTime() <= site.now.getTime()) return refuse("valid until is in the past");
    if (paidUntil.getTime() > latest.getTime()) {
      return refuse(`valid until is more than ${MAX_YEARS_AHEAD} years away: check the year`);
    }
    return { ok: true, line: row.line, email: email.data, name: row.name, tier, paidUntil };
  });
  return checked.map((row) => {
    const others = row.ok ? (linesOf.get(row.email) ?? []).filter((line) => line !== row.line) : [];
    if (others.length === 0) return row;
    return {
      ok: false,
      line: row.line,
      email: row.email,
      name: row.name,
      message: `Row ${row.line}: ${row.email} is also on ${others.length === 1 ? "row" : "rows"} ${others.join(", ")}: keep one row per member`,
    };
  });
}

/** A member's membership as the import reads it. */
export type HeldMembership = {
  id: string;
  tierId: string;
  tierName: string;
  paidUntil: Date;
  renews: boolean;
  endedAt: Date | null;
};

/** What the site holds about a row's member: their account, and their membership if they have had one. */
export type ImportFacts = {
  /** By email, lowercase. */
  accounts: ReadonlyMap<string, { id: string; name: string }>;
  /** By the member's account id. */
  memberships: ReadonlyMap<string, HeldMembership>;
  /** Places left on each capped tier (read under the tiers' locks when importing); a tier missing here has no cap. */
  placesLeft: ReadonlyMap<string, number>;
  now: Date;
  formatDate: (date: Date) => string;
};

/** What one row does: joins, joins again after an earlier membership ended, is extended, is already up to date, or is refused. */
export type ImportOutcome = "join" | "rejoin" | "extend" | "unchanged" | "refused";

export type PlannedRow = {
  line: number;
  email: string;
  /** The account's name, or the file's while there is no account. */
  name: string;
  outcome: ImportOutcome;
  message: string;
  userId: string | null;
  membershipId: string | null;
  tierId: string | null;
  paidUntil: Date | null;
  previousPaidUntil: Date | null;
};

/**
 * Decides each row, in the file's order:
 * - no account with the email: refused (the site creates no accounts for people who never signed
 *   up: an account records their own acceptance of the terms and a confirmed email);
 * - an account that never had a membership ("join"), or whose membership has lost its benefits
 *   ("rejoin"): a membership on the tier until the date, if the tier has a place left;
 * - a membership with its benefits on the same tier: extended to the date when it is later
 *   ("extend"), otherwise left as it is ("unchanged");
 * - a membership with its benefits on another tier: refused (changing a tier is done on the
 *   member's own page, one at a time, with a reason).
 * Places on a capped tier are taken row by row, so a tier fills in the file's order.
 */
export function planImport(rows: readonly CheckedRow[], facts: ImportFacts): PlannedRow[] {
  const placesLeft = new Map(facts.placesLeft);
  return rows.map((row): PlannedRow => {
    const base = {
      line: row.line,
      email: row.email,
      name: row.name,
      userId: null,
      membershipId: null,
      tierId: null,
      paidUntil: null,
      previousPaidUntil: null,
    };
    if (!row.ok) return { ...base, outcome: "refused", message: row.message };
    const refused = (problem: string): PlannedRow => ({
      ...base,
      outcome: "refused",
      message: `Row ${row.line}: ${problem}`,
    });
    const account = facts.accounts.get(row.email);
    if (!account) return refused("no account with this email: ask them to sign up first");
    const named = { ...base, name: account.name, userId: account.id, tierId: row.tier.id, paidUntil: row.paidUntil };
    const current = facts.memberships.get(account.id);
    const live =
      current &&
      !current.endedAt &&
      hasBenefits(membershipStatus({ paidUntil: current.paidUntil, renews: current.renews }, facts.now));
    const until = facts.formatDate(row.paidUntil);
    if (current && live) {
      if (current.tierId !== row.tier.id) {
        return refused(
          `${account.name} is a ${current.tierName} member until ${facts.formatDate(current.paidUntil)}: change their tier on their membership page`,
        );
      }
      const extended = { ...named, membershipId: current.id, previousPaidUntil: current.paidUntil };
      if (row.paidUntil.getTime() <= current.paidUntil.getTime()) {
        return {
          ...extended,
          outcome: "unchanged",
          message: `Already a ${row.tier.name} member until ${facts.formatDate(current.paidUntil)}: nothing to change`,
        };
      }
      return {
        ...extended,
        outcome: "extend",
        message: `${row.tier.name} membership extended from ${facts.formatDate(current.paidUntil)} to ${until}`,
      };
    }
    const left = placesLeft.get(row.tier.id);
    if (left !== undefined) {
      if (left < 1) return refused(`${row.tier.name} is full: every place is taken`);
      placesLeft.set(row.tier.id, left - 1);
    }
    return current
      ? {
          ...named,
          membershipId: current.id,
          previousPaidUntil: current.paidUntil,
          outcome: "rejoin",
          message: `Gets a ${row.tier.name} membership until ${until} (their earlier one had ended)`,
        }
      : { ...named, outcome: "join", message: `Gets a ${row.tier.name} membership until ${until}` };
  });
}

export type ImportTotals = Record<ImportOutcome, number> & { rows: number; importable: number };

/** How many rows do each thing, and how many memberships the import writes. */
export function importTotals(rows: readonly PlannedRow[]): ImportTotals {
  const totals = { join: 0, rejoin: 0, extend: 0, unchanged: 0, refused: 0 };
  for (const row of rows) totals[row.outcome] += 1;
  return { ...totals, rows: rows.length, importable: totals.join + totals.rejoin + totals.extend };
}

/** Everything a plan decided, in one string: the import goes ahead only if it decides the same again. */
export function planFingerprint(rows: readonly PlannedRow[]) {
  return JSON.stringify(
    rows.map((row) => [
      row.line,
      row.outcome,
      row.userId,
      row.membershipId,
      row.tierId,
      row.paidUntil?.toISOString() ?? null,
      row.previousPaidUntil?.toISOString() ?? null,
    ]),
  );
}
