import type { Db } from "~/server/db/client.server";
import type { OutboundEmail } from "~/server/mail/mail.server";
import { waitingListEntries } from "../../../db/schema";
import { runWaitingLists } from "./offers.server";

/**
 * Puts these members on a ticket type's list in this order, written directly, each waiting for
 * `quantity` places (one by default).
 */
export async function joinInOrder(
  db: Db,
  ticketTypeId: string,
  members: readonly { id: string }[],
  options: { quantity?: number; from?: Date } = {},
) {
  const from = (options.from ?? new Date("2027-04-01T00:00:00Z")).getTime();
  if (members.length === 0) return [];
  return db
    .insert(waitingListEntries)
    .values(
      members.map((member, index) => ({
        ticketTypeId,
        userId: member.id,
        quantity: options.quantity ?? 1,
        sortKey: from + index * 1000,
      })),
    )
    .returning({ id: waitingListEntries.id, userId: waitingListEntries.userId });
}

/** Runs the waiting lists at `now`, collecting the emails it would send. */
export async function runListsAt(db: Db, now: Date, outbox: OutboundEmail[] = []) {
  const run = await runWaitingLists(
    {
      db,
      brand: { siteName: "Pitlane", siteUrl: "https://pitlane.test", timeZone: "Europe/London" },
      sendEmail: async (email) => {
        outbox.push(email);
      },
    },
    now,
  );
  return { ...run, outbox };
}
