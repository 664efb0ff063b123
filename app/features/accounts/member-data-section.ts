import { desc, eq, getTableName } from "drizzle-orm";
import type { PgColumn, PgTable, SelectedFields } from "drizzle-orm/pg-core";
import type { Db } from "~/server/db/client.server";

/**
 * The member's own data, for "Download my data" (UK GDPR, right of access) and for deleting an
 * account. Each area of the site describes what it keeps about a member in its own feature module: its
 * export section and, when the member deletes their account, what to erase or anonymise.
 * `privacy.server.ts` lists every area's sections.
 */
export type MemberDataSection = {
  /** The key of this section in the export file. */
  name: string;
  /** The tables this section covers, so the catch-all below does not list their rows twice. */
  tables: string[];
  collect(db: Db, userId: string): Promise<unknown>;
  /** Runs inside the deletion transaction, before the member's row is anonymised. */
  erase?(tx: Db, userId: string): Promise<void>;
};

/**
 * A section of one table's rows that belong to the member (`owner` holds their id): exported
 * newest first by `newest`, and deleted with the account unless `erase` says what to do instead.
 * `alsoCovers` names further tables whose rows go with these (and are not listed on their own).
 */
export function memberRowsSection({
  name,
  table,
  owner,
  columns,
  newest,
  erase,
  alsoCovers = [],
}: {
  name: string;
  table: PgTable;
  owner: PgColumn;
  columns: SelectedFields;
  newest: PgColumn;
  erase?: MemberDataSection["erase"];
  alsoCovers?: string[];
}): MemberDataSection {
  return {
    name,
    tables: [getTableName(table), ...alsoCovers],
    collect: (db, userId) => db.select(columns).from(table).where(eq(owner, userId)).orderBy(desc(newest)),
    erase:
      erase ??
      (async (tx, userId) => {
        await tx.delete(table).where(eq(owner, userId));
      }),
  };
}
