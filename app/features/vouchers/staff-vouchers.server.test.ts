import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestEvent } from "~/features/checkout/stock.test-support";
import { createTestTier } from "~/features/membership/tiers.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { auditLog, vouchers } from "../../../db/schema";
import { type VoucherInput, type VoucherTermsInput, voucherSchema } from "./schemas";
import {
  createVouchers,
  listVouchers,
  setVoucherActive,
  updateVoucher,
  voucherForStaff,
  voucherTargetOptions,
} from "./staff-vouchers.server";
import { readVoucherUses } from "./voucher-uses.server";
import { createTestVoucher, recordTestUse } from "./vouchers.test-support";

// Staff's voucher rules: making one code or a batch, refusing a code in use, changing terms under
// the rules of a used code, and the list's counts of uses, which must agree with checkout's.
const database = freshDatabasePerFile();
const NOW = new Date("2027-05-01T10:00:00Z");
const HOUR = 60 * 60 * 1000;

function terms(overrides: Partial<VoucherTermsInput> = {}): VoucherTermsInput {
  return {
    label: "",
    effect: "percent_off",
    value: 10,
    kinds: [],
    eventIds: [],
    ticketTypeIds: [],
    productIds: [],
    tierIds: [],
    drawIds: [],
    maxUses: null,
    maxUsesPerMember: null,
    validFrom: null,
    validUntil: null,
    minBasket: null,
    holdsPlaces: false,
    active: true,
    ...overrides,
  };
}

const single = (code: string, overrides: Partial<VoucherTermsInput> = {}): VoucherInput => ({
  code,
  count: null,
  terms: terms(overrides),
});

async function staff() {
  const organizer = await testAccount(database().db, "organizer");
  return { actorId: organizer.id, now: NOW };
}

/** The form as Conform hands it to the schema: numbers for number fields, true for a ticked box. */
const formInput = (overrides: Record<string, unknown> = {}) => ({
  mode: "single",
  code: "spring-25",
  effect: "percent_off",
  percent: 10,
  active: true,
  ...overrides,
});
const schema = voucherSchema({ currency: "GBP", timeZone: "Europe/London" });
const messages = (input: Record<string, unknown>) => {
  const parsed = schema.safeParse(input);
  return parsed.success
    ? {}
    : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]));
};

describe("the voucher form's schema", () => {
  it("reads the code as typed, without spaces, dashes or case, and the value the effect needs", () => {
    const parsed = schema.parse(formInput({ amount: "2.50", percent: 15 }));
    expect(parsed).toMatchObject({ code: "SPRING25", count: null, terms: { effect: "percent_off", value: 15 } });
    expect(schema.parse(formInput({ effect: "amount_off", amount: "2.50" })).terms.value).toBe(250);
    expect(schema.parse(formInput({ effect: "set_price", amount: "0" })).terms.value).toBe(0);
    expect(messages(formInput({ code: "a!" }))).toEqual({ code: "Use 3 to 32 letters and digits, like SPRING25" });
    expect(messages(formInput({ code: "" }))).toEqual({ code: "Enter the code, or choose a batch of codes" });
    expect(messages(formInput({ effect: "amount_off", amount: "0" }))).toEqual({ amount: "Enter an amount above 0" });
  });

  it("needs a count and a label for a batch, and reads times in the club's zone", () => {
    expect(messages(formInput({ mode: "batch", code: "" }))).toEqual({
      count: "Enter how many codes to make",
      label: "Name the batch, such as Crew 2027",
    });
    const batch = schema.parse(
      formInput({
        mode: "batch",
        count: 20,
        label: "Crew",
        validFrom: "2027-06-01T09:00",
        validUntil: "2027-06-30T18:00",
      }),
    );
    expect(batch).toMatchObject({ code: null, count: 20, terms: { label: "Crew" } });
    expect(batch.terms.validFrom?.toISOString()).toBe("2027-06-01T08:00:00.000Z");
    expect(messages(formInput({ validFrom: "2027-06-02T09:00", validUntil: "2027-06-01T09:00" }))).toEqual({
      validUntil: "The code must end after it starts",
    });
  });

  it("lets a code keep places only with a limit on uses and exactly one ticket type, and nothing else", () => {
    const typeA = "00000000-0000-4000-8000-00000000000a";
    const typeB = "00000000-0000-4000-8000-00000000000b";
    expect(messages(formInput({ holdsPlaces: true, ticketTypeIds: [typeA] }))).toEqual({
      holdsPlaces: "Keeping places needs the most uses in all: that many places are kept",
    });
    expect(messages(formInput({ holdsPlaces: true, maxUses: 10 }))).toEqual({
      holdsPlaces: "Keeping places needs exactly one ticket type",
    });
    expect(messages(formInput({ holdsPlaces: true, maxUses: 10, ticketTypeIds: [typeA, typeB] }))).toEqual({
      holdsPlaces: "Keeping places needs exactly one ticket type",
    });
    expect(messages(formInput({ holdsPlaces: true, maxUses: 10, ticketTypeIds: [typeA], kinds: ["merch"] }))).toEqual({
      holdsPlaces: "A code that keeps places applies to its one ticket type only: clear the other choices",
    });
    expect(schema.parse(formInput({ holdsPlaces: true, maxUses: 10, ticketTypeIds: [typeA] })).terms).toMatchObject({
      holdsPlaces: true,
      maxUses: 10,
      ticketTypeIds: [typeA],
    });
  });
});

