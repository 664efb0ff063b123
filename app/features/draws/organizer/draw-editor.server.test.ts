import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseWithZod } from "@conform-to/zod/v4";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { drawRefunder } from "~/features/checkout/draw-refunds.server";
import { checkoutFor, paidInFull } from "~/features/checkout/stock.test-support";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { localStorage } from "~/server/storage/storage.server";
import { auditLog, drawEntries, draws, orders } from "../../../../db/schema";
import { publishDraw } from "../closing.server";
import { createEntrants, createTestDraw, DRAW_NOW, fillEntryCart } from "../draws.test-support";
import { createDraw, updateDraw } from "./draw-editor.server";
import { goodDrawFields } from "./draw-form.test-support";
import { addDrawImage, describeDrawImage, moveDrawImage, removeDrawImage } from "./draw-images.server";
import { cancelDraw, closeDrawNow, recordPostalEntryFor } from "./draw-steps.server";
import { drawEntriesCsv } from "./entries-csv";
import { getDrawFormValues, listDrawEntries } from "./queries.server";
import { type DrawInput, drawFormSchema } from "./schemas";

const database = freshDatabasePerFile();
const minutes = (n: number) => new Date(DRAW_NOW.getTime() + n * 60_000);

function input(overrides: Record<string, string> = {}): DrawInput {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...goodDrawFields, ...overrides })) form.append(name, value);
  const submission = parseWithZod(form, { schema: drawFormSchema({ currency: "GBP", timeZone: "Europe/London" }) });
  if (submission.status !== "success") throw new Error(JSON.stringify(submission.error));
  return submission.value;
}

async function staff() {
  const [organizer] = await createEntrants(database().db, 1, { role: "organizer" });
  return organizer!.id;
}

async function drawRow(drawId: string) {
  const [row] = await database().db.select().from(draws).where(eq(draws.id, drawId));
  return row!;
}

/** A jobs queue that remembers what it was asked for. */
function recordingJobs() {
  const asked: string[] = [];
  return { asked, enqueue: async (job: { name: string }) => void asked.push(job.name) } as never as {
    asked: string[];
    enqueue: never;
  };
}

describe("creating and editing a draw", () => {
  it("creates a draft at a free address made from its title, audited", async () => {
    const actorId = await staff();
    const first = await createDraw(database().db, { actorId, draw: input({ title: "Win a Golf GTI" }), now: DRAW_NOW });
    const second = await createDraw(database().db, {
      actorId,
      draw: input({ title: "Win a Golf GTI" }),
      now: DRAW_NOW,
    });
    expect(first).toMatchObject({ ok: true, slug: "win-a-golf-gti" });
    expect(second).toMatchObject({ ok: true, slug: "win-a-golf-gti-2" });
    const row = await drawRow((first as { id: string }).id);
    expect(row).toMatchObject({
      status: "draft",
      price: 250,
      bundles: [
        { entries: 5, price: 1000 },
        { entries: 10, price: 1800 },
      ],
      instantWins: [
        { number: 17, prize: "£50 fuel card" },
        { number: 250, prize: "A set of floor mats" },
      ],
      commitment: null,
      createdBy: actorId,
    });
    const [audit] = await database().db.select().from(auditLog).where(eq(auditLog.subjectId, row.id));
    expect(audit?.action).toBe("draw.create");
    const taken = await createDraw(database().db, {
      actorId,
      draw: input({ slug: "win-a-golf-gti" }),
      now: DRAW_NOW,
    });
    expect(taken).toEqual({
      ok: false,
      field: "slug",
      message: "Another draw already uses this address. Try “win-a-golf-gti-3”.",
    });
  });

  it("edits a draft whole, but once live refuses its terms and takes only its words", async () => {
    const { db } = database();
    const actorId = await staff();
    const created = (await createDraw(db, {
      actorId,
      draw: input({ opensAt: "2027-04-01T09:00", closesAt: "2027-06-30T21:00" }),
      now: DRAW_NOW,
    })) as { id: string };
    const drawId = created.id;
    const saved = await updateDraw(db, {
      actorId,
      drawId,
      edit: { scope: "draft", draw: input({ price: "3", totalEntries: "4000", opensAt: "2027-04-01T09:00" }) },
      now: DRAW_NOW,
    });
    expect(saved).toMatchObject({ ok: true, changed: expect.arrayContaining(["price", "totalEntries"]) });
    expect(await publishDraw(db, { drawId, actorId, now: DRAW_NOW })).toEqual({ ok: true });

    const terms = await updateDraw(db, {
      actorId,
      drawId,
      edit: { scope: "draft", draw: input({ price: "0.50", opensAt: "2027-04-01T09:00" }) },
      now: DRAW_NOW,
    });
    expect(terms).toMatchObject({ ok: false, field: "", message: expect.stringContaining("This draw is live") });
    expect((await drawRow(drawId)).price).toBe(300);

    const words = await updateDraw(db, {
      actorId,
      drawId,
      edit: {
        scope: "wording",
        draw: { summary: "New words", description: "More", rules: "Rules", postalRoute: "PO Box 1" },
      },
      now: DRAW_NOW,
    });
    expect(words).toEqual({ ok: true, changed: ["summary", "description", "rules", "postalRoute"] });
    expect(await drawRow(drawId)).toMatchObject({ summary: "New words", postalRoute: "PO Box 1", price: 300 });
  });

  it("fixes a live draw's instant wins and shows staff only their commitment until the close", async () => {
    const { db } = database();
    const actorId = await staff();
    const created = (await createDraw(db, {
      actorId,
      draw: input({ opensAt: "2027-04-01T09:00" }),
      now: DRAW_NOW,
    })) as {
      id: string;
    };
    const drawId = created.id;
    expect((await getDrawFormValues(db, drawId, "Europe/London"))?.instantWins).toContain("17 £50 fuel card");
    expect(await publishDraw(db, { drawId, actorId, now: DRAW_NOW })).toEqual({ ok: true });

    const moved = await updateDraw(db, {
      actorId,
      drawId,
      edit: { scope: "draft", draw: input({ opensAt: "2027-04-01T09:00", instantWins: "18 £50 fuel card" }) },
      now: DRAW_NOW,
    });
    expect(moved).toMatchObject({ ok: false, message: expect.stringContaining("This draw is live") });
    expect((await drawRow(drawId)).instantWins.map((win) => win.number)).toEqual([17, 250]);

    const live = await getDrawFormValues(db, drawId, "Europe/London");
    expect(live?.instantWins).toBe("");
    expect(JSON.stringify(live)).not.toMatch(/fuel card|floor mats/);

    await db.update(draws).set({ status: "closed" }).where(eq(draws.id, drawId));
    expect((await getDrawFormValues(db, drawId, "Europe/London"))?.instantWins).toContain("17 £50 fuel card");
  });

  it("refuses any change to a drawn or cancelled draw, and answers a missing one as not found", async () => {
    const { db } = database();
    const actorId = await staff();
    const drawn = await createTestDraw(db, { status: "drawn" });
    const wording = { scope: "wording" as const, draw: { summary: "x", description: "", rules: "", postalRoute: "" } };
    expect(await updateDraw(db, { actorId, drawId: drawn.id, edit: wording, now: DRAW_NOW })).toMatchObject({
      ok: false,
      message: expect.stringContaining("drawn"),
    });
    expect(
      await updateDraw(db, { actorId, drawId: "00000000-0000-4000-8000-000000000000", edit: wording, now: DRAW_NOW }),
    ).toMatchObject({ notFound: true });
  });
});

