import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutFor, paidInFull } from "~/features/checkout/stock.test-support";
import { orderEmail } from "~/features/orders/order-email.server";
import { orderForBuyer } from "~/features/orders/order-views.server";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { MailTransport, OutboundEmail } from "~/server/mail/mail.server";
import { EMAIL_CLAIM_MS } from "~/server/mail/sent-once.server";
import { downMailServer, slowMailServer } from "~/server/mail/transports.test-support";
import { auditLog, drawEntries, drawResultEmails, draws, outboundMessages, users } from "../../../db/schema";
import { drawPage, listDraws, publishedRecord } from "./catalogue.server";
import { closeDraw, drawWinner, publishDraw, recordBeacon } from "./closing.server";
import { maskedName } from "./draw-rules";
import { createEntrants, createTestDraw, DRAW_NOW, fillEntryCart, postalEntry } from "./draws.test-support";
import { instantWinCommitment, verifyDraw } from "./fairness";
import { claimPrize, prizeClaimFor, sendDrawResults } from "./results.server";

const database = freshDatabasePerFile();
const minutes = (n: number) => new Date(DRAW_NOW.getTime() + n * 60_000);
const ENV = { SITE_NAME: "Pitlane", SITE_URL: "https://club.example", CURRENCY: "GBP" };

function recordingMail() {
  const sent: OutboundEmail[] = [];
  const mail: MailTransport = {
    name: "mailbox",
    async send(email) {
      sent.push(email);
      return {};
    },
  };
  return { sent, mail };
}

/** A member buys `entries` entries (one line) with `answer`, paid at once. */
async function buyEntries(member: { id: string; email: string }, drawId: string, entries: number, answer = 1) {
  const { db } = database();
  const cartId = await fillEntryCart(db, member.id, [{ drawId, entriesPerUnit: 1, quantity: entries, answer }]);
  const checkout = await startCheckout(db, checkoutFor(member, cartId, minutes(1)));
  if (!checkout.ok) throw new Error(`checkout refused: ${JSON.stringify(checkout)}`);
  await settleOrder(db, paidInFull(checkout.order, minutes(2)));
  return checkout.order.id;
}

async function numbersOf(orderId: string) {
  const rows = await database()
    .db.select({ number: drawEntries.number })
    .from(drawEntries)
    .where(eq(drawEntries.orderId, orderId));
  return rows.map((row) => row.number).sort((a, b) => a - b);
}

/** A draft with every number from 1 to `total` an instant win, so any paid entry wins one. */
async function instantDraft(total: number) {
  const { db } = database();
  return createTestDraw(db, {
    status: "draft",
    seed: null,
    commitment: null,
    publishedAt: null,
    totalEntries: total,
    maxPerMember: total,
    instantWins: Array.from({ length: total }, (_, i) => ({ number: i + 1, prize: `£${i + 1} fuel card` })),
  });
}

