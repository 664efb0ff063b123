import { createHash } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import type { DatabaseHandle } from "../db/client.server";

/**
 * The engine-neutral half of a backup: every row of every table in the `public` schema, each
 * value in PostgreSQL's own text form (what `value::text` answers), written as one JSON array
 * per row. The text form round-trips every column type the schema uses (timestamps with their
 * offset, jsonb, arrays, bytea as hex, numeric, uuid…) on PGlite and on PostgreSQL alike, and
 * a restore turns it back with `$n::text::<column type>`. Generated columns (the search
 * vectors) are left out and made again by the database.
 *
 * Rows are JSON Lines: one row per line, and only "\n" ends a line. A value can hold U+2028 and
 * U+2029, which JSON leaves unescaped and some line readers (Node's readline on Node 26)
 * count as line ends: the writer escapes them, and the reader splits on "\n" bytes itself.
 */

/** One connection, held for a whole dump or load so a transaction can span it. */
export type Connection = {
  query<T extends Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  release(): void;
};

export async function connect(handle: DatabaseHandle): Promise<Connection> {
  if (handle.engine === "pglite") {
    const client = handle.pglite!;
    return {
      query: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows,
      release() {},
    };
  }
  const client = await handle.pool!.connect();
  return {
    query: async <T extends Record<string, unknown>>(text: string, params?: unknown[]) =>
      (await client.query<T>(text, params)).rows,
    release: () => client.release(),
  };
}

export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Settings that fix the text form of values: timestamps in UTC with their offset, ISO dates,
 * bytea as hex, floats with every digit they need. Set for the transaction only.
 */
export async function fixTextForms(connection: Connection) {
  for (const statement of [
    "set local timezone to 'UTC'",
    "set local datestyle to 'ISO, YMD'",
    "set local intervalstyle to 'postgres'",
    "set local bytea_output to 'hex'",
    "set local extra_float_digits to 1",
  ]) {
    await connection.query(statement);
  }
}

type Column = { name: string; type: string; identity: boolean };
export type Table = { name: string; columns: Column[]; primaryKey: string[] };

