import { type AttemptRule, countAttempt } from "~/features/accounts/attempts.server";
import { ipKey } from "~/features/accounts/ip-key";
import type { Db } from "~/server/db/client.server";
import { queueApplies } from "./queue-rules";
import { joinQueue, QUEUE_PLACES_PER_NETWORK, type QueueEvent } from "./waiting-room.server";

/**
 * Join attempts are limited per network, on top of the cap on places a network may hold: a
 * script cannot hammer the join button. Loose enough for a household or an office sharing one
 * address on a busy on-sale morning.
 */
export const QUEUE_JOIN_BY_IP: AttemptRule = { max: 20, windowSeconds: 10 * 60 };

export type JoinResult =
  | { ok: true; joined: boolean }
  | { ok: false; signIn: true }
  | { ok: false; signIn?: false; status: 400 | 429; message: string; retryAfterSeconds?: number };

/**
 * The queue page's Join: checks the event still queues, asks a visitor who is not signed in to
 * sign in (a place belongs to an account from the start, so nobody can collect places and hand
 * them on), counts the attempt, and takes the place within the network's cap.
 */
export async function joinFromQueuePage(
  db: Db,
  event: QueueEvent,
  input: { userId: string | null; ip: string; now: Date },
): Promise<JoinResult> {
  if (event.status !== "published" || !queueApplies(event)) {
    return { ok: false, status: 400, message: "This event has no queue to join: buy tickets on the event page." };
  }
  if (!input.userId) return { ok: false, signIn: true };
  const network = ipKey(input.ip);
  const attempt = await countAttempt(db, `queue-join:${network}`, QUEUE_JOIN_BY_IP, input.now);
  if (!attempt.allowed) {
    return {
      ok: false,
      status: 429,
      message: "Too many places have been taken from your network just now. Please wait a few minutes and try again.",
      retryAfterSeconds: attempt.retryAfterSeconds,
    };
  }
  const outcome = await joinQueue(db, event, { userId: input.userId, network, now: input.now });
  if (outcome.entry === null) {
    return {
      ok: false,
      status: 429,
      message: `Your network already holds ${QUEUE_PLACES_PER_NETWORK} places in this queue, the most one network may hold.`,
    };
  }
  return { ok: true, joined: outcome.joined };
}
