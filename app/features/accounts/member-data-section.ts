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
