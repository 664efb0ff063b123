import type { Attendee } from "~/features/gate/gate.server";
import { toCsv } from "~/ui/csv-download";

const STATUS_LABELS = {
  valid: "Not checked in",
  checked_in: "Checked in",
  cancelled: "Cancelled",
  refunded: "Refunded",
  transferred: "Transferred",
};

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
