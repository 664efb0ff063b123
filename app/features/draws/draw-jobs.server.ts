import { sendRefundsJob } from "~/features/checkout/payment-jobs.server";
import { refundEachOrder } from "~/features/orders/bulk-refunds.server";
import type { Db } from "~/server/db/client.server";
import { defineJob, type JobQueue } from "~/server/jobs/queue.server";
import { getLog } from "~/server/log.server";
import {
  closeDraw,
  drawsToClose,
  drawsToDraw,
  drawWinner,
  ordersWithEntriesOf,
  refundableEntryLines,
} from "./closing.server";
import { drawResultsJob, recentlyDrawn } from "./results.server";

type DrawServices = { db: Db; jobs: Pick<JobQueue, "enqueue"> };

/** Refunds every paid entry of a cancelled draw, only that draw's lines; safe to repeat. */
export async function refundCancelledDraw(db: Db, input: { drawId: string; actorId: string | null; now: Date }) {
  const outcome = await refundEachOrder(db, {
    orderIds: await ordersWithEntriesOf(db, input.drawId),
    linesOf: (orderId) => refundableEntryLines(db, orderId, input.drawId),
    actorId: input.actorId,
    reason: "The prize draw was cancelled",
    now: input.now,
  });
  return outcome.refunded.length;
}

/**
 * Every minute: closes draws whose time has come (or that sold out), applying their undersold
 * policy, draws those whose beacon value is known, and asks for the result emails of draws drawn
 * in the last two days (each entrant is emailed once, so asking again is harmless). Stately, so one run at a time across every
 * server; every step takes the draw's lock and is safe to repeat.
 */
const closeDrawsJob = defineJob<object, DrawServices>({
  name: "close-draws",
  expireInSeconds: 600,
  schedule: "* * * * *",
  policy: "stately",
  retryLimit: 2,
  retryDelay: 30,
  handler: async (_data, { db, jobs }) => {
    const now = new Date();
    const log = getLog();
    let refunds = 0;
    for (const drawId of await drawsToClose(db, now)) {
      const outcome = await closeDraw(db, { drawId, actorId: null, now });
      if (outcome === "refund") refunds += await refundCancelledDraw(db, { drawId, actorId: null, now });
      if (outcome !== "not_due") log.info({ drawId, outcome }, "draw closed");
    }
    for (const drawId of await drawsToDraw(db)) {
      const result = await drawWinner(db, { drawId, actorId: null, now });
      if (result.ok && !result.already) log.info({ drawId, winner: result.winner }, "draw drawn");
    }
    for (const drawId of await recentlyDrawn(db, now)) {
      await jobs.enqueue(drawResultsJob, { drawId }, { singletonKey: drawId });
    }
    // Refunds just recorded go out with the payments job's next run; ask for it now.
    if (refunds > 0) await jobs.enqueue(sendRefundsJob, {});
  },
});

export const drawJobs = [closeDrawsJob, drawResultsJob];
