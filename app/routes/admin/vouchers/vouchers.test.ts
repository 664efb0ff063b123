import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestEvent } from "~/features/checkout/stock.test-support";
import { createTestVoucher, recordTestUse } from "~/features/vouchers/vouchers.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { TestRole } from "~/server/session-user.test-support";
import { answerOf, type FormFields, fieldErrors, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { auditLog, vouchers } from "../../../../db/schema";
import * as csvRoute from "./batch-csv";
import * as listRoute from "./list";
import * as newRoute from "./new";
import * as voucherRoute from "./voucher";

// The staff voucher pages called as React Router calls them: who may open and post each, and what
// the forms answer, bad submissions included (a 400 with the message on its field, never a 500).
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "admin-vouchers" });

const get = (who: TestRole | null, path: string, params: Record<string, string> = {}) =>
  site.args(who, { path, params });
const post = (who: TestRole | null, path: string, body: FormFields, params: Record<string, string> = {}) =>
  site.args(who, { path, body, params });

const CODE_FORM: FormFields = { mode: "single", code: "", effect: "percent_off", percent: "10", active: "on" };

async function voucherByCode(code: string) {
  const [row] = await database().db.select().from(vouchers).where(eq(vouchers.code, code));
  return row;
}

describe("who may use the voucher pages", () => {
  it("sends visitors to sign in, gives members the 403 page, and lets organizers and admins in", async () => {
    const { db } = database();
    const batchId = "7d2c3a1e-5b4f-4c6d-8e9f-0a1b2c3d4e5f";
    const voucher = await createTestVoucher(db, { code: "GUARDED1", batchId, label: "Guarded batch" });
    const pages: {
      module: typeof listRoute | typeof newRoute | typeof voucherRoute | typeof csvRoute;
      path: string;
      params: Record<string, string>;
    }[] = [
      { module: listRoute, path: "/admin/vouchers", params: {} },
      { module: listRoute, path: `/admin/vouchers?batch=${batchId}`, params: {} },
      { module: newRoute, path: "/admin/vouchers/new", params: {} },
      { module: voucherRoute, path: `/admin/vouchers/${voucher.id}`, params: { voucherId: voucher.id } },
      { module: csvRoute, path: `/admin/vouchers/batches/${batchId}/codes.csv`, params: { batchId } },
    ];
    for (const { module, path, params } of pages) {
      expect(await statusOf(() => module.loader(get(null, path, params))), path).toMatch(/^302 \/login\?redirectTo=/);
      expect(await statusOf(() => module.loader(get("member", path, params))), path).toBe(403);
      for (const who of ["organizer", "admin"] as const) {
        expect(await statusOf(() => module.loader(get(who, path, params))), `${path} as ${who}`).toMatch(
          /^(ok|200 null)$/,
        );
      }
    }

    const forms: {
      module: typeof newRoute | typeof voucherRoute;
      path: string;
      params: Record<string, string>;
      body: (who: string) => FormFields;
    }[] = [
      {
        module: newRoute,
        path: "/admin/vouchers/new",
        params: {},
        body: (who: string) => ({ ...CODE_FORM, code: `NEW${who}` }),
      },
      {
        module: voucherRoute,
        path: `/admin/vouchers/${voucher.id}`,
        params: { voucherId: voucher.id },
        body: () => ({ intent: "switch-off" }),
      },
    ];
    for (const { module, path, params, body } of forms) {
      expect(await statusOf(() => module.action(post(null, path, body("visitor"), params))), path).toMatch(
        /^302 \/login\?redirectTo=/,
      );
      expect(await statusOf(() => module.action(post("member", path, body("member"), params))), path).toBe(403);
      for (const who of ["organizer", "admin"] as const) {
        expect(await statusOf(() => module.action(post(who, path, body(who), params))), `${path} as ${who}`).toMatch(
          /^302 \/admin\/vouchers/,
        );
      }
    }
    expect(await voucherByCode("NEWMEMBER")).toBeUndefined();
    expect(await voucherByCode("NEWVISITOR")).toBeUndefined();
    expect(await voucherByCode("NEWADMIN")).toMatchObject({ effect: "percent_off", value: 10 });
  });
});

