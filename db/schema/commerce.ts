import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { showCarApplications } from "./applications";
import { draws } from "./draws";
import { events, ticketTypes } from "./events";
import { membershipTiers } from "./membership";
import { productVariants } from "./shop";
import { vouchers } from "./vouchers";

export { ITEM_KINDS, type ItemKind } from "./item-kinds";

import { ITEM_KINDS } from "./item-kinds";

export const ORDER_STATUSES = [
  "pending",
  "paid",
  "fulfilled",
  "expired",
  "cancelled",
  "refunded",
  "partly_refunded",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const PAYMENT_PROVIDERS = ["test", "stripe"] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

export const HOLD_STATUSES = ["active", "converted", "released"] as const;
/** `transferred`: sent to someone else, whose new ticket replaced it (docs/transfers.md). */
export const TICKET_STATUSES = ["valid", "checked_in", "cancelled", "refunded", "transferred"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
/** How an order's merch reaches the buyer: posted to an address, or collected at an event. */
export const SHIPPING_METHODS = ["delivery", "collection"] as const;
export type ShippingMethod = (typeof SHIPPING_METHODS)[number];

/**
 * Where an order with merch stands with staff: waiting to be packed, posted (carrier and
 * tracking number), or put aside for collection and then handed over at the gate.
 */
export const FULFILMENT_STATUSES = ["unfulfilled", "shipped", "ready_for_collection", "collected"] as const;
export type FulfilmentStatus = (typeof FULFILMENT_STATUSES)[number];

/** A delivery address as the buyer gave it; `country` is ISO 3166-1 alpha-2. */
export type ShippingAddress = {
  name: string;
  line1: string;
  line2?: string;
  town: string;
  region?: string;
  postcode: string;
  country: string;
  phone?: string;
};

export const TRANSACTION_KINDS = ["charge", "refund"] as const;
/** A refund is recorded as pending first and sent to the provider by the payments job. */
export const TRANSACTION_STATUSES = ["pending", "succeeded", "failed"] as const;

/**
 * A member's cart, or a visitor's: visitors can fill a cart before they have an account
 * (docs/payments.md). A visitor's cart is found by the SHA-256 of a random token kept in their
 * cookie, so the table never holds a value that would let someone else open it.
 */
export const carts = pgTable(
  "carts",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    visitorTokenHash: text("visitor_token_hash"),
    /** The voucher or discount code entered in the cart, applied at checkout. */
    voucherId: uuid("voucher_id").references(() => vouchers.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("carts_user_id_key").on(table.userId),
    uniqueIndex("carts_visitor_token_hash_key").on(table.visitorTokenHash),
    // Abandoned visitor carts are cleared by age.
    index("carts_updated_at_idx").on(table.updatedAt),
    check("carts_one_owner", sql`num_nonnulls(${table.userId}, ${table.visitorTokenHash}) = 1`),
  ],
);

/** The most of one line a cart or an order can carry, far above any per-order maximum. */
export const MAX_LINE_QUANTITY = 1000;

export const cartItems = pgTable(
  "cart_items",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    cartId: uuid("cart_id")
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ITEM_KINDS }).notNull(),
    ticketTypeId: uuid("ticket_type_id").references(() => ticketTypes.id, { onDelete: "cascade" }),
    drawId: uuid("draw_id").references(() => draws.id, { onDelete: "cascade" }),
    /** Entries: how many entries one unit of the line is (the bundle: 1, 5, 10…). */
    entriesPerUnit: integer("entries_per_unit").notNull().default(1),
    /** Entries: the option chosen for the draw's question, sent with the entries. */
    answer: integer("answer"),
    /** Entries of a draw that allows it: the numbers the member chose, given to this line's first entries. */
    pickedNumbers: integer("picked_numbers").array().notNull().default(sql`'{}'::integer[]`),
    /** Applications: the approved show-car application whose fee this line pays. */
    applicationId: uuid("application_id").references(() => showCarApplications.id, { onDelete: "cascade" }),
    /** Merch: the variant (size, colour) bought. */
    variantId: uuid("variant_id").references(() => productVariants.id, { onDelete: "cascade" }),
    /** Memberships: the tier joined; the people it names are `attendee_names`. */
    tierId: uuid("tier_id").references(() => membershipTiers.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    /**
     * Multi-day passes: one name per ticket, in order; blank until the buyer fills them in.
     * Family memberships: the people it names besides the member.
     */
    attendeeNames: text("attendee_names").array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("cart_items_cart_ticket_type_key").on(table.cartId, table.ticketTypeId),
    uniqueIndex("cart_items_cart_draw_bundle_key").on(table.cartId, table.drawId, table.entriesPerUnit),
    uniqueIndex("cart_items_cart_application_key").on(table.cartId, table.applicationId),
    uniqueIndex("cart_items_cart_variant_key").on(table.cartId, table.variantId),
    uniqueIndex("cart_items_cart_tier_key").on(table.cartId, table.tierId),
    index("cart_items_variant_idx").on(table.variantId),
    index("cart_items_ticket_type_idx").on(table.ticketTypeId),
    index("cart_items_draw_idx").on(table.drawId),
    check("cart_items_quantity_range", sql`${table.quantity} between 1 and ${sql.raw(String(MAX_LINE_QUANTITY))}`),
    check("cart_items_ticket_reference", sql`(${table.kind} = 'ticket') = (${table.ticketTypeId} is not null)`),
    check(
      "cart_items_entry_reference",
      sql`(${table.kind} = 'entry') = (${table.drawId} is not null and ${table.answer} is not null)`,
    ),
    check("cart_items_entries_per_unit_positive", sql`${table.entriesPerUnit} > 0`),
    check(
      "cart_items_application_reference",
      sql`(${table.kind} = 'application') = (${table.applicationId} is not null)`,
    ),
    check("cart_items_merch_reference", sql`(${table.kind} = 'merch') = (${table.variantId} is not null)`),
    check("cart_items_membership_reference", sql`(${table.kind} = 'membership') = (${table.tierId} is not null)`),
  ],
);

