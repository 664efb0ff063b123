import type { Attendee } from "~/features/gate/gate.server";

const STATUS_LABELS = {
  valid: "Not checked in",
  checked_in: "Checked in",
  cancelled: "Cancelled",
  refunded: "Refunded",
};

/**
 * One CSV cell. Quoted when it holds a comma, quote or line break (RFC 4180). A cell that starts
 * with = + - @ (or a tab or carriage return) would run as a formula when the file is opened in a
 * spreadsheet, so it gets a leading apostrophe: a buyer's name can never become a command.
 */
export function csvCell(value: string | number | null | undefined) {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: (string | number | null | undefined)[][]) {
  return `${rows.map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`;
}

export function attendeesCsv(attendees: Attendee[]) {
  return toCsv([
    ["Name", "Email", "Ticket type", "Code ends", "Status", "Checked in", "Checked in by"],
    ...attendees.map((attendee) => [
      attendee.name,
      attendee.email,
      attendee.ticketType,
      attendee.codeEnd,
      STATUS_LABELS[attendee.status],
      attendee.checkedInAt,
      attendee.checkedInBy,
    ]),
  ]);
}

export { STATUS_LABELS as ATTENDEE_STATUS_LABELS };
