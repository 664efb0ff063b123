import { asc, eq, sql } from "drizzle-orm";
import type { CartRow, CheckoutProblem, ItemKind, NewOrderLine, OrderRow } from "~/features/commerce/item-kind";
import { buyerPrice } from "~/features/commerce/member-price";
import { LATE_SOLD_OUT_REASON } from "~/features/commerce/settle.server";
import { creditCardRefusal } from "~/features/play/credit-cards.server";
import { orderEntriesPlayProblem } from "~/features/play/order-play.server";
import { entryPlayProblem } from "~/features/play/play-settings.server";
import { countOf } from "~/ui/plural";
import { cartItems, drawEntries, orders } from "../../../db/schema";
import { entrantOf, entryCart } from "./cart-entries.server";
import { bundleFor, drawPhase, entrantProblem, entryLineProblem, picksProblem, takenProblem } from "./draw-rules";
import { allocateEntries, readDrawStock, takenNumbers, voidEntries } from "./entries.server";

export const DRAW_CLOSED_REASON = "The draw closed before the payment arrived";
const DRAW_LIMIT_REASON = "These entries would pass the draw's limit per person";
const DRAW_STAFF_REASON = "Staff run the club's prize draws, so they cannot enter them";

/**
 * A line of entries: so many bundles of one size for one draw, the answer to its question, and
 * any numbers the member chose.
 */
type EntryLine = {
  drawId: string;
  entriesPerUnit: number;
  answer: number;
  quantity: number;
  pickedNumbers: number[];
};

function entryLine(row: CartRow | OrderRow): EntryLine {
  const { drawId, answer } = row;
  if (!drawId || answer === null) throw new Error(`Line ${row.id} is an entry line without its draw or answer`);
  const { entriesPerUnit, quantity, pickedNumbers } = row;
  return { drawId, entriesPerUnit, answer, quantity, pickedNumbers };
}

function entriesOf(line: EntryLine) {
  return line.entriesPerUnit * line.quantity;
}

/**
 * Prize-draw entries: numbers limited per draw and per person (the draw's row is locked after the
 * ticket types), given to the buyer when paid, and voided on refund while the entry list is still
 * open. Entrants must be 18 or over, and the responsible-play rules (breaks, spending limits,
 * credit cards) apply to every order of entries (docs/responsible-play.md).
 */