/**
 * An order: made when the buyer starts paying, with every price copied from the catalogue at
 * that moment (never from a form). `number` is the human reference (PL-000123); numbers come
 * from an identity sequence, so a checkout that rolls back leaves a gap, which is harmless.
 * Orders outlive the accounts that placed them (docs/security.md).
 */
export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    number: bigint("number", { mode: "number" }).notNull().generatedAlwaysAsIdentity({ startWith: 1 }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    email: text("email").notNull(),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("pending"),
    currency: text("currency").notNull(),
    subtotal: integer("subtotal").notNull(),
    shipping: integer("shipping").notNull().default(0),
    /** Taken off by the order's voucher: the sum of its lines' `discount`. */
    discount: integer("discount").notNull().default(0),
    /** The voucher's code as entered, shown on the order and its receipt. */
    voucherCode: text("voucher_code"),
    /**
     * What the buyer pays the provider: the subtotal less the discount, plus shipping, less the
     * account credit spent on the order (docs/credit.md).
     */
    total: integer("total").notNull(),
    /** Account credit spent on the order at checkout, in pence: paid before the provider's part. */
    credit: integer("credit").notNull().default(0),
    /** When the places held for this order are given back if it is still unpaid. */
    holdExpiresAt: timestamp("hold_expires_at", { withTimezone: true }),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    /** Stripe Checkout Session id, or the test checkout's session. */
    providerSessionId: text("provider_session_id"),
    /** The payment that settled the order (Stripe PaymentIntent id, or the test checkout's). */
    providerPaymentId: text("provider_payment_id"),
    /** Sent with the Pay form, so a double submission finds the order the first one made. */
    idempotencyKey: text("idempotency_key"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** Why the order was cancelled, expired unpaid, or could not be honoured. */
    failureReason: text("failure_reason"),
    /**
     * Set when the hold ended while a bank payment (a debit that confirms days later) was on its
     * way: until then the reconciliation job keeps asking the provider whether it arrived.
     */
    bankPaymentDueBy: timestamp("bank_payment_due_by", { withTimezone: true }),
    /** The paying card's funding type as the provider reported it (credit, debit, prepaid). */
    cardFunding: text("card_funding"),
    /** Orders with merch: how it reaches the buyer, chosen at Pay and copied here with its price. */
    shippingMethod: text("shipping_method", { enum: SHIPPING_METHODS }),
    shippingAddress: jsonb("shipping_address").$type<ShippingAddress>(),
    /** Collection: the event where the buyer picks the merch up. */
    collectionEventId: uuid("collection_event_id").references(() => events.id, { onDelete: "restrict" }),
    /** Null for an order with no merch. */
    fulfilmentStatus: text("fulfilment_status", { enum: FULFILMENT_STATUSES }),
    carrier: text("carrier"),
    trackingNumber: text("tracking_number"),
    trackingUrl: text("tracking_url"),
    shippedAt: timestamp("shipped_at", { withTimezone: true }),
    /** Shipped, put aside for collection, or handed over: who did it. */
    fulfilledBy: text("fulfilled_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("orders_number_key").on(table.number),
    uniqueIndex("orders_idempotency_key").on(table.idempotencyKey),
    uniqueIndex("orders_provider_session_key")
      .on(table.provider, table.providerSessionId)
      .where(sql`${table.providerSessionId} is not null`),
    index("orders_user_idx").on(table.userId, table.createdAt),
    index("orders_pending_expiry_idx").on(table.holdExpiresAt).where(sql`${table.status} = 'pending'`),
    index("orders_status_idx").on(table.status, table.createdAt),
    index("orders_fulfilment_idx")
      .on(table.fulfilmentStatus, table.paidAt)
      .where(sql`${table.fulfilmentStatus} is not null`),
    index("orders_bank_payment_due_idx").on(table.bankPaymentDueBy).where(sql`${table.bankPaymentDueBy} is not null`),
    check(
      "orders_amounts_non_negative",
      sql`${table.subtotal} >= 0 and ${table.shipping} >= 0 and ${table.discount} between 0 and ${table.subtotal} and ${table.credit} >= 0 and ${table.total} >= 0`,
    ),
    check(
      "orders_total_adds_up",
      sql`${table.total} = ${table.subtotal} - ${table.discount} + ${table.shipping} - ${table.credit}`,
    ),
    check(
      "orders_shipping_destination",
      sql`${table.shippingMethod} is null or (${table.shippingMethod} = 'delivery') = (${table.shippingAddress} is not null and ${table.collectionEventId} is null) and (${table.shippingMethod} = 'collection') = (${table.collectionEventId} is not null)`,
    ),
  ],
);

/**
 * One line of an order, with what the buyer saw: the description and unit price are copied when
 * the order is made, so later catalogue edits never change an order.
 */
export const orderItems = pgTable(
  "order_items",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ITEM_KINDS }).notNull(),
    // Restrict: an event or ticket type that has orders cannot be deleted, only cancelled.
    ticketTypeId: uuid("ticket_type_id").references(() => ticketTypes.id, { onDelete: "restrict" }),
    eventId: uuid("event_id").references(() => events.id, { onDelete: "restrict" }),
    drawId: uuid("draw_id").references(() => draws.id, { onDelete: "restrict" }),
    /** Entries: entries in one unit of the line (the bundle bought), and the answer given. */
    entriesPerUnit: integer("entries_per_unit").notNull().default(1),
    answer: integer("answer"),
    applicationId: uuid("application_id").references(() => showCarApplications.id, { onDelete: "restrict" }),
    pickedNumbers: integer("picked_numbers").array().notNull().default(sql`'{}'::integer[]`),
    /** Merch: the variant sold; its stock was taken at settlement and goes back on refund. */
    variantId: uuid("variant_id").references(() => productVariants.id, { onDelete: "restrict" }),
    /** Memberships: the tier joined or renewed. */
    tierId: uuid("tier_id").references(() => membershipTiers.id, { onDelete: "restrict" }),
    /** Memberships: the membership a renewal extends (null when joining). */
    renewsMembershipId: uuid("renews_membership_id").references((): AnyPgColumn => memberships.id, {
      onDelete: "set null",
    }),
    /** "Summer Sunday Meet — Weekend pass". */
    description: text("description").notNull(),
    unitPrice: integer("unit_price").notNull(),
    quantity: integer("quantity").notNull(),
    /**
     * What the order's voucher took off the whole line, in pence (the same off each unit, so a
     * refund of some units gives back their share of it and no more).
     */
    discount: integer("discount").notNull().default(0),
    attendeeNames: text("attendee_names").array().notNull().default(sql`'{}'::text[]`),
    refundedQuantity: integer("refunded_quantity").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("order_items_order_idx").on(table.orderId),
    index("order_items_ticket_type_idx").on(table.ticketTypeId),
    index("order_items_draw_idx").on(table.drawId),
    index("order_items_application_idx").on(table.applicationId),
    index("order_items_variant_idx").on(table.variantId),
    index("order_items_tier_idx").on(table.tierId),
    check("order_items_unit_price_non_negative", sql`${table.unitPrice} >= 0`),
    check(
      "order_items_discount_within_price",
      sql`${table.discount} between 0 and ${table.unitPrice} * ${table.quantity}`,
    ),
    check("order_items_quantity_range", sql`${table.quantity} between 1 and ${sql.raw(String(MAX_LINE_QUANTITY))}`),
    check(
      "order_items_refunded_within_quantity",
      sql`${table.refundedQuantity} >= 0 and ${table.refundedQuantity} <= ${table.quantity}`,
    ),
    check(
      "order_items_application_reference",
      sql`(${table.kind} = 'application') = (${table.applicationId} is not null)`,
    ),
    check(
      "order_items_ticket_reference",
      sql`(${table.kind} = 'ticket') = (${table.ticketTypeId} is not null and ${table.eventId} is not null)`,
    ),
    check(
      "order_items_entry_reference",
      sql`(${table.kind} = 'entry') = (${table.drawId} is not null and ${table.answer} is not null)`,
    ),
    check("order_items_entries_per_unit_positive", sql`${table.entriesPerUnit} > 0`),
    check("order_items_merch_reference", sql`(${table.kind} = 'merch') = (${table.variantId} is not null)`),
    check("order_items_membership_reference", sql`(${table.kind} = 'membership') = (${table.tierId} is not null)`),
  ],
);

