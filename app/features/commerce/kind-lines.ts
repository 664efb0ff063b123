import { cartItems } from "../../../db/schema";
import type { ItemKind } from "./item-kind";

/**
 * The kinds that have rows here, in the kinds' own order (the order their stock is locked in).
 * A row of a kind the site does not sell is a bug, not a buyer's mistake: it throws.
 */
export function kindsOf(kinds: readonly ItemKind[], rows: readonly { kind: string }[]): ItemKind[] {
  const names = new Set(rows.map((row) => row.kind));
  for (const name of names) {
    if (!kinds.some((kind) => kind.name === name)) throw new Error(`No item kind is called "${name}"`);
  }
  return kinds.filter((kind) => names.has(kind.name));
}

/** The rows of one kind. */
export function linesOfKind<Row extends { kind: string }>(rows: readonly Row[], kind: ItemKind): Row[] {
  return rows.filter((row) => row.kind === kind.name);
}

/** A cart line's columns as every kind reads them (`CartRow`). */
export const cartRowColumns = {
  id: cartItems.id,
  kind: cartItems.kind,
  ticketTypeId: cartItems.ticketTypeId,
  drawId: cartItems.drawId,
  entriesPerUnit: cartItems.entriesPerUnit,
  answer: cartItems.answer,
  pickedNumbers: cartItems.pickedNumbers,
  applicationId: cartItems.applicationId,
  variantId: cartItems.variantId,
  quantity: cartItems.quantity,
  attendeeNames: cartItems.attendeeNames,
};