export const entryKind: ItemKind = {
  name: "entry",
  unit: { one: "entry", other: "entries" },
  cart: entryCart,

  async checkout(tx, rows, { userId, currency, now, member, tierId }) {
    const lines = rows.map(entryLine);
    // The member's own unpaid order is replaced by this one, so its holds are not counted.
    const stock = await readDrawStock(
      tx,
      lines.map((line) => line.drawId),
      now,
      { lock: true, userId, exceptUserId: userId },
    );
    return {
      async check(tx) {
        const problems: CheckoutProblem[] = [];
        const checked: NewOrderLine[] = [];
        const entrant = await entrantOf(tx, userId);
        const pickedInOrder = new Map<string, number[]>();
        for (const line of lines) {
          const { drawId } = line;
          const draw = stock.draws.get(drawId);
          if (!draw) {
            problems.push({ code: "not_found", message: "A draw in your cart is no longer available", line: drawId });
            continue;
          }
          // Adding the entries to the cart needed the entrant's confirmation that they are 18 or over.
          const problem =
            entrantProblem(draw, { ...entrant, confirmedAdult: true }, now) ??
            entryLineProblem(draw, stock.counts(drawId), line, now);
          const bundle = bundleFor(draw, line.entriesPerUnit);
          if (problem || !bundle) {
            problems.push(
              problem
                ? { ...problem, line: drawId }
                : { code: "bundle", message: "That bundle is no longer offered", line: drawId },
            );
            continue;
          }
          // Chosen numbers: each once in the order, and nobody else's (given, or held by a buyer paying).
          const picks = line.pickedNumbers;
          const before = pickedInOrder.get(drawId) ?? [];
          const picksTrouble =
            picksProblem(draw, picks, entriesOf(line)) ??
            picksProblem(draw, [...before, ...picks], Number.POSITIVE_INFINITY) ??
            takenProblem(drawId, await takenNumbers(tx, drawId, picks, { now, exceptUserId: userId }));
          if (picksTrouble) {
            problems.push({ ...picksTrouble, line: drawId });
            continue;
          }
          pickedInOrder.set(drawId, [...before, ...picks]);
          stock.take(drawId, entriesOf(line));
          checked.push({
            values: {
              drawId,
              entriesPerUnit: line.entriesPerUnit,
              answer: line.answer,
              pickedNumbers: picks,
              description: `${draw.title} — ${countOf(line.entriesPerUnit, "entry", "entries")}`,
              // A member price changes only what the bundle costs: not the odds, nor the free route.
              unitPrice: buyerPrice(bundle, { member, tierId }),
              quantity: line.quantity,
            },
            hold: { drawId, quantity: entriesOf(line), pickedNumbers: picks },
          });
        }
        // Responsible play (docs/responsible-play.md): checked on what these entries cost now.
        const adding = checked.reduce((sum, line) => sum + line.values.unitPrice * line.values.quantity, 0);
        const play = await entryPlayProblem(tx, { userId, adding, now, currency });
        if (play) problems.push(play);
        return { lines: checked, problems };
      },
    };
  },

  async settle(tx, rows, { order, now }) {
    const lines = rows.map((row) => ({ ...entryLine(row), id: row.id }));
    // Other buyers' holds count against the draw; this order's own are left out and checked below.
    const stock = await readDrawStock(
      tx,
      lines.map((line) => line.drawId),
      now,
      { lock: true, userId: order.userId ?? undefined, exceptOrderId: order.id },
    );
    return {
      short(held) {
        const heldOf = (drawId: string) =>
          held.reduce((sum, hold) => (hold.drawId === drawId ? sum + hold.quantity : sum), 0);
        return lines.some((line) => heldOf(line.drawId) < entriesOf(line));
      },
      // The draw must still be open, and the caps hold under its lock, held or late.
      async refusal(tx, { cardFunding }) {
        // Someone made an organizer or admin since Pay holds no entries: staff run the draws.
        if (order.userId && (await entrantOf(tx, order.userId)).staff) {
          return { reason: `${DRAW_STAFF_REASON}. The payment is refunded`, outcome: "cancelled" };
        }
        const wanted = new Map<string, number>();
        for (const line of lines) wanted.set(line.drawId, (wanted.get(line.drawId) ?? 0) + entriesOf(line));
        for (const [drawId, entries] of wanted) {
          const draw = stock.draws.get(drawId);
          if (!draw || drawPhase(draw, now) !== "open") return { reason: DRAW_CLOSED_REASON, outcome: "cancelled" };
          const counts = stock.counts(drawId);
          if (counts.mine + entries > draw.maxPerMember) return { reason: DRAW_LIMIT_REASON, outcome: "cancelled" };
          if (counts.allocated + counts.held + entries > draw.totalEntries) {
            return { reason: LATE_SOLD_OUT_REASON, outcome: "expired" };
          }
        }
        // Responsible play holds when the money arrives too: a break begun or a limit lowered
        // since the order was made refuses the payment, which is refunded in full.
        const play = await orderEntriesPlayProblem(tx, {
          orderId: order.id,
          userId: order.userId,
          now,
        });
        if (play) return { reason: `${play.message}. The payment is refunded`, outcome: "cancelled" };
        // Credit cards and prize draws (docs/responsible-play.md): no instant wins, a monthly cap.
        if (cardFunding) {
          await tx.update(orders).set({ cardFunding }).where(eq(orders.id, order.id));
          if (cardFunding === "credit") {
            const refusal = await creditCardRefusal(tx, { orderId: order.id, userId: order.userId, now });
            if (refusal) return { reason: refusal, outcome: "cancelled" };
          }
        }
        return null;
      },
      async afterPaid(tx) {
        let issued = 0;
        for (const line of lines) {
          const draw = stock.draws.get(line.drawId);
          if (!draw) throw new Error(`Draw ${line.drawId} went away under its lock`);
          const numbers = await allocateEntries(tx, draw, {
            drawId: line.drawId,
            userId: order.userId,
            source: "paid",
            answer: line.answer,
            count: entriesOf(line),
            orderId: order.id,
            orderItemId: line.id,
            picks: line.pickedNumbers,
            now,
          });
          issued += numbers.length;
        }
        return { issued };
      },
    };
  },

  paid: {
    writes: () => [],
    boughtInCart: (value) => sql`${cartItems.drawId} = any(${value("bought")}::uuid[])`,
    values: (rows) => ({ bought: rows.map((row) => entryLine(row).drawId) }),
  },

  async refund(tx, rows, { now }) {
    const stock = await readDrawStock(
      tx,
      rows.map((row) => entryLine(row).drawId),
      now,
      { lock: true },
    );
    // Entries can be given back only while the entry list is open: once a draw closes, its list
    // is frozen and published, and voiding an entry would change it.
    const isOpen = (drawId: string) => {
      const status = stock.draws.get(drawId)?.status;
      return status === "live" || status === "cancelled";
    };
    return {
      async units(tx, orderId) {
        const valid = await tx
          .select({ id: drawEntries.id, orderItemId: drawEntries.orderItemId, status: drawEntries.status })
          .from(drawEntries)
          .where(eq(drawEntries.orderId, orderId))
          .orderBy(asc(drawEntries.number))
          .then((entries) => entries.filter((entry) => entry.status === "valid"));
        // A line's bundles: each is valid while all its entries are and the draw is open.
        return (row) => {
          const line = entryLine(row);
          const own = valid.filter((entry) => entry.orderItemId === row.id).map((entry) => entry.id);
          const units = [];
          for (let i = 0; i + line.entriesPerUnit <= own.length; i += line.entriesPerUnit) {
            units.push({ ids: own.slice(i, i + line.entriesPerUnit), status: isOpen(line.drawId) ? "valid" : "drawn" });
          }
          return units;
        };
      },
      // Entries of a draw still open are voided, and their places go back to the draw.
      async refund(tx, chosen, now) {
        const ids = chosen.flatMap((choice) => choice.units.flat());
        const voided = await voidEntries(tx, ids, now);
        if ([...voided.values()].reduce((sum, count) => sum + count, 0) !== ids.length) {
          throw new Error("Entries changed under the order lock");
        }
      },
    };
  },
};
