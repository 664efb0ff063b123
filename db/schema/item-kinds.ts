/**
 * What a cart line, an order line or a hold is for. One cart, one order and one hold flow serve
 * every kind (docs/payments.md); each kind has its own nullable reference column, and a check
 * constraint makes the row's kind and its reference agree, so the database still enforces every
 * foreign key: tickets, prize-draw entries, show-car application fees, merch variants and
 * membership tiers.
 */
export const ITEM_KINDS = ["ticket", "entry", "application", "merch", "membership"] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];
