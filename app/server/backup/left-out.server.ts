import { VERIFY_EMAIL_SECONDS } from "../auth/auth.server";
import { type Connection, ident, type Table } from "./tables.server";

/**
 * What never goes into a backup, and what a restore forgets (docs/backup.md, "What a backup
 * leaves out"): anything that lets someone in without their password. Whoever holds a backup,
 * or the site restored from it, finds no session to take over and no link or code still
 * waiting to be used; everyone signs in again.
 */

/**
 * Live sessions, and what Better Auth keeps until it is used or expires: password reset
 * tokens, magic sign-in links, phone and email codes, email-change confirmations.
 */
export const LEFT_OUT_TABLES: readonly string[] = ["sessions", "verifications"];

export const isLeftOut = (table: string) => LEFT_OUT_TABLES.includes(table);

type Blanked = {
  table: string;
  columns: string[];
  /** Which rows are blanked, over the row's columns, `{now}` standing for the moment of the backup. */
  where?: string;
};

const BLANKED: Blanked[] = [
  // A federated sign-in's tokens at Google, Facebook or Apple: keys to the member's account there.
  {
    table: "accounts",
    columns: ["access_token", "refresh_token", "id_token", "access_token_expires_at", "refresh_token_expires_at"],
  },
  // The local mailbox keeps the text of what it sends: a recent one may hold a link that still
  // signs in (an email confirmation lives longest). Older messages keep their text.
  {
    table: "outbound_messages",
    columns: ["text", "html"],
    where: `sent_at > {now} - interval '${VERIFY_EMAIL_SECONDS} seconds'`,
  },
];

/**
 * The SQL a backup reads `column` of `table` with: the column itself, or null where it is
 * blanked. Runs in the backup's transaction, whose start is `now()`.
 */
export function backedUpValue(table: string, column: string) {
  const rule = BLANKED.find((entry) => entry.table === table && entry.columns.includes(column));
  if (!rule) return ident(column);
  if (!rule.where) return "null";
  return `case when ${rule.where.replaceAll("{now}", "now()")} then null else ${ident(column)} end`;
}

/**
 * Blanks what a backup leaves out in rows a restore loaded, for backups made before it was
 * left out; `madeAt` is when the backup was made. The left-out tables are not loaded at all.
 */
export async function forgetKeys(connection: Connection, tables: Map<string, Table>, madeAt: string) {
  for (const rule of BLANKED) {
    const table = tables.get(rule.table);
    const columns = rule.columns.filter((name) => table?.columns.some((column) => column.name === name));
    if (!table || columns.length === 0) continue;
    const set = columns.map((name) => `${ident(name)} = null`).join(", ");
    const held = columns.map((name) => `${ident(name)} is not null`).join(" or ");
    const where = rule.where ? ` and ${rule.where.replaceAll("{now}", "$1::timestamptz")}` : "";
    await connection.query(
      `update public.${ident(table.name)} set ${set} where (${held})${where}`,
      rule.where ? [madeAt] : [],
    );
  }
}

/**
 * How many draws keep a secret seed (live, or closed and not yet drawn): a backup holding them
 * must be encrypted, or anyone reading it could tell who will win.
 */
export async function undrawnDraws(connection: Connection) {
  const [exists] = await connection.query<{ found: boolean }>(
    "select to_regclass('public.draws') is not null as found",
  );
  if (!exists?.found) return 0;
  const [row] = await connection.query<{ count: string }>(
    "select count(*)::text as count from public.draws where seed is not null and status in ('live', 'closed')",
  );
  return Number(row!.count);
}
