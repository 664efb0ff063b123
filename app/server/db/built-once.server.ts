import type { Query, SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "./client.server";

const dialect = new PgDialect();

/**
 * A statement whose SQL is built once per process, with `sql.placeholder(name)` wherever a value
 * of the call goes, and then run with each call's `values`. Drizzle's query builders cost more
 * CPU than a short statement takes in PostgreSQL; for the few statements every payment runs, that
 * work is done once instead of on every call. Answers what `db.execute` answers (the driver's
 * result, with `rows`), inside a transaction too.
 */
// `build` gets the first caller's database for its query builders; the SQL they make is the same
// for every database of the app (one dialect), so it is kept for all.
export function builtOnce<Values extends Record<string, unknown>, Row extends Record<string, unknown>>(
  build: (db: Db) => SQL,
) {
  const run = builtOnceEach<undefined, Values, Row>(
    () => "",
    (db) => build(db),
  );
  return (db: Db, values: Values) => run(db, undefined, values);
}

/**
 * builtOnce for a statement that comes in a few shapes: `build` makes the SQL of a shape, once
 * per process for each `keyOf(shape)`, and each call runs the shape's statement with its `values`.
 * The values, not the shape, carry whatever differs from one call to the next.
 */
export function builtOnceEach<Shape, Values extends Record<string, unknown>, Row extends Record<string, unknown>>(
  keyOf: (shape: Shape) => string,
  build: (db: Db, shape: Shape) => SQL,
) {
  const queries = new Map<string, Query>();
  return async (db: Db, shape: Shape, values: Values): Promise<{ rows: Row[] }> => {
    const key = keyOf(shape);
    let query = queries.get(key);
    if (!query) {
      query = dialect.sqlToQuery(build(db, shape));
      queries.set(key, query);
    }
    const prepared = db._.session.prepareQuery(query, undefined, undefined, false);
    return (await prepared.execute(values)) as { rows: Row[] };
  };
}

/**
 * What `make` builds for a database, made on its first call with that database and kept while the
 * database (or transaction) is in use: for a query Drizzle prepares itself (`.prepare()`), whose
 * rows it maps into nested objects, where builtOnce's raw rows would not do.
 */
export function oncePerDatabase<T>(make: (db: Db) => T) {
  const made = new WeakMap<Db, T>();
  return (db: Db): T => {
    let value = made.get(db);
    if (value === undefined) {
      value = make(db);
      made.set(db, value);
    }
    return value;
  };
}
