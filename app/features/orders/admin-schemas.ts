import { z } from "zod";
import { DEFAULT_CREDIT_MONTHS } from "~/features/credit/credit-rules";
import { listSearch } from "~/features/forms/fields";
import { ORDER_STATUSES, type OrderStatus } from "../../../db/schema";

/** What an order's status is called wherever people see it: staff pages, receipts, the member's orders. */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Awaiting payment",
  paid: "Paid",
  fulfilled: "Fulfilled",
  expired: "Expired",
  cancelled: "Cancelled",
  refunded: "Refunded",
  partly_refunded: "Partly refunded",
};

/** The orders list's address: `?q=…&status=…&page=…`. Nonsense falls back to the defaults. */
export const OrdersQuerySchema = z.object({
  q: listSearch,
  status: z.enum(["all", ...ORDER_STATUSES]).catch("all"),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

/**
 * A refund form. "review" shows what would happen; "refund" (from the confirmation) does it.
 * `refundedBefore` is what the page showed, so a repeated submission is refused.
 */
export const RefundFormSchema = z
  .object({
    intent: z.enum(["review", "refund"]),
    scope: z.enum(["order", "item"]),
    orderItemId: z.string().uuid().optional(),
    quantity: z.coerce
      .number({ error: "Enter how many tickets" })
      .int("Enter a whole number")
      .min(1, "At least 1")
      .max(1000)
      .optional(),
    reason: z
      .string({ error: "Say why, for the buyer and the records" })
      .trim()
      .min(3, "Say why, for the buyer and the records")
      .max(300, "Keep the reason under 300 characters"),
    refundedBefore: z.coerce.number().int().min(0),
    /** Back to the card, or to the buyer's account credit (docs/credit.md). */
    to: z.enum(["money", "credit"]).default("money"),
    /** How long credit keeps, in months; 0 for credit that never runs out. */
    creditMonths: z.coerce.number().int().min(0).max(60).default(DEFAULT_CREDIT_MONTHS),
  })
  .refine((form) => form.scope === "order" || (form.orderItemId && form.quantity), {
    message: "Choose how many tickets of this line to refund",
    path: ["quantity"],
  });
