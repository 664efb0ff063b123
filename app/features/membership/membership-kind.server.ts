import { eq, inArray, sql } from "drizzle-orm";
import type { CartRow, CheckoutProblem, ItemKind, NewOrderLine, OrderRow } from "~/features/commerce/item-kind";
import { cartItems, memberships } from "../../../db/schema";
import { membershipCart } from "./cart-membership.server";
import { membershipDate } from "./membership-labels";
import { hasBenefits, joiningPrice, joinProblem } from "./membership-rules";
import { extendMembership, issueMembership, membershipOf, statusOf } from "./memberships.server";
import { STRIPE_PENDING, TEST_CARD } from "./renewals.server";
import { placesLeft, readTierPlaces, termOf } from "./tier-places.server";

/** A membership line: joining one tier, naming the people a family tier covers besides the member. */
type MembershipLine = { tierId: string; people: string[] };

function membershipLine(row: CartRow | OrderRow): MembershipLine {
  if (!row.tierId) throw new Error(`Line ${row.id} is a membership without its tier`);
  if (row.quantity !== 1) throw new Error(`Line ${row.id} is a membership of ${row.quantity}`);
  return { tierId: row.tierId, people: row.attendeeNames };
}

export const TIER_FULL_REASON = "The payment arrived after the last place on the membership tier was taken";
export const ALREADY_MEMBER_REASON = "The member already held a membership when the payment arrived";
const ENDED_BEFORE_RENEWAL_REASON = "The membership had ended when its renewal was paid";

/**
 * A club membership (docs/membership.md): one place on a tier, held while the member pays (a tier
 * may cap its members; its row is locked after merch variants), issued as the member's
 * membership when paid, and stopped when refunded. A member holds one membership at a time.
 */