/**
 * Places set aside while the buyer pays (ADR 0007: available = capacity −
 * sold − active holds). A hold counts only while it is active and not past `expires_at`, so an
 * expired hold frees its places at once, before the expiry job marks it released. Paying turns
 * it into a sale (converted).
 */
export const holds = pgTable(
  "holds",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ITEM_KINDS }).notNull(),
    ticketTypeId: uuid("ticket_type_id").references(() => ticketTypes.id, { onDelete: "restrict" }),
    eventId: uuid("event_id").references(() => events.id, { onDelete: "restrict" }),
    /** Entries: the draw; `quantity` is then the number of entries held (bundles × their size). */
    drawId: uuid("draw_id").references(() => draws.id, { onDelete: "restrict" }),
    /** Merch: the variant whose stock is set aside. */
    variantId: uuid("variant_id").references(() => productVariants.id, { onDelete: "restrict" }),
    /** Memberships: the tier whose place is set aside (a tier with a cap on members). */
    tierId: uuid("tier_id").references(() => membershipTiers.id, { onDelete: "restrict" }),
    quantity: integer("quantity").notNull(),
    /** Entries: numbers chosen by the buyer, kept from everyone else while the hold lasts. */
    pickedNumbers: integer("picked_numbers").array().notNull().default(sql`'{}'::integer[]`),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    status: text("status", { enum: HOLD_STATUSES }).notNull().default("active"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("holds_order_idx").on(table.orderId),
    // The availability sums read only active holds, per ticket type and per event.
    index("holds_active_ticket_type_idx").on(table.ticketTypeId).where(sql`${table.status} = 'active'`),
    index("holds_active_event_idx").on(table.eventId).where(sql`${table.status} = 'active'`),
    index("holds_active_draw_idx").on(table.drawId).where(sql`${table.status} = 'active'`),
    index("holds_active_variant_idx").on(table.variantId).where(sql`${table.status} = 'active'`),
    index("holds_active_tier_idx").on(table.tierId).where(sql`${table.status} = 'active'`),
    index("holds_active_expiry_idx").on(table.expiresAt).where(sql`${table.status} = 'active'`),
    check("holds_quantity_range", sql`${table.quantity} between 1 and ${sql.raw(String(MAX_LINE_QUANTITY))}`),
    check(
      "holds_ticket_reference",
      sql`(${table.kind} = 'ticket') = (${table.ticketTypeId} is not null and ${table.eventId} is not null)`,
    ),
    check("holds_entry_reference", sql`(${table.kind} = 'entry') = (${table.drawId} is not null)`),
    check("holds_merch_reference", sql`(${table.kind} = 'merch') = (${table.variantId} is not null)`),
    check("holds_membership_reference", sql`(${table.kind} = 'membership') = (${table.tierId} is not null)`),
  ],
);

