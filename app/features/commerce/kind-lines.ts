import { getTableColumns } from "drizzle-orm";
import { cartItems, type orderItems } from "../../../db/schema";
import { type ItemKind, LINE_COLUMNS, type LineColumn } from "./item-kind";

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

/** The columns of a cart or order line that say what it holds, for a select every kind reads. */
export function lineColumnsOf<Table extends typeof cartItems | typeof orderItems>(table: Table) {
  const columns = getTableColumns(table);
  return Object.fromEntries(LINE_COLUMNS.map((name) => [name, columns[name]])) as Pick<typeof columns, LineColumn>;
}

/** A cart line's columns as every kind reads them (`CartRow`). */
export const cartRowColumns = lineColumnsOf(cartItems);
