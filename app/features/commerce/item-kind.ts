import type { Placeholder, SQL } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import type { cartItems, holds, orderItems, PaymentProvider } from "../../../db/schema";

/**
 * One kind of thing the site sells (a ticket, a prize-draw entry, merch, a show-car application
 * fee, a membership), as the commerce core sees it. The core owns the flow every kind shares — cart, checkout
 * with its holds, the order, settlement, refunds — and asks each kind, through this interface,
 * only what differs: which stock rows to lock, whether a line can be sold, what paying for it
 * writes, what refunding it gives back, and how its lines show in the cart. The composition root
 * (`features/selling/selling.server.ts`) hands the core the list of kinds, in the one order their
 * stock rows are locked (ADR 0007).
 *
 * Each kind decodes the rows it is given (`CartRow`, `OrderRow`: every kind's reference columns,
 * nullable) into a typed shape of its own, and refuses a row that does not fit it.
 */
export interface ItemKind {
  /** The `kind` of its cart lines, order lines and holds. */
  readonly name: string;
  /** What one unit of a line is called, for counts in order history and refund messages. */
  readonly unit: { one: string; other: string };
  /**
   * Lines of this kind are posted or collected: an order with them needs a way to reach the
   * buyer, and once paid waits for staff to hand them over.
   */
  readonly delivered?: boolean;
  /** How its lines show on the cart page. */
  readonly cart: KindCart;
  /**
   * Checkout, step one: lock this kind's stock rows for the cart's lines (before the order rows),
   * answering the session that checks the lines under those locks.
   */
  checkout(tx: Db, lines: CartRow[], context: CheckoutContext): Promise<KindCheckout>;
  /** Settlement, step one: lock this kind's stock rows for the order's lines (before the order row). */
  settle(tx: Db, lines: OrderRow[], context: SettleContext): Promise<KindSettlement>;
  /** Refunds, step one: lock this kind's stock rows for the order's lines (before the order row). */
  refund(tx: Db, lines: OrderRow[], context: { now: Date }): Promise<KindRefund>;
  /** What settlement's one statement writes for this kind once the order is paid. */
  readonly paid: PaidWrites;
  /**
   * The kind's own way to settle an order of its lines alone whose places are all still held,
   * without the locked transaction (rush hour's common case); see `FastSettlement`.
   */
  readonly fastSettle?: FastSettlement;
}

/**
 * The cart page's side of a kind: the sections its lines are shown under, in the page's order, and
 * its lines as the page shows them.
 */
export interface KindCart {
  readonly sections: readonly CartSection[];
  /**
   * The cart's lines of this kind, in the cart's order, with today's prices and whatever stands in
   * the way of paying for each. `rows` are never empty.
   */
  lines(
    db: Db,
    rows: CartRow[],
    context: {
      cartId: string;
      userId?: string;
      now: Date;
      member?: boolean;
      /** The buyer's membership tier, when `member`: a price for that tier is theirs. */
      tierId?: string | null;
      voucher?: CartVoucher | null;
    },
  ): Promise<CartLineView[]>;
}

type CartItemRef = {
  /** The kind's name. */
  kind: string;
  eventId?: string;
  ticketTypeId?: string;
  variantId?: string;
  tierId?: string;
  drawId?: string;
};

export type CartSection = { id: string; title: string; intro?: string };

/** One line of the cart page, whatever kind of item it holds: plain data the page lays out. */
export type CartLineView = {
  /** The id of the kind's section it is shown under. */
  section: string;
  /** What a message from the cart's forms names the line by (its ticket type, draw or variant). */
  ref: string;
  /** The line's accessible name: what it is and what it belongs to. */
  label: string;
  header: { href: string; of: string; name: string; detail: string | null };
  unitPrice: number;
  quantity: number;
  /** The hidden fields that name the line in its forms. */
  target: Record<string, string>;
  /** What the line is, for a voucher deciding whether it applies: its kind and what it belongs to. */
  item: CartItemRef;
  /** Why the line cannot be paid for now (null when it can), and the id of the element saying so. */
  problem: string | null;
  problemId: string;
  /** The item is off sale or gone: the line can only be removed. */
  closed: boolean;
  /** The quantity control and its button; null for a line whose quantity is fixed or closed. */
  update: { id: string; intent: string; label: string; maxQuantity: number } | null;
  remove: { intent: string; label: string };
  /** The names of the people each unit is for, asked before paying (multi-day passes). */
  attendeeNames?: string[];
  /** The event a ticket admits to: merch in the same cart may be collected there. */
  admitsTo?: string;
  /** What a member price saves on the line, in minor units (the cart adds them up). */
  memberSaving?: number;
  /** The price members pay, shown to a buyer who is not one ("£12.00 for members"). */
  memberPrice?: number;
};

/**
 * What a line holds, in the cart and in an order alike: its kind, every kind's reference and
 * choices (a kind reads its own), how many, and who they are for.
 */
export const LINE_COLUMNS = [
  "id",
  "kind",
  "ticketTypeId",
  "drawId",
  "entriesPerUnit",
  "answer",
  "pickedNumbers",
  "applicationId",
  "variantId",
  "tierId",
  "quantity",
  "attendeeNames",
] as const;

export type LineColumn = (typeof LINE_COLUMNS)[number];

/** A cart line as read for checkout: what it holds (`LineColumn`, every kind's; a kind reads its own). */
export type CartRow = Pick<typeof cartItems.$inferSelect, LineColumn>;

