import { describe, expect, it } from "vitest";
import {
  checkImportRows,
  decodeImportFile,
  endOfLocalDay,
  type HeldMembership,
  IMPORT_LIMITS,
  type ImportFacts,
  importTotals,
  lastLocalDay,
  normalizeImportText,
  parseCsv,
  planFingerprint,
  planImport,
  readImportSheet,
  type SheetRow,
} from "./member-import";

const LONDON = "Europe/London";
const NOW = new Date("2027-03-10T12:00:00Z");
const GOLD = { id: "tier-gold", name: "Gold", slug: "gold" };
const FAMILY = { id: "tier-family", name: "Family plus", slug: "family" };
const SITE = { tiers: [GOLD, FAMILY], timeZone: LONDON, now: NOW };

const row = (line: number, values: Partial<SheetRow> = {}): SheetRow => ({
  line,
  email: `member${line}@club.example`,
  name: `Member ${line}`,
  tier: "Gold",
  validUntil: "2027-12-31",
  ...values,
});

const messages = (rows: ReturnType<typeof checkImportRows>) =>
  rows.map((checked) => (checked.ok ? "ok" : checked.message));

describe("reading CSV", () => {
  it("splits fields on commas and records on LF, CRLF or CR", () => {
    expect(parseCsv("a,b\r\nc,d\ne,f\rg,h")).toEqual({
      ok: true,
      value: [
        ["a", "b"],
        ["c", "d"],
        ["e", "f"],
        ["g", "h"],
      ],
    });
  });

  it("keeps commas, line breaks and doubled quotes inside quoted fields", () => {
    expect(parseCsv('"Smith, Jo","She said ""hi""","two\r\nlines"\nnext,"",x')).toEqual({
      ok: true,
      value: [
        ["Smith, Jo", 'She said "hi"', "two\r\nlines"],
        ["next", "", "x"],
      ],
    });
  });

  it("drops spaces around a quoted field, keeps empty fields, and ignores one final line break", () => {
    expect(parseCsv(' "a" , b ,,\n')).toEqual({ ok: true, value: [["a", " b ", "", ""]] });
    expect(parseCsv("")).toEqual({ ok: true, value: [] });
  });

  it("refuses a quote never closed, and text after a closing quote, naming the row", () => {
    expect(parseCsv('email\n"open,value\n')).toEqual({
      ok: false,
      message: 'Row 2: a quoted value is never closed (a " is missing)',
    });
    const after = parseCsv('email\nx\n"a"b,c');
    expect(after.ok).toBe(false);
    expect(!after.ok && after.message).toMatch(/^Row 3: there is text after a closing quote/);
  });
});

describe("the uploaded file", () => {
  it("is UTF-8 text of at most 1 MB, its byte-order mark dropped and line breaks made plain", () => {
    const bytes = new TextEncoder().encode("\uFEFFemail,tier\r\nJosé@club.example,Gold\r\n");
    expect(decodeImportFile(bytes)).toEqual({ ok: true, value: "email,tier\nJosé@club.example,Gold\n" });
    expect(decodeImportFile(new Uint8Array())).toEqual({ ok: false, message: "The file is empty" });
    expect(decodeImportFile(new Uint8Array([0x65, 0xff, 0xfe, 0x0a]))).toMatchObject({
      ok: false,
      message: expect.stringContaining("not UTF-8"),
    });
    expect(decodeImportFile(new Uint8Array(IMPORT_LIMITS.bytes + 1).fill(0x61))).toMatchObject({
      ok: false,
      message: expect.stringContaining("larger than 1 MB"),
    });
    expect(normalizeImportText("a\u0000b")).toMatchObject({ ok: false, message: expect.stringContaining("not a CSV") });
  });

  it("reads the same after a form sends it back with CRLF line breaks", () => {
    const text = "email,tier,valid until\na@club.example,Gold,2027-12-31\n";
    expect(normalizeImportText(text.replace(/\n/g, "\r\n"))).toEqual({ ok: true, value: text });
  });
});

