import { toCsv } from "~/ui/csv-download";
import type { EntrySource } from "../../../../db/schema";

/** One entry as the CSV needs it; dates already as text in the site's zone. */
export type CsvEntry = {
  number: number;
  source: EntrySource;
  status: "valid" | "void";
  eligible: boolean;
  memberName: string | null;
  memberEmail: string | null;
  postalName: string | null;
  postalAddress: string | null;
  createdAt: string;
  receivedAt: string | null;
};

const SOURCE_LABELS: Record<EntrySource, string> = { paid: "Paid", postal: "Postal", free: "Free" };

/**
 * A draw's entries as CSV, by number. Every cell goes through the tickets' CSV cell, which
 * defuses spreadsheet formulas, so an entrant's name or address can never run as a command.
 * "Eligible" is what the draw uses: valid and answered correctly.
 */
export function drawEntriesCsv(entries: CsvEntry[]) {
  return toCsv([
    [
      "Number",
      "Source",
      "Name",
      "Email",
      "Postal address",
      "Answer correct",
      "Eligible",
      "Status",
      "Created",
      "Received",
    ],
    ...entries.map((entry) => [
      entry.number,
      SOURCE_LABELS[entry.source],
      entry.memberName ?? entry.postalName,
      entry.memberEmail,
      entry.postalAddress,
      entry.eligible ? "Yes" : "No",
      entry.eligible && entry.status === "valid" ? "Yes" : "No",
      entry.status === "valid" ? "Valid" : "Void",
      entry.createdAt,
      entry.receivedAt,
    ]),
  ]);
}