describe("/admin/vouchers/new", () => {
  it("makes one code or a batch, and answers a code in use or a bad hold with the message on its field", async () => {
    const { db } = database();
    const event = await createTestEvent(db, {
      title: "Voucher meet",
      types: [{ name: "Paddock" }, { name: "Crew", hidden: true }],
    });
    const page = await answerOf(() => newRoute.loader(get("organizer", "/admin/vouchers/new?mode=batch")));
    expect(page.data).toMatchObject({ batch: true, values: { mode: "batch" } });
    const groups = (page.data!.options as { ticketTypes: { event: string; options: { label: string }[] }[] })
      .ticketTypes;
    expect(groups.find((group) => group.event === "Voucher meet")?.options.map((option) => option.label)).toEqual([
      "Paddock",
      "Crew (hidden)",
    ]);

    const made = await answerOf(() =>
      newRoute.action(
        post("organizer", "/admin/vouchers/new", {
          ...CODE_FORM,
          code: "summer-25",
          effect: "amount_off",
          amount: "5",
          ticketTypeIds: [event.typeIds[0]!],
          maxUses: "40",
          validUntil: "2027-07-01T18:00",
        }),
      ),
    );
    expect(made).toMatchObject({ status: 302, location: "/admin/vouchers" });
    expect(await voucherByCode("SUMMER25")).toMatchObject({
      effect: "amount_off",
      value: 500,
      ticketTypeIds: [event.typeIds[0]],
      maxUses: 40,
      validUntil: new Date("2027-07-01T17:00:00Z"),
    });

    const again = await newRoute.action(post("organizer", "/admin/vouchers/new", { ...CODE_FORM, code: "Summer 25" }));
    expect(fieldErrors(again)).toEqual({ code: "That code is already in use" });
    const holding = await newRoute.action(
      post("organizer", "/admin/vouchers/new", { ...CODE_FORM, code: "HOLDME", holdsPlaces: "on", maxUses: "5" }),
    );
    expect(fieldErrors(holding)).toEqual({ holdsPlaces: "Keeping places needs exactly one ticket type" });
    const unlimited = await newRoute.action(
      post("organizer", "/admin/vouchers/new", {
        ...CODE_FORM,
        code: "HOLDME",
        holdsPlaces: "on",
        ticketTypeIds: [event.typeIds[1]!],
      }),
    );
    expect(fieldErrors(unlimited)).toEqual({
      holdsPlaces: "Keeping places needs the most uses in all: that many places are kept",
    });

    const batch = await answerOf(() =>
      newRoute.action(
        post("organizer", "/admin/vouchers/new", { ...CODE_FORM, mode: "batch", count: "12", label: "Marshals 2027" }),
      ),
    );
    expect(batch.status).toBe(302);
    const batchId = new URL(batch.location!, "http://localhost").searchParams.get("batch")!;
    const codes = await db.select().from(vouchers).where(eq(vouchers.batchId, batchId));
    expect(codes).toHaveLength(12);

    const opened = await answerOf(() => listRoute.loader(get("organizer", `/admin/vouchers?batch=${batchId}`)));
    expect(opened.data).toMatchObject({ total: 12, batch: { id: batchId, label: "Marshals 2027", codes: 12 } });
    await recordTestUse(db, { voucherId: codes[0]!.id, units: 2 });
    const csv = await answerOf(() =>
      csvRoute.loader(get("admin", `/admin/vouchers/batches/${batchId}/codes.csv`, { batchId })),
    );
    expect(csv.headers?.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers?.get("Content-Disposition")).toBe('attachment; filename="marshals-2027-codes.csv"');
    const lines = csv.text!.trim().split("\r\n");
    expect(lines[0]).toBe("Code,Label,Effect,Used,Most uses,Most per member,Valid from,Valid until,Active");
    expect(lines).toHaveLength(13);
    expect(lines).toContain(`${codes[0]!.code},Marshals 2027,10% off,2,No limit,No limit,,,Yes`);
    const missing = "00000000-0000-4000-8000-000000000000";
    expect(await statusOf(() => csvRoute.loader(get("admin", "/x", { batchId: missing })))).toBe(404);
    expect(await statusOf(() => csvRoute.loader(get("admin", "/x", { batchId: "nope" })))).toBe(404);
    expect(await statusOf(() => listRoute.loader(get("admin", `/admin/vouchers?batch=${missing}`)))).toBe(404);
  });
});