describe("instant wins", () => {
  it("commits to the list at go-live and refuses a list with a number outside the draw", async () => {
    const { db } = database();
    const bad = await createTestDraw(db, {
      status: "draft",
      totalEntries: 10,
      instantWins: [{ number: 11, prize: "A cap" }],
    });
    expect(await publishDraw(db, { drawId: bad.id, actorId: null, now: DRAW_NOW })).toEqual({
      ok: false,
      problem: "Instant-win entry numbers must be between 1 and 10.",
    });

    const draft = await instantDraft(5);
    expect(await publishDraw(db, { drawId: draft.id, actorId: null, now: DRAW_NOW })).toEqual({ ok: true });
    const [row] = await db.select().from(draws).where(eq(draws.id, draft.id));
    expect(row!.instantSalt).toMatch(/^[0-9a-f]{32}$/);
    expect(row!.instantCommitment).toBe(await instantWinCommitment(row!.instantWins, row!.instantSalt!));

    // Before close the page shows how many and the commitment, never the list or the salt.
    const live = await drawPage(db, draft.slug, DRAW_NOW);
    expect(live!.instantWins).toEqual({ count: 5, commitment: row!.instantCommitment, salt: null, revealed: null });
  });

  it("tells a buyer with the right answer of their win on the order, in the email and in the audit log", async () => {
    const { db } = database();
    const draft = await instantDraft(6);
    await publishDraw(db, { drawId: draft.id, actorId: null, now: DRAW_NOW });
    const [right, wrong] = await createEntrants(db, 2);

    const orderId = await buyEntries(right!, draft.id, 2, 1);
    const numbers = await numbersOf(orderId);
    const view = await orderForBuyer(db, { orderId, userId: right!.id, secret: "s".repeat(32), siteTimeZone: "UTC" });
    expect(view!.entries[0]!.instantWins).toEqual(numbers.map((n) => ({ number: n, prize: `£${n} fuel card` })));
    const email = await orderEmail({ siteName: "Pitlane", siteUrl: "https://club.example" }, view!);
    expect(email.subject).toMatch(/^You have an instant win/);
    expect(email.text).toContain(`INSTANT WIN: entry ${numbers[0]} wins £${numbers[0]} fuel card.`);
    const audited = await db.select().from(auditLog).where(eq(auditLog.action, "draw.instant_win"));
    expect(audited.map((row) => (row.details as { number: number }).number).sort()).toEqual(numbers);

    // A wrong answer never wins, and nothing on the order gives the answer away before close.
    const wrongOrder = await buyEntries(wrong!, draft.id, 1, 0);
    const wrongView = await orderForBuyer(db, {
      orderId: wrongOrder,
      userId: wrong!.id,
      secret: "s".repeat(32),
      siteTimeZone: "UTC",
    });
    expect(wrongView!.entries[0]!.instantWins).toEqual([]);
    expect(wrongView!.entries[0]!.numbers).toHaveLength(1);
  });

  it("reveals the list and salt after close, and the published record verifies", async () => {
    const { db } = database();
    const draft = await instantDraft(4);
    await publishDraw(db, { drawId: draft.id, actorId: null, now: DRAW_NOW });
    const [member] = await createEntrants(db, 1);
    const orderId = await buyEntries(member!, draft.id, 1);
    const [won] = await numbersOf(orderId);
    await db
      .update(draws)
      .set({ closesAt: minutes(3) })
      .where(eq(draws.id, draft.id));
    await closeDraw(db, { drawId: draft.id, actorId: null, now: minutes(4) });
    await recordBeacon(db, { drawId: draft.id, value: "beacon-1", actorId: null, now: minutes(5) });
    await drawWinner(db, { drawId: draft.id, actorId: null, now: minutes(6) });

    const page = await drawPage(db, draft.slug, minutes(7));
    expect(page!.instantWins!.salt).toMatch(/^[0-9a-f]{32}$/);
    // The masked name alone: the member has not chosen to show their town.
    expect(page!.instantWins!.revealed!.find((win) => win.number === won)!.winner).toMatch(/^Entrant \d+\.$/);
    expect(page!.instantWins!.revealed!.filter((win) => win.winner === null)).toHaveLength(3);
    await db.update(users).set({ townPublic: true }).where(eq(users.id, member!.id));
    const shown = await drawPage(db, draft.slug, minutes(7));
    expect(shown!.instantWins!.revealed!.find((win) => win.number === won)!.winner).toMatch(
      /^Entrant \d+\., Testbury$/,
    );

    const record = await publishedRecord(db, draft.slug);
    const verified = await verifyDraw(record!);
    expect(verified.checks.instantWins).toBe("passed");
    expect(verified.ok).toBe(true);
    const tampered = await verifyDraw({
      ...record!,
      instantWins: { ...record!.instantWins!, wins: [{ number: 1, prize: "A car" }] },
    });
    expect(tampered.checks.instantWins).toBe("failed");
    expect(tampered.ok).toBe(false);
  });
});

/** A live draw with paid entrants and a postal entry, closed and drawn. */
async function drawnDraw(input: Parameters<typeof createTestDraw>[1] = {}) {
  const { db } = database();
  const draw = await createTestDraw(db, { totalEntries: 20, maxPerMember: 20, ...input });
  const [staff, ...members] = await createEntrants(db, 4);
  for (const member of members) await buyEntries(member, draw.id, 2);
  await postalEntry(db, { drawId: draw.id, name: "Pat Postal", actorId: staff!.id, at: minutes(2) });
  await db
    .update(draws)
    .set({ closesAt: minutes(3) })
    .where(eq(draws.id, draw.id));
  await closeDraw(db, { drawId: draw.id, actorId: null, now: minutes(4) });
  await recordBeacon(db, { drawId: draw.id, value: "drand round 1000: 7c1f", actorId: null, now: minutes(5) });
  const result = await drawWinner(db, { drawId: draw.id, actorId: null, now: minutes(6) });
  if (!result.ok) throw new Error(result.problem);
  return { draw, members, winner: result.winner!, winnerUserId: result.userId };
}

