import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/**
 * `json_build_object('key', column, …)` of a select's fields, keyed by their names, for reading
 * rows nested inside another statement's result (a JSON list of an order's lines or tickets) in
 * the same round trip. A timestamp comes back as an ISO 8601 string, not a Date.
 */
export function jsonObject(fields: Record<string, SQLWrapper>): SQL {
  const pairs = Object.entries(fields).map(([key, field]) => {
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(key)) throw new Error(`Unusable JSON key: ${key}`);
    return sql`${sql.raw(`'${key}'`)}, ${field}`;
  });
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
}