describe("createVouchers", () => {
  it("makes the typed code with its terms, audited", async () => {
    const { db } = database();
    const actor = await staff();
    const event = await createTestEvent(db, { types: [{ name: "Paddock" }] });
    const outcome = await createVouchers(
      db,
      single("CREW2027", { label: "Crew", effect: "amount_off", value: 500, eventIds: [event.eventId], maxUses: 20 }),
      actor,
    );
    expect(outcome).toMatchObject({ ok: true, code: "CREW2027", batchId: null });
    const [row] = await db.select().from(vouchers).where(eq(vouchers.code, "CREW2027"));
    expect(row).toMatchObject({
      label: "Crew",
      effect: "amount_off",
      value: 500,
      eventIds: [event.eventId],
      maxUses: 20,
      active: true,
      batchId: null,
      createdBy: actor.actorId,
    });
    const audit = await db.select().from(auditLog).where(eq(auditLog.subjectId, row!.id));
    expect(audit).toMatchObject([{ action: "voucher.create", subjectType: "voucher", actorId: actor.actorId }]);
  });

  it("makes a batch of unguessable codes, all different, under one batch id, audited once", async () => {
    const { db } = database();
    const actor = await staff();
    const outcome = await createVouchers(db, { code: null, count: 40, terms: terms({ label: "Marshals" }) }, actor);
    if (!outcome.ok || outcome.batchId === null) throw new Error("Expected a batch");
    expect(outcome.codes).toBe(40);
    const rows = await db.select().from(vouchers).where(eq(vouchers.batchId, outcome.batchId));
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((row) => row.code)).size).toBe(40);
    for (const row of rows) {
      expect(row.code).toMatch(/^[A-HJ-NP-Z2-9]{10}$/);
      expect(row).toMatchObject({ label: "Marshals", effect: "percent_off", value: 10, active: true });
    }
    const audit = await db.select().from(auditLog).where(eq(auditLog.subjectId, outcome.batchId));
    expect(audit).toMatchObject([{ action: "voucher.create_batch", subjectType: "voucher_batch" }]);
  });

  it("refuses a code already in use on its field, and one naming something that no longer exists", async () => {
    const { db } = database();
    const actor = await staff();
    await createTestVoucher(db, { code: "TAKEN1" });
    expect(await createVouchers(db, single("TAKEN1"), actor)).toEqual({
      ok: false,
      field: "code",
      message: "That code is already in use",
    });
    // Two organizers saving the same code at once: one is saved, the other told.
    const both = await Promise.all([
      createVouchers(db, single("RACED1"), actor),
      createVouchers(db, single("RACED1"), actor),
    ]);
    expect(both.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(both.find((outcome) => !outcome.ok)).toMatchObject({
      field: "code",
      message: "That code is already in use",
    });
    expect(
      await createVouchers(db, single("GHOST1", { eventIds: ["00000000-0000-4000-8000-000000000000"] }), actor),
    ).toMatchObject({ ok: false, field: "eventIds" });
  });

  it("refuses to keep places without exactly one ticket type, down to the database", async () => {
    const { db } = database();
    const actor = await staff();
    const event = await createTestEvent(db, { types: [{ name: "Grid walk" }, { name: "Pit lane" }] });
    const kept = await createVouchers(
      db,
      single("KEEP1", { holdsPlaces: true, maxUses: 5, ticketTypeIds: [event.typeIds[0]!] }),
      actor,
    );
    expect(kept.ok).toBe(true);
    await expect(
      createVouchers(db, single("KEEP2", { holdsPlaces: true, maxUses: 5, ticketTypeIds: event.typeIds }), actor),
    ).rejects.toThrow();
  });
});