export const membershipKind: ItemKind = {
  name: "membership",
  unit: { one: "membership", other: "memberships" },
  cart: membershipCart,

  async checkout(tx, rows, { userId, now }) {
    const lines = rows.map(membershipLine);
    const places = await readTierPlaces(
      tx,
      lines.map((line) => line.tierId),
      now,
      { lock: true, exceptUserId: userId },
    );
    const own = await membershipOf(tx, userId);
    return {
      // On sale, a place left, not a member already, the people the tier names; one at a time.
      async check() {
        const problems: CheckoutProblem[] = [];
        const checked: NewOrderLine[] = [];
        for (const [index, { tierId, people }] of lines.entries()) {
          const tier = places.tiers.get(tierId);
          if (!tier) {
            problems.push({ code: "not_found", message: "A membership tier is no longer offered", line: tierId });
            continue;
          }
          const problem =
            index > 0
              ? { code: "one", message: "A member holds one membership at a time: keep one tier in your cart" }
              : joinProblem({
                  tier,
                  placesLeft: placesLeft(tier),
                  current: own ? statusOf(own.membership, now) : null,
                  people,
                  formatDate: (date) => membershipDate(date, tier.timeZone),
                });
          if (problem) {
            problems.push({ ...problem, line: tierId });
            continue;
          }
          places.take(tierId, 1);
          checked.push({
            values: {
              tierId,
              description: `${tier.name} membership`,
              unitPrice: joiningPrice(termOf(tier), tier.price, now, tier.timeZone),
              quantity: 1,
              attendeeNames: people,
            },
            hold: { tierId, quantity: 1 },
          });
        }
        return { lines: checked, problems };
      },
    };
  },

  async settle(tx, rows, { order, now, provider }) {
    const joining = rows.filter((row) => !row.renewsMembershipId).map(membershipLine);
    const renewals = rows.filter((row) => row.renewsMembershipId);
    // The tier's places are counted under this lock; this order's own live holds are counted in
    // `held` and given back in `short`, like ticket places. A renewal holds no place: the member
    // keeps theirs while the renewal is paid.
    const places = await readTierPlaces(
      tx,
      rows.map((row) => membershipLine(row).tierId),
      now,
      { lock: true },
    );
    return {
      short(held) {
        const short = joining.some((line) => !held.some((hold) => hold.tierId === line.tierId));
        for (const hold of held) if (hold.tierId) places.take(hold.tierId, -hold.quantity);
        return short;
      },
      // A late payment is honoured only if a place is still free; a member who meanwhile joined
      // by another order is not charged twice; a renewal is refused once its membership has ended.
      async refusal(tx, { late }) {
        for (const line of joining) {
          const tier = places.tiers.get(line.tierId);
          const left = tier ? placesLeft(tier) : 0;
          if (left !== null && left < 1 && late) return { reason: TIER_FULL_REASON, outcome: "expired" };
          places.take(line.tierId, 1);
        }
        if (!order.userId) return null;
        const own = await membershipOf(tx, order.userId, { lock: true });
        const status = own ? statusOf(own.membership, now) : null;
        const live = own !== null && status !== null && hasBenefits(status);
        if (joining.length > 0 && status?.state === "active" && own?.membership.orderId !== order.id) {
          return { reason: ALREADY_MEMBER_REASON, outcome: "cancelled" };
        }
        if (renewals.some((row) => !live || own?.membership.id !== row.renewsMembershipId)) {
          return { reason: ENDED_BEFORE_RENEWAL_REASON, outcome: "cancelled" };
        }
        return null;
      },
      async afterPaid(tx) {
        if (!order.userId) return { issued: 0 };
        let issued = 0;
        for (const row of rows) {
          const tier = places.tiers.get(membershipLine(row).tierId);
          if (!tier) continue;
          // What the member paid, after any voucher: a cooling-off refund is reckoned from it.
          const paidPence = row.unitPrice - row.discount / row.quantity;
          const paid = { tier, orderId: order.id, paidPence, paidAt: now };
          if (row.renewsMembershipId) await extendMembership(tx, { membershipId: row.renewsMembershipId, ...paid });
          else {
            // The test checkout's card is charged again for renewals by the membership clock; with
            // Stripe, the card the joining payment saved gets a Stripe Billing subscription, made
            // by the clock's next run (docs/membership.md).
            const paymentMethod = provider === "test" ? TEST_CARD : tier.autoRenews ? STRIPE_PENDING : null;
            await issueMembership(tx, { userId: order.userId, people: row.attendeeNames, paymentMethod, ...paid });
          }
          issued += 1;
        }
        return { issued };
      },
    };
  },

  paid: {
    writes: () => [],
    boughtInCart: (value) => sql`${cartItems.tierId} = any(${value("boughtTiers")}::uuid[])`,
    values: (rows) => ({ boughtTiers: rows.map((row) => membershipLine(row).tierId) }),
  },

  async refund(tx, rows, { now }) {
    await readTierPlaces(
      tx,
      rows.map((row) => membershipLine(row).tierId),
      now,
      { lock: true },
    );
    return {
      async units(tx, orderId) {
        const issued = await tx
          .select({ id: memberships.id, endedAt: memberships.endedAt })
          .from(memberships)
          .where(eq(memberships.orderId, orderId))
          .for("no key update");
        // One unit: the membership this order paid for, while it has not been stopped already.
        return (line) => {
          if (line.refundedQuantity >= line.quantity) return [];
          const live = issued.filter((membership) => !membership.endedAt).map((membership) => membership.id);
          return [{ ids: live, status: "valid" }];
        };
      },
      // The membership stops now: its benefits and its place on the tier end with the refund.
      async refund(tx, chosen, now) {
        const ids = chosen.flatMap((choice) => choice.units.flat());
        if (ids.length === 0) return;
        await tx
          .update(memberships)
          .set({ endedAt: now, endReason: "refunded", renews: false, updatedAt: now })
          .where(inArray(memberships.id, ids));
      },
    };
  },
};