describe("/admin/vouchers and a code's page", () => {
  it("lists codes with their uses, saves a code's terms, switches it off and on, audited", async () => {
    const { db } = database();
    const voucher = await createTestVoucher(db, { code: "PAGE10", label: "Page code", maxUses: 5 });
    await recordTestUse(db, { voucherId: voucher.id, units: 2 });
    const list = await answerOf(() => listRoute.loader(get("organizer", "/admin/vouchers?q=page10")));
    expect(list.data!.rows).toMatchObject([
      { code: "PAGE10", used: 2, maxUses: 5, effectLabel: "10% off", appliesTo: ["Everything"], window: "Any time" },
    ]);

    const path = `/admin/vouchers/${voucher.id}`;
    const params = { voucherId: voucher.id };
    const page = await answerOf(() => voucherRoute.loader(get("organizer", path, params)));
    expect(page.data).toMatchObject({
      code: "PAGE10",
      everUsed: true,
      uses: "2 of 5 used",
      values: { code: "PAGE10", percent: "10", maxUses: "5", active: "on" },
    });

    const form = { intent: "save", code: "PAGE10", effect: "percent_off", percent: "20", maxUses: "6", active: "on" };
    expect(await answerOf(() => voucherRoute.action(post("organizer", path, form, params)))).toMatchObject({
      status: 302,
      location: path,
    });
    expect(await voucherByCode("PAGE10")).toMatchObject({ value: 20, maxUses: 6 });
    const renamed = await voucherRoute.action(post("organizer", path, { ...form, code: "PAGE20" }, params));
    expect(fieldErrors(renamed)).toEqual({ code: "This code has been used, so it stays as it is" });
    const lowered = await voucherRoute.action(post("organizer", path, { ...form, maxUses: "1" }, params));
    expect(fieldErrors(lowered)).toEqual({ maxUses: "2 items have used this code: the limit cannot be lower" });

    await voucherRoute.action(post("admin", path, { intent: "switch-off" }, params));
    expect((await voucherByCode("PAGE10"))?.active).toBe(false);
    await voucherRoute.action(post("admin", path, { intent: "switch-on" }, params));
    expect((await voucherByCode("PAGE10"))?.active).toBe(true);
    const audit = await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.subjectId, voucher.id));
    expect(audit.map((entry) => entry.action).sort()).toEqual([
      "voucher.switch_off",
      "voucher.switch_on",
      "voucher.update",
    ]);

    expect(await statusOf(() => voucherRoute.action(post("organizer", path, { intent: "delete" }, params)))).toBe(400);
    const missing = { voucherId: "00000000-0000-4000-8000-000000000000" };
    expect(await statusOf(() => voucherRoute.loader(get("organizer", "/admin/vouchers/x", missing)))).toBe(404);
    expect(await statusOf(() => voucherRoute.loader(get("organizer", "/admin/vouchers/x", { voucherId: "x" })))).toBe(
      404,
    );
    expect(
      await statusOf(() =>
        voucherRoute.action(post("organizer", "/admin/vouchers/x", { intent: "switch-off" }, missing)),
      ),
    ).toBe(404);
  });
});