describe("the sheet", () => {
  it("finds the columns by the header's names, whatever their case, order or spacing", () => {
    const sheet = readImportSheet(
      "Valid_Until, TIER ,Notes,Email,Name\n2027-12-31,Gold,paid cash,jo@club.example,Jo\n\n,,,,\n2028-01-31,Family plus,,sam@club.example,Sam",
    );
    expect(sheet).toEqual({
      ok: true,
      value: [
        { line: 2, email: "jo@club.example", name: "Jo", tier: "Gold", validUntil: "2027-12-31" },
        { line: 5, email: "sam@club.example", name: "Sam", tier: "Family plus", validUntil: "2028-01-31" },
      ],
    });
  });

  it("reads without a name column, but needs email, tier and valid until", () => {
    expect(readImportSheet("email,tier,valid until\na@club.example,Gold,2027-12-31")).toMatchObject({ ok: true });
    expect(readImportSheet("email,name,level,expires\na@club.example,A,Gold,2027-12-31")).toEqual({
      ok: false,
      message:
        'The first row must name the columns email, name, tier and valid until: "tier", "valid until" are missing',
    });
    expect(readImportSheet("email,email,tier,valid until\n")).toMatchObject({
      ok: false,
      message: 'The header row has two "email" columns',
    });
  });

  it("refuses an empty file, a header alone, and more than 5,000 members", () => {
    expect(readImportSheet("")).toEqual({ ok: false, message: "The file is empty" });
    expect(readImportSheet("email,tier,valid until\n\n")).toEqual({
      ok: false,
      message: "The file has a header row but no members under it",
    });
    const many = Array.from({ length: 5001 }, (_, index) => `m${index}@club.example,Gold,2027-12-31`).join("\n");
    expect(readImportSheet(`email,tier,valid until\n${many}`)).toEqual({
      ok: false,
      message: "The file has 5,001 members: import at most 5,000 at a time",
    });
  });
});

describe("valid until", () => {
  it("is the end of that day in the club's time zone, summer or winter", () => {
    expect(endOfLocalDay("2027-12-31", LONDON)).toEqual(new Date("2028-01-01T00:00:00Z"));
    expect(endOfLocalDay("2027-07-31", LONDON)).toEqual(new Date("2027-07-31T23:00:00Z"));
    expect(endOfLocalDay("2027-07-31", "America/New_York")).toEqual(new Date("2027-08-01T04:00:00Z"));
    expect(lastLocalDay(new Date("2027-07-31T23:00:00Z"), LONDON)).toBe("2027-07-31");
  });

  it("is refused unless it is a real date written YYYY-MM-DD", () => {
    for (const text of ["2027-02-30", "31/12/2027", "2027-1-5", "tomorrow", ""]) {
      expect(endOfLocalDay(text, LONDON), text).toBeNull();
    }
  });
});

describe("checking rows", () => {
  it("takes an email, a tier by its name or address in any case, and a date still to come", () => {
    const checked = checkImportRows(
      [row(2), row(3, { tier: "FAMILY", email: " Sam@Club.Example " }), row(4, { tier: "family plus" })],
      SITE,
    );
    expect(checked).toEqual([
      expect.objectContaining({ ok: true, line: 2, tier: GOLD, paidUntil: new Date("2028-01-01T00:00:00Z") }),
      expect.objectContaining({ ok: true, line: 3, tier: FAMILY, email: "sam@club.example" }),
      expect.objectContaining({ ok: true, line: 4, tier: FAMILY }),
    ]);
  });

  it("refuses each bad row with its row number and the reason", () => {
    const checked = checkImportRows(
      [
        row(2, { email: "" }),
        row(3, { email: "not an email" }),
        row(4, { tier: "Platinum" }),
        row(5, { tier: "" }),
        row(6, { validUntil: "31/12/2027" }),
        row(7, { validUntil: "" }),
        row(8, { validUntil: "2027-03-09" }),
        row(9, { validUntil: "2040-01-01" }),
      ],
      SITE,
    );
    expect(messages(checked)).toEqual([
      "Row 2: the email is missing",
      "Row 3: the email is not valid",
      "Row 4: no tier called 'Platinum'",
      "Row 5: the tier is missing",
      "Row 6: valid until '31/12/2027' is not a date like 2027-12-31",
      "Row 7: valid until is missing",
      "Row 8: valid until is in the past",
      "Row 9: valid until is more than 10 years away: check the year",
    ]);
  });

  it("takes a membership valid until today: it runs to midnight", () => {
    expect(messages(checkImportRows([row(2, { validUntil: "2027-03-10" })], SITE))).toEqual(["ok"]);
  });

  it("refuses every row of an email that is on more than one row", () => {
    const checked = checkImportRows(
      [
        row(2, { email: "twice@club.example" }),
        row(3),
        row(4, { email: "TWICE@club.example", tier: "Family plus" }),
        row(5, { email: "twice@club.example", tier: "Nope" }),
      ],
      SITE,
    );
    expect(messages(checked)).toEqual([
      "Row 2: twice@club.example is also on rows 4, 5: keep one row per member",
      "ok",
      "Row 4: twice@club.example is also on rows 2, 5: keep one row per member",
      "Row 5: no tier called 'Nope'",
    ]);
  });
});

