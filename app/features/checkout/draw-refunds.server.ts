import { ordersWithEntriesOf, refundableEntryLines } from "~/features/draws/closing.server";
import type { DrawRefunder } from "~/features/draws/draw-jobs.server";
import { refundEachOrder } from "~/features/orders/bulk-refunds.server";
import type { Db } from "~/server/db/client.server";
import type { JobQueue } from "~/server/jobs/queue.server";
import { queueRefunds } from "./payment-jobs.server";

/**
 * Refunds every paid entry of a cancelled draw, only that draw's lines, and asks the payments
 * job to send the refunds now; safe to repeat. Answers how many orders were refunded.
 */
export async function refundCancelledDraw(
  db: Db,
  jobs: Pick<JobQueue, "enqueue">,
  input: { drawId: string; actorId: string | null; now: Date },
) {
  const outcome = await refundEachOrder(db, {
    orderIds: await ordersWithEntriesOf(db, input.drawId),
    linesOf: (orderId) => refundableEntryLines(db, orderId, input.drawId),
    actorId: input.actorId,
    reason: "The prize draw was cancelled",
    now: input.now,
  });
  if (outcome.refunded.length > 0) await queueRefunds(jobs);
  return outcome.refunded.length;
}

/** How the draws area refunds a cancelled draw (`RefundDraw`), bound to a job queue. */
export const drawRefunder: DrawRefunder = (jobs) => (db, input) => refundCancelledDraw(db, jobs, input);