describe("the prize gallery", () => {
  const storage = localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-draw-images-")));
  const photo = (color: string) =>
    sharp({ create: { width: 960, height: 540, channels: 3, background: color } })
      .jpeg()
      .toBuffer()
      .then((buffer) => new Uint8Array(buffer));

  it("adds, describes, reorders and removes photos of a draft; once live only descriptions change", async () => {
    const { db } = database();
    const actorId = await staff();
    const { id: drawId } = await createTestDraw(db, { status: "draft", seed: null, commitment: null });
    const red = await addDrawImage(db, storage, { actorId, drawId, image: await photo("#c00000"), alt: "Red" });
    const blue = await addDrawImage(db, storage, { actorId, drawId, image: await photo("#0000c0"), alt: "Blue" });
    expect(blue).toMatchObject({ ok: true, images: [{ alt: "Red" }, { alt: "Blue" }] });
    const [first, second] = (blue as { images: { hash: string }[] }).images;
    expect(await storage.get(`events/${first!.hash}-480.webp`)).not.toBeNull();
    expect(
      red.ok && (await addDrawImage(db, storage, { actorId, drawId, image: new Uint8Array([1, 2]), alt: "x" })),
    ).toMatchObject({ ok: false, field: "image" });
    expect(await moveDrawImage(db, { actorId, drawId, hash: second!.hash, by: -1 })).toMatchObject({
      images: [{ alt: "Blue" }, { alt: "Red" }],
    });
    expect(await removeDrawImage(db, { actorId, drawId, hash: first!.hash })).toMatchObject({
      images: [{ alt: "Blue" }],
    });

    await db.update(draws).set({ status: "live" }).where(eq(draws.id, drawId));
    expect(await removeDrawImage(db, { actorId, drawId, hash: second!.hash })).toMatchObject({
      ok: false,
      message: expect.stringContaining("This draw is live"),
    });
    expect(await describeDrawImage(db, { actorId, drawId, hash: second!.hash, alt: "The blue car" })).toMatchObject({
      ok: true,
      images: [{ alt: "The blue car" }],
    });
  });
});

