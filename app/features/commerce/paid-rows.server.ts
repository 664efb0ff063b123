import { getTableColumns, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/**
 * Rows of `table` that the statement paying an order writes from one JSON parameter, `keys` being the columns
 * it writes. Their names are looked up once, when this module loads, not on every payment.
 */
export function paidRows<T extends PgTable>(table: T, keys: readonly (keyof T["$inferInsert"] & string)[]) {
  const columns = getTableColumns(table);
  const pairs = keys.map((key) => {
    const column = columns[key];
    if (!column) throw new Error(`${key} is not a column`);
    return { key, name: column.name };
  });
  const names = pairs.map((pair) => pair.name);
  const list = sql.join(
    names.map((name) => sql.identifier(name)),
    sql`, `,
  );
  return {
    /** `rows` as the JSON `insertIfPaid` reads: the `keys` under their column names. */
    json(rows: T["$inferInsert"][]): string {
      return JSON.stringify(
        rows.map((row) =>
          Object.fromEntries(pairs.map(({ key, name }) => [name, (row as Record<string, unknown>)[key] ?? null])),
        ),
      );
    },
    /**
     * `insert into table (…) select … from json_populate_recordset(…)`: the rows of the JSON
     * value `records` (none for an empty list), read with the table's own column types, written
     * only once the order has been marked paid in the same statement (the `paid` CTE).
     */
    insertIfPaid(records: Placeholder): SQL {
      return sql`insert into ${table} (${list}) select ${list} from json_populate_recordset(null::${table}, ${records}::json) where exists (select 1 from paid)`;
    },
  };
}