/**
 * An order's use of a voucher: how many of its items the voucher priced (`units`, each one use)
 * and what it took off. A use counts while its order is paid, part-refunded or pending with its
 * hold running; a cancelled, expired or wholly refunded order gives its uses back. Written by
 * checkout under the voucher's row lock, which is where the limits are checked.
 */
export const voucherUses = pgTable(
  "voucher_uses",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    voucherId: uuid("voucher_id")
      .notNull()
      .references(() => vouchers.id, { onDelete: "restrict" }),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    units: integer("units").notNull(),
    amount: integer("amount").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("voucher_uses_order_key").on(table.orderId),
    index("voucher_uses_voucher_idx").on(table.voucherId, table.userId),
    check("voucher_uses_units_positive", sql`${table.units} > 0 and ${table.amount} >= 0`),
  ],
);

/**
 * An e-ticket. `code` is 128 random bits (Crockford base32): unguessable, so it is both what
 * staff may type at the gate and what the signed QR carries.
 */
export const tickets = pgTable(
  "tickets",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    orderItemId: uuid("order_item_id")
      .notNull()
      .references(() => orderItems.id, { onDelete: "cascade" }),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    ticketTypeId: uuid("ticket_type_id")
      .notNull()
      .references(() => ticketTypes.id, { onDelete: "restrict" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "restrict" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    attendeeName: text("attendee_name"),
    code: text("code").notNull(),
    status: text("status", { enum: TICKET_STATUSES }).notNull().default("valid"),
    checkedInAt: timestamp("checked_in_at", { withTimezone: true }),
    checkedInBy: text("checked_in_by").references(() => users.id, { onDelete: "set null" }),
    /** At an event with re-entry, when the holder last went out (null while they are inside). */
    leftAt: timestamp("left_at", { withTimezone: true }),
    /** How many times this place was passed on: 0 for the buyer's own ticket. */
    transfers: integer("transfers").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("tickets_code_key").on(table.code),
    index("tickets_order_idx").on(table.orderId),
    index("tickets_order_item_idx").on(table.orderItemId),
    index("tickets_user_idx").on(table.userId),
    index("tickets_event_idx").on(table.eventId, table.status),
  ],
);

export const PASS_STATUSES = ["valid", "cancelled"] as const;

/**
 * An exhibitor pass: what an approved (and, with a fee, paid) show-car application gives its
 * member, shown with a QR code in /members/events and checked in at the gate like a ticket,
 * where the scanner shows the car. `code` is unguessable, like a ticket's.
 */
export const exhibitorPasses = pgTable(
  "exhibitor_passes",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => showCarApplications.id, { onDelete: "cascade" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "restrict" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    code: text("code").notNull(),
    status: text("status", { enum: PASS_STATUSES }).notNull().default("valid"),
    checkedInAt: timestamp("checked_in_at", { withTimezone: true }),
    checkedInBy: text("checked_in_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("exhibitor_passes_code_key").on(table.code),
    uniqueIndex("exhibitor_passes_application_key").on(table.applicationId),
    index("exhibitor_passes_event_idx").on(table.eventId),
    index("exhibitor_passes_user_idx").on(table.userId),
  ],
);

/**
 * A member's club membership (docs/membership.md): what a membership line's payment issues, and
 * what each renewal extends. One row per member: joining again after a membership ended starts
 * the row afresh. `paid_until` is the end of the last period paid for; what the membership is at
 * a moment (active, in grace, lapsed, ended) follows from it, `renews` and `ended_at` by the
 * membership rules. `ended_at` is set when it was stopped before its end (a cooling-off refund, a
 * refund by staff). `card_code` is the member card's code, unguessable like a ticket's, signed
 * in its QR.
 */
export const memberships = pgTable(
  "memberships",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tierId: uuid("tier_id")
      .notNull()
      .references(() => membershipTiers.id, { onDelete: "restrict" }),
    /** Family memberships: the people it names besides the member. */
    people: text("people").array().notNull().default(sql`'{}'::text[]`),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull(),
    /** The period last paid for: from `period_starts_at` until just before `paid_until`. */
    periodStartsAt: timestamp("period_starts_at", { withTimezone: true }).notNull(),
    paidUntil: timestamp("paid_until", { withTimezone: true }).notNull(),
    /** The order that paid for the current period, what it cost and when it was paid. */
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    paidPence: integer("paid_pence").notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }).notNull(),
    /** Whether the next period will be charged; the member can turn it off (and on) at any time. */
    renews: boolean("renews").notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    endReason: text("end_reason"),
    cardCode: text("card_code").notNull(),
    /**
     * How renewals are paid: the payment provider's saved card or mandate ("test:card" with the
     * test checkout, "test:declined" for one the test clock makes fail); null when none is saved.
     */
    paymentMethod: text("payment_method"),
    /** The renewal date (a `paid_until`) whose reminder has gone, and when it went. */
    remindedFor: timestamp("reminded_for", { withTimezone: true }),
    remindedAt: timestamp("reminded_at", { withTimezone: true }),
    /** Failed tries at charging the renewal due at `paid_until`, and when to try again. */
    renewalFailures: integer("renewal_failures").notNull().default(0),
    retryAt: timestamp("retry_at", { withTimezone: true }),
    /** The renewal date whose lapse the member was told about. */
    lapseNoticeFor: timestamp("lapse_notice_for", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("memberships_user_key").on(table.userId),
    uniqueIndex("memberships_card_code_key").on(table.cardCode),
    index("memberships_tier_idx").on(table.tierId, table.paidUntil),
    index("memberships_order_idx").on(table.orderId),
    // The membership clock's reads: renewing memberships by the date they renew.
    index("memberships_renewing_idx").on(table.paidUntil).where(sql`${table.endedAt} is null and ${table.renews}`),
    check("memberships_period_order", sql`${table.periodStartsAt} < ${table.paidUntil}`),
    check("memberships_paid_non_negative", sql`${table.paidPence} >= 0`),
  ],
);