describe("a draw's steps", () => {
  it("records postal entries, for a member by email within their limit, and lists them in the CSV", async () => {
    const { db } = database();
    const actorId = await staff();
    const draw = await createTestDraw(db, { maxPerMember: 1 });
    const [member] = await createEntrants(db, 1, { name: '=HYPERLINK("x")' });
    const entry = (email: string | null, answer = 1) => ({
      name: "Sam Hughes",
      address: "1 High St, Leeds",
      receivedAt: minutes(-60),
      answer,
      email,
    });
    const first = await recordPostalEntryFor(db, {
      drawId: draw.id,
      actorId,
      entry: entry(member!.email),
      now: DRAW_NOW,
    });
    expect(first).toMatchObject({ ok: true, numbers: [expect.any(Number)] });
    expect(
      await recordPostalEntryFor(db, { drawId: draw.id, actorId, entry: entry(member!.email), now: DRAW_NOW }),
    ).toMatchObject({ ok: false, problem: { code: "limit" } });
    expect(
      await recordPostalEntryFor(db, { drawId: draw.id, actorId, entry: entry("nobody@club.example"), now: DRAW_NOW }),
    ).toMatchObject({ ok: false, field: "email" });
    expect(
      await recordPostalEntryFor(db, { drawId: draw.id, actorId, entry: entry(null, 0), now: DRAW_NOW }),
    ).toMatchObject({
      ok: true,
    });

    const csv = drawEntriesCsv(
      (await listDrawEntries(db, draw.id)).map((row) => ({
        ...row,
        createdAt: row.createdAt.toISOString(),
        receivedAt: row.receivedAt?.toISOString() ?? null,
      })),
    );
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe("Number,Source,Name,Email,Postal address,Answer correct,Eligible,Status,Created,Received");
    expect(lines).toHaveLength(3);
    // A name that looks like a formula is defused.
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    expect(csv).toMatch(/,Postal,Sam Hughes,,"1 High St, Leeds",No,No,Valid,/);
  });

  it("closes only when due, with the undersold policy (no entries: the cash alternative)", async () => {
    const { db } = database();
    const actorId = await staff();
    const jobs = recordingJobs();
    const draw = await createTestDraw(db, { closesAt: minutes(10) });
    expect(await closeDrawNow(db, drawRefunder(jobs), { drawId: draw.id, actorId, now: DRAW_NOW })).toMatchObject({
      ok: false,
    });
    expect(await closeDrawNow(db, drawRefunder(jobs), { drawId: draw.id, actorId, now: minutes(11) })).toEqual({
      ok: true,
      outcome: "cash",
    });
    expect((await drawRow(draw.id)).listHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("cancels with a reason and refunds every paid entry, once; a drawn draw cannot be cancelled", async () => {
    const { db } = database();
    const actorId = await staff();
    const jobs = recordingJobs();
    const draw = await createTestDraw(db);
    const [member] = await createEntrants(db, 1);
    const cartId = await fillEntryCart(db, member!.id, [
      { drawId: draw.id, entriesPerUnit: 5, quantity: 1, answer: 1 },
    ]);
    const checkout = await startCheckout(db, checkoutFor(member!, cartId, minutes(1)));
    if (!checkout.ok) throw new Error("checkout failed");
    await settleOrder(db, paidInFull(checkout.order, minutes(2)));

    const cancelled = await cancelDraw(db, drawRefunder(jobs), {
      drawId: draw.id,
      actorId,
      reason: "The prize was damaged",
      now: minutes(3),
    });
    expect(cancelled).toEqual({ ok: true, refundedOrders: 1 });
    expect(jobs.asked).toEqual(["send-refunds"]);
    expect(await drawRow(draw.id)).toMatchObject({ status: "cancelled", cancelReason: "The prize was damaged" });
    const valid = await db
      .select({ id: drawEntries.id })
      .from(drawEntries)
      .where(and(eq(drawEntries.drawId, draw.id), eq(drawEntries.status, "valid")));
    expect(valid).toHaveLength(0);
    const [order] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, checkout.order.id));
    expect(order?.status).toBe("refunded");
    const audit = await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.subjectId, draw.id));
    expect(audit.map((row) => row.action)).toContain("draw.cancel");

    expect(
      await cancelDraw(db, drawRefunder(jobs), { drawId: draw.id, actorId, reason: "Again", now: minutes(4) }),
    ).toMatchObject({
      ok: false,
      message: "This draw is already cancelled.",
    });
    const drawn = await createTestDraw(db, { status: "drawn" });
    expect(
      await cancelDraw(db, drawRefunder(jobs), { drawId: drawn.id, actorId, reason: "No", now: minutes(4) }),
    ).toMatchObject({
      ok: false,
      message: "This draw has been drawn: its result stands.",
    });
  });

  it("refuses to cancel a draw whose entries have closed: only its undersold policy refunds it", async () => {
    const { db } = database();
    const actorId = await staff();
    const jobs = recordingJobs();
    const closed = await createTestDraw(db, { status: "closed", closesAt: minutes(-5), closedAt: minutes(-5) });
    const pastItsTime = await createTestDraw(db, { closesAt: minutes(-1) });
    for (const draw of [closed, pastItsTime]) {
      expect(
        await cancelDraw(db, drawRefunder(jobs), { drawId: draw.id, actorId, reason: "Too few", now: DRAW_NOW }),
      ).toMatchObject({
        ok: false,
        message: "Entries to this draw have closed, so it can no longer be cancelled: its undersold policy applies.",
      });
    }
    expect((await drawRow(closed.id)).status).toBe("closed");
    expect((await drawRow(pastItsTime.id)).status).toBe("live");
    expect(jobs.asked).toEqual([]);
  });
});