describe("result emails", () => {
  it("emails every member who entered once, the winner differently, and never twice", async () => {
    const { db } = database();
    const { draw, members, winner, winnerUserId } = await drawnDraw();
    const { sent, mail } = recordingMail();
    expect(await sendDrawResults({ db, mail, env: ENV }, draw.id)).toEqual({ sent: 3, remaining: 0 });
    expect(sent.map((email) => email.to).sort()).toEqual(members.map((member) => member.email).sort());
    const winners = sent.filter((email) => email.subject.startsWith("You won"));
    if (winnerUserId) {
      const winnerEmail = members.find((member) => member.id === winnerUserId)!.email;
      expect(winners.map((email) => email.to)).toEqual([winnerEmail]);
      expect(winners[0]!.text).toContain(`Your entry ${winner} was drawn as the winner`);
      expect(winners[0]!.text).toContain("cash alternative of £400.00");
    } else {
      expect(winners).toEqual([]); // the postal entry won: nobody to email
    }
    for (const email of sent.filter((email) => !email.subject.startsWith("You won"))) {
      expect(email.subject).toBe(`The result of ${draw.title}`);
      expect(email.text).toContain(`the winning entry is ${winner}`);
      expect(email.text).toContain(`https://club.example/giveaways/${draw.slug}/verify`);
    }

    // Asked again (the close job asks every minute for two days), and concurrently: nothing more.
    const again = await Promise.all([
      sendDrawResults({ db, mail, env: ENV }, draw.id),
      sendDrawResults({ db, mail, env: ENV }, draw.id),
    ]);
    expect(again.map((run) => run.sent)).toEqual([0, 0]);
    expect(sent).toHaveLength(3);
  });

  it("holds no lock while the mail server answers: a run beside it skips that entrant at once", async () => {
    const { db } = database();
    const { draw, members } = await drawnDraw();
    const slow = slowMailServer();
    const first = sendDrawResults({ db, mail: slow.mail, env: ENV }, draw.id);
    await expect
      .poll(() => db.select().from(drawResultEmails).where(eq(drawResultEmails.drawId, draw.id)))
      .toMatchObject([{ claimedAt: expect.any(Date), sentAt: null, messageId: null }]);
    // The claim is committed, not a row lock: a second run is not kept waiting by the slow send,
    // and emails everyone else but the entrant whose email is on its way.
    const { sent, mail } = recordingMail();
    expect(await sendDrawResults({ db, mail, env: ENV }, draw.id)).toEqual({ sent: members.length - 1, remaining: 0 });
    expect(sent.map((email) => email.to)).not.toContain(slow.to[0]);
    slow.answer();
    expect(await first).toEqual({ sent: 1, remaining: 0 });
    const rows = await db.select().from(drawResultEmails).where(eq(drawResultEmails.drawId, draw.id));
    expect(rows).toHaveLength(members.length);
    expect(rows.every((row) => row.sentAt && row.messageId)).toBe(true);
    const [record] = await db
      .select()
      .from(outboundMessages)
      .where(and(eq(outboundMessages.to, slow.to[0]!), eq(outboundMessages.transport, "smtp")));
    expect(record).toMatchObject({ providerId: "<slow@smtp>", text: null });
  });

  it("leaves an entrant's claim free when the send fails, and a later run sends it", async () => {
    const { db } = database();
    const { draw, members } = await drawnDraw();
    await expect(sendDrawResults({ db, mail: downMailServer, env: ENV }, draw.id)).rejects.toThrow("down");
    expect(await db.select().from(drawResultEmails).where(eq(drawResultEmails.drawId, draw.id))).toEqual([]);
    const { sent, mail } = recordingMail();
    expect(await sendDrawResults({ db, mail, env: ENV }, draw.id)).toEqual({ sent: members.length, remaining: 0 });
    expect(sent).toHaveLength(members.length);
  });

  it("takes over a claim its server never recorded once it lapses", async () => {
    const { db } = database();
    const { draw, members } = await drawnDraw();
    // A server claimed one entrant's email, then stopped before sending it.
    const stopped = members[0]!;
    await db
      .insert(drawResultEmails)
      .values({ drawId: draw.id, userId: stopped.id, claimedAt: new Date(Date.now() - 60_000), sentAt: null });
    const { sent, mail } = recordingMail();
    // Within the lapse it is taken for a send under way.
    expect(await sendDrawResults({ db, mail, env: ENV }, draw.id)).toEqual({ sent: members.length - 1, remaining: 0 });
    expect(sent.map((email) => email.to)).not.toContain(stopped.email);
    // Once it has lapsed, the next runs send it, once.
    await db
      .update(drawResultEmails)
      .set({ claimedAt: new Date(Date.now() - EMAIL_CLAIM_MS - 1_000) })
      .where(and(eq(drawResultEmails.drawId, draw.id), eq(drawResultEmails.userId, stopped.id)));
    const twice = await Promise.all([
      sendDrawResults({ db, mail, env: ENV }, draw.id),
      sendDrawResults({ db, mail, env: ENV }, draw.id),
    ]);
    expect(twice.map((run) => run.sent).sort()).toEqual([0, 1]);
    expect(sent.filter((email) => email.to === stopped.email)).toHaveLength(1);
  });

  it("sends nothing for a draw that is not drawn", async () => {
    const { db } = database();
    const draw = await createTestDraw(db);
    const { sent, mail } = recordingMail();
    expect(await sendDrawResults({ db, mail, env: ENV }, draw.id)).toEqual({ sent: 0, remaining: 0 });
    expect(sent).toEqual([]);
  });
});