/**
 * A member card let in at a members' event's gate: once per membership and event, so a second
 * scan is told when and by whom it was first let in.
 */
export const memberCheckIns = pgTable(
  "member_check_ins",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    membershipId: uuid("membership_id")
      .notNull()
      .references(() => memberships.id, { onDelete: "cascade" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    checkedInAt: timestamp("checked_in_at", { withTimezone: true }).notNull(),
    checkedInBy: text("checked_in_by").references(() => users.id, { onDelete: "set null" }),
  },
  (table) => [uniqueIndex("member_check_ins_membership_event_key").on(table.membershipId, table.eventId)],
);

/**
 * Money that moved, or is due to move: a charge when a payment arrives, a refund when money goes
 * back. A refund is recorded as pending in the same transaction as the decision to make it, and
 * the payments job sends it to the provider and fills in the reference; that way a crash between
 * the two can never lose a refund. A provider reference is recorded once (webhook replays).
 */
export const transactions = pgTable(
  "transactions",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: TRANSACTION_KINDS }).notNull(),
    status: text("status", { enum: TRANSACTION_STATUSES }).notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    providerReference: text("provider_reference"),
    /** For a refund: the charge it gives back. */
    chargeId: uuid("charge_id").references((): AnyPgColumn => transactions.id, { onDelete: "set null" }),
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (table) => [
    index("transactions_order_idx").on(table.orderId, table.createdAt),
    uniqueIndex("transactions_provider_reference_key")
      .on(table.provider, table.providerReference)
      .where(sql`${table.providerReference} is not null`),
    index("transactions_pending_idx").on(table.createdAt).where(sql`${table.status} = 'pending'`),
    check("transactions_amount_positive", sql`${table.amount} > 0`),
  ],
);

/** Every change of an order's status, with who made it and why (docs/payments.md). */
export const orderHistory = pgTable(
  "order_history",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    fromStatus: text("from_status", { enum: ORDER_STATUSES }),
    toStatus: text("to_status", { enum: ORDER_STATUSES }).notNull(),
    note: text("note"),
    /** Null when the buyer, the provider or a job made the change. */
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("order_history_order_idx").on(table.orderId, table.createdAt)],
);

/**
 * Provider notifications already handled, so a replayed webhook is acknowledged without being
 * processed twice (docs/payments.md).
 */
export const paymentEvents = pgTable(
  "payment_events",
  {
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.provider, table.eventId] })],
);