describe("updateVoucher and setVoucherActive", () => {
  it("saves new terms with what changed in the audit log, and switches a code off and on", async () => {
    const { db } = database();
    const actor = await staff();
    const voucher = await createTestVoucher(db, { code: "EDITME" });
    const saved = await updateVoucher(
      db,
      voucher.id,
      single("EDITED", { effect: "amount_off", value: 300, maxUses: 8, label: "Edited" }),
      actor,
    );
    expect(saved).toEqual({ ok: true, id: voucher.id, code: "EDITED" });
    const [row] = await db.select().from(vouchers).where(eq(vouchers.id, voucher.id));
    expect(row).toMatchObject({ code: "EDITED", effect: "amount_off", value: 300, maxUses: 8, label: "Edited" });
    const [update] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, voucher.id), eq(auditLog.action, "voucher.update")));
    expect(update?.details).toMatchObject({
      changes: { values: { code: { from: "EDITME", to: "EDITED" }, value: { from: 10, to: 300 } } },
    });

    expect(await setVoucherActive(db, voucher.id, false, actor)).toEqual({ ok: true, code: "EDITED" });
    expect((await voucherForStaff(db, voucher.id, NOW))?.voucher.active).toBe(false);
    await setVoucherActive(db, voucher.id, true, actor);
    const switches = await db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.subjectId, voucher.id))
      .orderBy(asc(auditLog.createdAt));
    expect(switches.map((entry) => entry.action)).toEqual([
      "voucher.update",
      "voucher.switch_off",
      "voucher.switch_on",
    ]);
    expect(await setVoucherActive(db, "00000000-0000-4000-8000-000000000000", false, actor)).toMatchObject({
      notFound: true,
    });
  });

  it("keeps a used code as it is, and its limit at or above the uses that count", async () => {
    const { db } = database();
    const actor = await staff();
    const voucher = await createTestVoucher(db, { code: "USEDONE", maxUses: 10 });
    await createTestVoucher(db, { code: "OTHERONE" });
    await recordTestUse(db, { voucherId: voucher.id, units: 3 });
    expect(await updateVoucher(db, voucher.id, single("RENAMED", { maxUses: 10 }), actor)).toEqual({
      ok: false,
      field: "code",
      message: "This code has been used, so it stays as it is",
    });
    expect(await updateVoucher(db, voucher.id, single("USEDONE", { maxUses: 2 }), actor)).toEqual({
      ok: false,
      field: "maxUses",
      message: "3 items have used this code: the limit cannot be lower",
    });
    expect(await updateVoucher(db, voucher.id, single("USEDONE", { maxUses: 3, value: 20 }), actor)).toMatchObject({
      ok: true,
    });
    const fresh = await createTestVoucher(db, { code: "FRESHONE" });
    expect(await updateVoucher(db, fresh.id, single("OTHERONE"), actor)).toEqual({
      ok: false,
      field: "code",
      message: "That code is already in use",
    });
    expect(await updateVoucher(db, "00000000-0000-4000-8000-000000000000", single("NOBODY"), actor)).toMatchObject({
      notFound: true,
    });
  });
});