/** The tables of the `public` schema with their stored (not generated) columns, by name. */
export async function listTables(connection: Connection): Promise<Table[]> {
  const columns = await connection.query<{ table: string; name: string; type: string; identity: string }>(
    `select c.relname as table, a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
            a.attidentity as identity
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
        and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      order by c.relname, a.attnum`,
  );
  const keys = await connection.query<{ table: string; name: string }>(
    `select c.relname as table, a.attname as name
       from pg_index i
       join pg_class c on c.oid = i.indrelid
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey)
      where n.nspname = 'public' and i.indisprimary
      order by c.relname, array_position(i.indkey::int2[], a.attnum)`,
  );
  const tables = new Map<string, Table>();
  for (const column of columns) {
    const table = tables.get(column.table) ?? { name: column.table, columns: [], primaryKey: [] };
    table.columns.push({ name: column.name, type: column.type, identity: column.identity === "a" });
    tables.set(column.table, table);
  }
  for (const key of keys) tables.get(key.table)?.primaryKey.push(key.name);
  return [...tables.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export type Sequence = { name: string; lastValue: string; isCalled: boolean };

export async function readSequences(connection: Connection): Promise<Sequence[]> {
  const names = await connection.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
  );
  const sequences: Sequence[] = [];
  for (const { name } of names) {
    const [row] = await connection.query<{ last_value: string; is_called: boolean }>(
      `select last_value::text as last_value, is_called from public.${ident(name)}`,
    );
    sequences.push({ name, lastValue: row!.last_value, isCalled: row!.is_called });
  }
  return sequences;
}

/** The last migration applied to the database, as drizzle records it; null before the first. */
export async function appliedMigration(connection: Connection) {
  const [exists] = await connection.query<{ found: boolean }>(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as found",
  );
  if (!exists?.found) return null;
  const [last] = await connection.query<{ hash: string; created_at: string }>(
    "select hash, created_at::text as created_at from drizzle.__drizzle_migrations order by created_at desc limit 1",
  );
  return last ? { hash: last.hash, when: Number(last.created_at) } : null;
}

export type TableRows = { rows: number; bytes: number; sha256: string };

const FETCH_SIZE = 1000;

/**
 * Writes every row of `table` to `file`, in primary-key order, through a cursor so a large
 * table never sits in memory. Runs inside the caller's transaction. `readAs` gives the SQL
 * each column is read with (the column itself unless told otherwise).
 */
export async function dumpTable(
  connection: Connection,
  table: Table,
  file: string,
  readAs: (column: string) => string = ident,
): Promise<TableRows> {
  const select = table.columns.map((column, index) => `(${readAs(column.name)})::text as c${index}`).join(", ");
  const order = table.primaryKey.length ? ` order by ${table.primaryKey.map(ident).join(", ")}` : "";
  await connection.query(
    `declare backup_rows no scroll cursor for select ${select} from public.${ident(table.name)}${order}`,
  );
  const out = createWriteStream(file, { mode: 0o600 });
  const hash = createHash("sha256");
  let rows = 0;
  let bytes = 0;
  try {
    for (;;) {
      const batch = await connection.query<Record<string, string | null>>(
        `fetch forward ${FETCH_SIZE} from backup_rows`,
      );
      if (batch.length === 0) break;
      let chunk = "";
      for (const row of batch) chunk += rowLine(table.columns.map((_, index) => row[`c${index}`] ?? null));
      const buffer = Buffer.from(chunk);
      hash.update(buffer);
      bytes += buffer.length;
      rows += batch.length;
      if (!out.write(buffer)) await once(out, "drain");
    }
  } finally {
    out.end();
    await once(out, "close");
    await connection.query("close backup_rows");
  }
  return { rows, bytes, sha256: hash.digest("hex") };
}

/**
 * One row's line: its values as a JSON array, with U+2028 and U+2029 escaped (JSON.stringify
 * leaves them raw), and a newline.
 */
export function rowLine(values: (string | null)[]) {
  const json = JSON.stringify(values).replace(/[\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`);
  return `${json}\n`;
}

/**
 * The lines of a stream of UTF-8 bytes, split at "\n" bytes and nowhere else: not at a carriage
 * return or a Unicode line separator, which a JSON value may hold. Each line is decoded whole,
 * so a character split between two chunks comes out intact. A final line without a newline
 * is yielded too.
 */
export async function* readLines(input: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  for await (const data of input) {
    const chunk = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, end);
      yield (pending.length ? Buffer.concat([...pending, piece]) : piece).toString("utf8");
      pending = [];
      start = end + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length) yield Buffer.concat(pending).toString("utf8");
}

/** Values per insert statement: a few hundred rows at most, so no statement grows large on either engine. */
const parametersPerInsert = 2_000;

/**
 * Inserts the rows of `file` (written by dumpTable with `columns`) into `target`, turning each
 * text value back into the column's type. Answers the number of rows inserted.
 */
export async function loadTable(connection: Connection, target: Table, columns: string[], file: string) {
  const types = new Map(target.columns.map((column) => [column.name, column]));
  const missing = columns.filter((name) => !types.has(name));
  if (missing.length) {
    throw new Error(
      `The table ${target.name} has no column ${missing.join(", ")}: the backup does not fit this schema`,
    );
  }
  const overriding = columns.some((name) => types.get(name)!.identity) ? " overriding system value" : "";
  const head = `insert into public.${ident(target.name)} (${columns.map(ident).join(", ")})${overriding} values `;
  const perRow = Math.max(1, Math.min(1000, Math.floor(parametersPerInsert / Math.max(1, columns.length))));
  let batch: (string | null)[][] = [];
  let loaded = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const params: (string | null)[] = [];
    const tuples = batch.map((row) => {
      const values = columns.map((name, index) => {
        params.push(row[index] ?? null);
        return `$${params.length}::text::${types.get(name)!.type}`;
      });
      return `(${values.join(", ")})`;
    });
    await connection.query(head + tuples.join(", "), params);
    loaded += batch.length;
    batch = [];
  };
  for await (const line of readLines(createReadStream(file))) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as (string | null)[];
    if (!Array.isArray(row) || row.length !== columns.length) {
      throw new Error(
        `A row of ${target.name} has ${Array.isArray(row) ? row.length : "no"} values, not ${columns.length}`,
      );
    }
    batch.push(row);
    if (batch.length >= perRow) await flush();
  }
  await flush();
  return loaded;
}

export async function countRows(connection: Connection, table: string) {
  const [row] = await connection.query<{ count: string }>(`select count(*)::text as count from public.${ident(table)}`);
  return Number(row!.count);
}

/** The foreign keys that are checked at once (the schema's usual kind), to defer during a load. */
export async function immediateForeignKeys(connection: Connection) {
  return connection.query<{ table: string; name: string }>(
    `select c.relname as table, con.conname as name
       from pg_constraint con
       join pg_class c on c.oid = con.conrelid
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and con.contype = 'f' and not con.condeferrable
      order by 1, 2`,
  );
}
