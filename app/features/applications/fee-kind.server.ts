import { inArray, sql } from "drizzle-orm";
import type { CartRow, CheckoutProblem, ItemKind, NewOrderLine, OrderRow } from "~/features/commerce/item-kind";
import { cartItems, exhibitorPasses } from "../../../db/schema";
import {
  applicationCheckoutItems,
  applicationFeesProblem,
  cancelRefundedApplications,
  feeCart,
  settleApplicationFees,
} from "./fees.server";

function applicationOf(row: CartRow | OrderRow): string {
  if (!row.applicationId) throw new Error(`Line ${row.id} is an application fee without its application`);
  return row.applicationId;
}

/**
 * A show-car application's fee: one per approved application, holding no places (approval
 * reserved the spot). The application rows are locked after the order rows, in checkout,
 * settlement and refunds alike. Paying issues the exhibitor pass; a refund cancels the pass and
 * withdraws the application unless the pass was used at the gate.
 */
export const applicationFeeKind: ItemKind = {
  name: "application",
  unit: { one: "application fee", other: "application fees" },
  cart: feeCart,

  async checkout(_tx, rows, { now }) {
    const applicationIds = rows.map(applicationOf);
    return {
      // Still approved and before the deadline, under the application locks.
      async check(tx) {
        const problems: CheckoutProblem[] = [];
        const checked: NewOrderLine[] = [];
        for (const line of await applicationCheckoutItems(tx, { applicationIds, now })) {
          if (line.problem) {
            const { applicationId } = line;
            problems.push({ code: "application", message: line.problem, applicationId, line: applicationId });
            continue;
          }
          checked.push({
            values: {
              applicationId: line.applicationId,
              eventId: line.eventId,
              description: line.description,
              unitPrice: line.unitPrice,
              quantity: 1,
            },
            hold: null,
          });
        }
        return { lines: checked, problems };
      },
    };
  },

  async settle(_tx, rows, { order, now }) {
    const applicationIds = rows.map(applicationOf);
    return {
      short: () => false,
      async refusal(tx) {
        const problem = await applicationFeesProblem(tx, applicationIds, now);
        return problem ? { reason: problem, outcome: "cancelled" } : null;
      },
      async afterPaid(tx) {
        const issued = await settleApplicationFees(tx, {
          orderId: order.id,
          userId: order.userId,
          applicationIds,
          now,
        });
        return { issued };
      },
    };
  },

  paid: {
    writes: () => [],
    boughtInCart: (value) => sql`${cartItems.applicationId} = any(${value("bought")}::uuid[])`,
    values: (rows) => ({ bought: rows.map(applicationOf) }),
  },

  async refund() {
    return {
      async units(tx, _orderId, rows) {
        const passes = await tx
          .select({
            applicationId: exhibitorPasses.applicationId,
            status: exhibitorPasses.status,
            checkedInAt: exhibitorPasses.checkedInAt,
          })
          .from(exhibitorPasses)
          .where(inArray(exhibitorPasses.applicationId, rows.map(applicationOf)))
          .for("update");
        // One unit, its exhibitor pass (a pass used at the gate is kept).
        return (line) => {
          if (line.refundedQuantity >= line.quantity) return [];
          const applicationId = applicationOf(line);
          const pass = passes.find((candidate) => candidate.applicationId === applicationId);
          const used = pass && pass.status !== "cancelled" && pass.checkedInAt;
          return [{ ids: [applicationId], status: used ? "checked_in" : "valid" }];
        };
      },
      // The passes are cancelled and the spots freed.
      async refund(tx, chosen, now) {
        await cancelRefundedApplications(
          tx,
          chosen.map((choice) => applicationOf(choice.line)),
          now,
        );
      },
    };
  },
};
