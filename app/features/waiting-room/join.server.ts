import { type AttemptRule, countAttempt } from "~/features/accounts/attempts.server";
import { ipKey } from "~/features/accounts/ip-key";
import type { Db } from "~/server/db/client.server";
import { queueApplies } from "./queue-rules";
import { joinQueue, type QueueEvent, type QueueVisitor } from "./waiting-room.server";

/**
 * Joins are limited per network: a script minting cookies could otherwise take many places.
 * Loose enough for a household or an office sharing one address on a busy on-sale morning.
 */
export const QUEUE_JOIN_BY_IP: AttemptRule = { max: 20, windowSeconds: 10 * 60 };

export type JoinResult =
  | { ok: true; joined: boolean }
  | { ok: false; status: 400 | 429; message: string; retryAfterSeconds?: number };

/** The queue page's Join: checks the event still queues, counts the attempt, takes the place. */
export async function joinFromQueuePage(
  db: Db,
  event: QueueEvent,
  input: { visitor: QueueVisitor; newToken: string; ip: string; now: Date },
): Promise<JoinResult> {
  if (event.status !== "published" || !queueApplies(event)) {
    return { ok: false, status: 400, message: "This event has no queue to join: buy tickets on the event page." };
  }
  const attempt = await countAttempt(db, `queue-join:${ipKey(input.ip)}`, QUEUE_JOIN_BY_IP, input.now);
  if (!attempt.allowed) {
    return {
      ok: false,
      status: 429,
      message: "Too many places have been taken from your network just now. Please wait a few minutes and try again.",
      retryAfterSeconds: attempt.retryAfterSeconds,
    };
  }
  const { joined } = await joinQueue(db, event, input);
  return { ok: true, joined };
}