describe("listVouchers", () => {
  it("counts each code's uses as checkout does, a batch as one row, newest first, searched by code or label", async () => {
    const { db } = database();
    const actor = await staff();
    const tier = await createTestTier(db, { name: "Junior" });
    const older = await createTestVoucher(db, {
      code: "LISTOLD",
      label: "Zulu spring offer",
      tierIds: [tier.id],
      maxUses: 10,
      createdAt: new Date(NOW.getTime() - 3 * HOUR),
    });
    await recordTestUse(db, { voucherId: older.id, units: 2 });
    await recordTestUse(db, {
      voucherId: older.id,
      units: 1,
      status: "pending",
      holdExpiresAt: new Date(NOW.getTime() + HOUR),
    });
    await recordTestUse(db, {
      voucherId: older.id,
      units: 4,
      status: "pending",
      holdExpiresAt: new Date(NOW.getTime() - HOUR),
    });
    await recordTestUse(db, { voucherId: older.id, units: 5, status: "cancelled" });
    await recordTestUse(db, { voucherId: older.id, units: 1, status: "refunded" });
    await recordTestUse(db, { voucherId: older.id, units: 1, status: "partly_refunded" });
    const batch = await createVouchers(
      db,
      { code: null, count: 3, terms: terms({ label: "Zulu crew batch", maxUses: 2, kinds: ["merch", "membership"] }) },
      { ...actor, now: new Date(NOW.getTime() - HOUR) },
    );
    if (!batch.ok || batch.batchId === null) throw new Error("Expected a batch");
    const batchRows = await db.select().from(vouchers).where(eq(vouchers.batchId, batch.batchId));
    await recordTestUse(db, { voucherId: batchRows[0]!.id, units: 2 });
    await recordTestUse(db, { voucherId: batchRows[1]!.id, units: 1 });
    await setVoucherActive(db, batchRows[2]!.id, false, actor);

    // The file's other tests made codes too: the two made here share a word in their labels.
    const list = await listVouchers(db, { q: "zulu", page: 1, now: NOW });
    expect(list.total).toBe(2);
    expect(list.rows.map((row) => row.label)).toEqual(["Zulu crew batch", "Zulu spring offer"]);
    expect(list.rows[0]).toMatchObject({
      batchId: batch.batchId,
      codes: 3,
      activeCodes: 2,
      used: 3,
      maxUses: 6,
      appliesTo: ["Merch", "Memberships"],
      state: "active",
    });
    // Paid, partly refunded and still-held orders count; expired, cancelled and refunded ones gave theirs back.
    expect(list.rows[1]).toMatchObject({
      code: "LISTOLD",
      batchId: null,
      used: 4,
      maxUses: 10,
      appliesTo: ["Junior membership"],
    });
    expect((await readVoucherUses(db, older.id, { now: NOW })).all).toBe(4);

    const byCode = await listVouchers(db, { q: "list-old", page: 1, now: NOW });
    expect(byCode.rows.map((row) => row.code)).toEqual(["LISTOLD"]);
    const oneOfBatch = await listVouchers(db, { q: batchRows[1]!.code.toLowerCase(), page: 1, now: NOW });
    expect(oneOfBatch.rows).toMatchObject([{ batchId: batch.batchId, codes: 3 }]);
    const byLabel = await listVouchers(db, { q: "SPRING off", page: 1, now: NOW });
    expect(byLabel.rows.map((row) => row.code)).toEqual(["LISTOLD"]);

    const opened = await listVouchers(db, { q: "", batchId: batch.batchId, page: 1, now: NOW });
    expect(opened.total).toBe(3);
    expect(opened.rows.every((row) => row.batchId === null && row.codes === 1)).toBe(true);
    expect(opened.rows.map((row) => row.used).sort()).toEqual([0, 1, 2]);
    expect(opened.rows.find((row) => row.used === 2)?.state).toBe("used_up");
    expect(opened.rows.find((row) => row.code === batchRows[2]!.code)?.state).toBe("off");
  });

  it("names what each code applies to, and offers hidden ticket types marked, and past targets a code names", async () => {
    const { db } = database();
    const past = await createTestEvent(db, {
      title: "Last year's meet",
      startsAt: new Date("2026-06-12T09:00:00Z"),
      endsAt: new Date("2026-06-12T17:00:00Z"),
      types: [{ name: "Old day" }],
    });
    const next = await createTestEvent(db, {
      title: "Summer meet",
      types: [{ name: "Day" }, { name: "Crew", hidden: true }],
    });
    const voucher = await createTestVoucher(db, {
      code: "NAMED1",
      eventIds: [next.eventId],
      ticketTypeIds: [past.typeIds[0]!],
    });
    const found = await voucherForStaff(db, voucher.id, NOW);
    expect(found?.appliesTo).toEqual(["Tickets for Summer meet", "Old day tickets (Last year's meet)"]);
    expect(found).toMatchObject({ used: 0, everUsed: false, batch: null });

    const offered = await voucherTargetOptions(db, { now: NOW });
    expect(offered.events.map((event) => event.label)).toContain("Summer meet, Sat 12 – Sun 13 June 2027");
    expect(offered.events.map((event) => event.value)).not.toContain(past.eventId);
    expect(
      offered.ticketTypes.find((group) => group.event === "Summer meet")?.options.map((option) => option.label),
    ).toEqual(["Day", "Crew (hidden)"]);
    const editing = await voucherTargetOptions(db, { now: NOW, chosen: voucher });
    expect(editing.ticketTypes.find((group) => group.event === "Last year's meet")?.options).toEqual([
      { value: past.typeIds[0], label: "Old day" },
    ]);
  });
});