describe("the winner named in public", () => {
  it("is the masked name, with the town only once the winner chose to show it, on the page, the list and in the emails", async () => {
    const { db } = database();
    // Retry a few draws until a member (not the postal entry) wins.
    let outcome = await drawnDraw();
    for (let i = 0; i < 5 && !outcome.winnerUserId; i++) outcome = await drawnDraw();
    const { draw, winner, winnerUserId } = outcome;
    expect(winnerUserId).not.toBeNull();
    const [member] = await db.select({ name: users.name }).from(users).where(eq(users.id, winnerUserId!));
    const masked = maskedName(member!.name); // "Entrant 7."
    // Closed last, so the list's ended draws show it first.
    await db
      .update(draws)
      .set({ closesAt: minutes(6) })
      .where(eq(draws.id, draw.id));
    const named = async () => ({
      page: (await drawPage(db, draw.slug, minutes(7)))!.winner!.name,
      tile: (await listDraws(db, minutes(7))).ended.find((tile) => tile.slug === draw.slug)?.winner,
    });

    expect(await named()).toEqual({ page: masked, tile: masked });
    const { sent, mail } = recordingMail();
    await sendDrawResults({ db, mail, env: ENV }, draw.id);
    const others = sent.filter((email) => !email.subject.startsWith("You won"));
    expect(others.length).toBeGreaterThan(0);
    for (const email of others) {
      expect(email.text).toContain(`the winning entry is ${winner} (${masked}).`);
      expect(email.text).not.toContain("Testbury");
    }

    await db.update(users).set({ townPublic: true }).where(eq(users.id, winnerUserId!));
    expect(await named()).toEqual({ page: `${masked}, Testbury`, tile: `${masked}, Testbury` });
  });
});

describe("claiming the prize or its cash alternative", () => {
  it("lets only the winner choose, once, and records it", async () => {
    const { db } = database();
    // Every paid entrant holds many numbers; retry a few draws until a member (not the postal entry) wins.
    let outcome = await drawnDraw();
    for (let i = 0; i < 5 && !outcome.winnerUserId; i++) outcome = await drawnDraw();
    const { draw, members, winnerUserId } = outcome;
    expect(winnerUserId).not.toBeNull();
    const loser = members.find((member) => member.id !== winnerUserId)!;

    expect(await prizeClaimFor(db, draw.id, loser.id)).toBeNull();
    expect(await claimPrize(db, { drawId: draw.id, userId: loser.id, choice: "cash", now: minutes(8) })).toEqual({
      ok: false,
      problem: "Only the winner of a drawn draw can claim its prize.",
    });
    expect(await prizeClaimFor(db, draw.id, winnerUserId!)).toEqual({
      prize: "A track day for two",
      cashAlternative: 40_000,
      choice: null,
    });
    expect(await claimPrize(db, { drawId: draw.id, userId: winnerUserId!, choice: "cash", now: minutes(8) })).toEqual({
      ok: true,
      choice: "cash",
    });
    const second = await claimPrize(db, { drawId: draw.id, userId: winnerUserId!, choice: "prize", now: minutes(9) });
    expect(second.ok).toBe(false);
    expect((await prizeClaimFor(db, draw.id, winnerUserId!))!.choice).toBe("cash");
    const audited = await db.select().from(auditLog).where(eq(auditLog.action, "draw.claim"));
    expect(audited).toHaveLength(1);
  });

  it("offers no choice when there is no cash alternative", async () => {
    const { db } = database();
    let outcome = await drawnDraw({ cashAlternative: null });
    for (let i = 0; i < 5 && !outcome.winnerUserId; i++) outcome = await drawnDraw({ cashAlternative: null });
    expect(await prizeClaimFor(database().db, outcome.draw.id, outcome.winnerUserId!)).toBeNull();
    const refused = await claimPrize(db, {
      drawId: outcome.draw.id,
      userId: outcome.winnerUserId!,
      choice: "cash",
      now: minutes(8),
    });
    expect(refused).toEqual({ ok: false, problem: "This prize has no alternative to choose." });
  });
});
