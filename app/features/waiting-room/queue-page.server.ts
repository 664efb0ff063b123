import { formatEventInstant } from "~/features/dates/event-dates";
import type { Db } from "~/server/db/client.server";
import type { QueueNoticeData } from "./queue-notice";
import { describeExpectedWait, queueApplies, turnAt } from "./queue-rules";
import {
  findPlace,
  placesAhead,
  type QueueEvent,
  type QueueVisitor,
  queueLength,
  takeTurnIfDue,
} from "./waiting-room.server";

/** The event page's queue notice, or null when the event sells without a queue. */
export function queueNoticeFor(event: QueueEvent, now: Date): QueueNoticeData | null {
  if (event.status !== "published" || !queueApplies(event)) return null;
  return {
    href: `/events/${event.slug}/queue`,
    opensAt: now < event.opensAt ? formatEventInstant(event.opensAt, event.timeZone) : null,
  };
}

/** What the queue page shows the visitor, worked out on the server at every refresh. */
export type QueueView =
  | { kind: "no_queue" }
  | { kind: "closed" }
  | { kind: "join"; opensAt: string | null; waiting: number; signedIn: boolean }
  | { kind: "before_opening"; opensAt: string; waiting: number }
  | {
      kind: "waiting";
      position: number;
      ahead: number;
      expectedWait: string;
      turnAt: string;
      ratePerMinute: number;
    }
  | { kind: "your_turn"; endsAt: string }
  | { kind: "turn_over"; endedAt: string };

/**
 * The visitor's state in the event's queue at `now`. Reading the page is also what gives a place
 * its turn once its position is reached, so no script has to stay open to keep or claim it.
 */
export async function queueViewFor(db: Db, event: QueueEvent, visitor: QueueVisitor, now: Date): Promise<QueueView> {
  if (event.status === "cancelled") return { kind: "closed" };
  if (!queueApplies(event)) return { kind: "no_queue" };
  const when = (instant: Date) => formatEventInstant(instant, event.timeZone);
  const found = await findPlace(db, event.id, visitor);
  if (!found) {
    const waiting = await queueLength(db, event.id);
    const opensAt = now < event.opensAt ? when(event.opensAt) : null;
    return { kind: "join", opensAt, waiting, signedIn: visitor.userId !== null };
  }
  if (now < event.opensAt) {
    return { kind: "before_opening", opensAt: when(event.opensAt), waiting: await queueLength(db, event.id) };
  }
  const place = await takeTurnIfDue(db, event, found, now);
  if (place.admittedAt && place.admissionEndsAt) {
    if (place.admissionEndsAt <= now) return { kind: "turn_over", endedAt: when(place.admissionEndsAt) };
    return { kind: "your_turn", endsAt: when(place.admissionEndsAt) };
  }
  const ahead = await placesAhead(db, event, place);
  const position = ahead + 1;
  const turn = turnAt(event, position);
  return {
    kind: "waiting",
    position,
    ahead,
    // The wait is until the minute whose batch reaches this position.
    expectedWait: describeExpectedWait(Math.max(0, turn.getTime() - now.getTime())),
    turnAt: when(turn),
    ratePerMinute: event.ratePerMinute,
  };
}