describe("planning the import", () => {
  const membership = (values: Partial<HeldMembership> = {}): HeldMembership => ({
    id: "membership-1",
    tierId: GOLD.id,
    tierName: "Gold",
    paidUntil: new Date("2027-06-01T00:00:00Z"),
    renews: true,
    endedAt: null,
    ...values,
  });
  const facts = (values: Partial<ImportFacts> = {}): ImportFacts => ({
    accounts: new Map(
      [2, 3, 4, 5, 6].map((line) => [`member${line}@club.example`, { id: `user-${line}`, name: `Account ${line}` }]),
    ),
    memberships: new Map(),
    placesLeft: new Map(),
    now: NOW,
    formatDate: (date) => date.toISOString().slice(0, 10),
    ...values,
  });
  const plan = (rows: SheetRow[], values: Partial<ImportFacts> = {}) =>
    planImport(checkImportRows(rows, SITE), facts(values));

  it("gives an account without a membership one, and refuses an email with no account", () => {
    const planned = plan([row(2), row(9)]);
    expect(planned).toEqual([
      expect.objectContaining({
        outcome: "join",
        name: "Account 2",
        userId: "user-2",
        tierId: GOLD.id,
        message: "Gets a Gold membership until 2028-01-01",
      }),
      expect.objectContaining({
        outcome: "refused",
        name: "Member 9",
        message: "Row 9: no account with this email: ask them to sign up first",
      }),
    ]);
    expect(importTotals(planned)).toEqual({
      join: 1,
      rejoin: 0,
      extend: 0,
      unchanged: 0,
      refused: 1,
      rows: 2,
      importable: 1,
    });
  });

  it("extends a membership on the same tier to a later date, and leaves one already paid as long", () => {
    const planned = plan([row(2), row(3, { validUntil: "2027-05-01" })], {
      memberships: new Map([
        ["user-2", membership()],
        ["user-3", membership({ id: "membership-3" })],
      ]),
    });
    expect(planned.map((row) => [row.outcome, row.message])).toEqual([
      ["extend", "Gold membership extended from 2027-06-01 to 2028-01-01"],
      ["unchanged", "Already a Gold member until 2027-06-01: nothing to change"],
    ]);
    expect(planned[0]).toMatchObject({ membershipId: "membership-1", previousPaidUntil: membership().paidUntil });
  });

  it("extends a membership whose renewal is unpaid (it still has its benefits)", () => {
    const inGrace = membership({ paidUntil: new Date("2027-03-08T00:00:00Z") });
    expect(plan([row(2)], { memberships: new Map([["user-2", inGrace]]) })[0]?.outcome).toBe("extend");
  });

  it("restarts a membership that has lapsed, ended or been stopped, on any tier", () => {
    const planned = plan([row(2), row(3, { tier: "Family plus" }), row(4)], {
      memberships: new Map([
        ["user-2", membership({ paidUntil: new Date("2027-01-01T00:00:00Z") })],
        ["user-3", membership({ renews: false, paidUntil: new Date("2027-03-01T00:00:00Z") })],
        ["user-4", membership({ endedAt: new Date("2027-02-01T00:00:00Z") })],
      ]),
    });
    expect(planned.map((row) => row.outcome)).toEqual(["rejoin", "rejoin", "rejoin"]);
    expect(planned[1]?.message).toBe("Gets a Family plus membership until 2028-01-01 (their earlier one had ended)");
  });

  it("refuses a member who holds another tier: that is changed on their page", () => {
    const planned = plan([row(2, { tier: "Family plus" })], { memberships: new Map([["user-2", membership()]]) });
    expect(planned[0]?.message).toBe(
      "Row 2: Account 2 is a Gold member until 2027-06-01: change their tier on their membership page",
    );
  });

  it("fills a capped tier in the file's order, and refuses the rows past its last place", () => {
    const planned = plan([row(2), row(3), row(4, { tier: "Family plus" }), row(5)], {
      placesLeft: new Map([[GOLD.id, 2]]),
      memberships: new Map([["user-3", membership()]]),
    });
    expect(planned.map((row) => row.outcome)).toEqual(["join", "extend", "join", "join"]);
    const full = plan([row(2), row(3), row(4)], { placesLeft: new Map([[GOLD.id, 1]]) });
    expect(full.map((row) => row.message)).toEqual([
      "Gets a Gold membership until 2028-01-01",
      "Row 3: Gold is full: every place is taken",
      "Row 4: Gold is full: every place is taken",
    ]);
  });

  it("fingerprints every decision, so a plan that decides anything differently does not match", () => {
    const first = plan([row(2), row(3)]);
    expect(planFingerprint(plan([row(2), row(3)]))).toBe(planFingerprint(first));
    expect(planFingerprint(plan([row(2), row(3)], { placesLeft: new Map([[GOLD.id, 1]]) }))).not.toBe(
      planFingerprint(first),
    );
    expect(planFingerprint(plan([row(2), row(3, { validUntil: "2027-12-30" })]))).not.toBe(planFingerprint(first));
  });
});