/** An order line as settlement and refunds read it: the line, its event, and its price and refunds. */
export type OrderRow = Pick<
  typeof orderItems.$inferSelect,
  LineColumn | "eventId" | "description" | "unitPrice" | "discount" | "refundedQuantity" | "renewsMembershipId"
>;

/** What settlement reads of an order's live holds: its kind, every kind's reference, how many. */
export const HOLD_COLUMNS = ["kind", "ticketTypeId", "drawId", "variantId", "tierId", "quantity"] as const;

/** An order's live hold, as settlement reads it. */
export type HoldRow = Pick<typeof holds.$inferSelect, (typeof HOLD_COLUMNS)[number]>;

/**
 * Why a line cannot be bought: `line` names the cart line it is about (its reference), and a kind
 * may add details of its own (the places left, say).
 */
export type CheckoutProblem = { code: string; message: string; line?: string; [detail: string]: unknown };

type CheckoutContext = {
  userId: string;
  currency: string;
  now: Date;
  /** The buyer holds a club membership with its benefits: member prices and presales are theirs. */
  member: boolean;
  /** The tier of that membership (null for a non-member): an item's price for that tier is theirs. */
  tierId: string | null;
  /** The code in the cart: it may let hidden ticket types be bought, and take the places it keeps. */
  voucher: CartVoucher | null;
};

/** A cart's voucher as the kinds see it: the ticket types it names (hidden ones among them may be bought). */
export type CartVoucher = { id: string; ticketTypeIds: readonly string[] };

/** A checked line of the order being made, with what it holds while the buyer pays. */
export type NewOrderLine = {
  values: Omit<typeof orderItems.$inferInsert, "orderId" | "kind" | "createdAt">;
  /** The places it sets aside (none for a line that holds nothing). */
  hold: Omit<typeof holds.$inferInsert, "orderId" | "kind" | "expiresAt" | "createdAt" | "updatedAt"> | null;
  /** The event a ticket admits to: merch in the same order may be collected there. */
  admitsTo?: string;
};

export interface KindCheckout {
  /** The member's earlier unpaid order was replaced: these of its holds count as free again. */
  released?(holds: ReleasedHold[]): void;
  /** Checks every line under the locks, counting each one's places as taken for the next. */
  check(tx: Db): Promise<{ lines: NewOrderLine[]; problems: CheckoutProblem[] }>;
}

export type ReleasedHold = Pick<typeof holds.$inferSelect, "kind" | "ticketTypeId" | "quantity" | "expiresAt">;

type SettleContext = {
  order: { id: string; userId: string | null };
  now: Date;
  /** Who took the payment: a kind that saves a way to pay again (a membership's renewals) asks. */
  provider: PaymentProvider;
};

/** A payment that cannot be honoured: the reason, and whether the order ends expired or cancelled. */
type Refusal = { reason: string; outcome: "expired" | "cancelled" };

export interface KindSettlement {
  /**
   * Given the order's live holds of this kind (which already count its places as taken), says
   * whether the lines are short of them (the payment came after the hold ran out), and stops
   * counting them as anyone else's.
   */
  short(held: HoldRow[]): boolean;
  /**
   * Why the payment cannot be honoured, checked under the locks; null when it can. `late`: some
   * line of the order was paid for after its hold ran out, so places must still be free.
   */
  refusal(tx: Db, check: { late: boolean; cardFunding: string | null | undefined }): Promise<Refusal | null>;
  /** After the order is marked paid: what else paying writes (entries, stock, passes). */
  afterPaid(tx: Db): Promise<{ issued: number }>;
}

/**
 * Writes in the statement that marks an order paid, made only once it is (`ifPaid`). Every value
 * that differs from one order to the next is a placeholder: `value(name)` names one of this
 * kind's, which `values` supplies for an order. The statement is built once per process.
 */
type PaidWrites = {
  writes(db: Db, ifPaid: SQL, value: (name: string) => Placeholder): SQL[];
  /** What was bought leaves the member's cart: the condition matching this kind's bought lines. */
  boughtInCart(value: (name: string) => Placeholder): SQL;
  values(lines: OrderRow[], order: { id: string; userId: string | null }, now: Date): Record<string, unknown>;
};

/**
 * Settling without the locked transaction: `holdOfLine` is the SQL condition that a hold
 * (`holds`) sets places aside for an order line (`order_items`), `payable` what the statement
 * checks and locks before it marks the order paid (beside the core's own checks: pending, every
 * place still held, this payment not recorded before), and `values` an order's values for it.
 */
type FastSettlement = {
  holdOfLine: SQL;
  payable(db: Db, value: (name: string) => Placeholder): { before: SQL[]; condition: SQL };
  values(lines: OrderRow[]): Record<string, unknown>;
};

export interface KindRefund {
  /** After the order row is locked: the line's units as a refund sees them. */
  units(tx: Db, orderId: string, lines: OrderRow[]): Promise<(line: OrderRow) => RefundUnit[]>;
  /** Gives back what these units took: places, stock, passes. */
  refund(tx: Db, chosen: RefundChoice[], now: Date): Promise<void>;
}

/**
 * One unit of a line: `ids` are the rows that make it (a ticket, a bundle's entries, a pass);
 * `valid` can be refunded, `checked_in` was used at the gate, `drawn` is in a closed draw's list.
 */
export type RefundUnit = { ids: string[]; status: "valid" | "checked_in" | "drawn" | string };

export type RefundChoice = { line: OrderRow; units: string[][] };
