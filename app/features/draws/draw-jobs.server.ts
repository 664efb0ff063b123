import type { Db } from "~/server/db/client.server";
import { defineJob, type JobQueue } from "~/server/jobs/queue.server";
import { getLog } from "~/server/log.server";
import { closeDraw, drawsToClose, drawsToDraw, drawWinner } from "./closing.server";
import { drawResultsJob, recentlyDrawn } from "./results.server";

type DrawServices = { db: Db; jobs: Pick<JobQueue, "enqueue"> };

/**
 * Refunds every paid entry of a cancelled draw and has the refunds sent; answers how many orders
 * were refunded, and is safe to repeat. The composition root supplies it: refunds go through
 * every kind the site sells, the draws' own entries among them, so this area cannot name them.
 */
export type RefundDraw = (db: Db, input: { drawId: string; actorId: string | null; now: Date }) => Promise<number>;

/** `RefundDraw` for a job queue: the refunds it records are sent by the payments job it asks for. */
export type DrawRefunder = (jobs: Pick<JobQueue, "enqueue">) => RefundDraw;

/**
 * Every minute: closes draws whose time has come (or that sold out), applying their undersold
 * policy, draws those whose beacon value is known, and asks for the result emails of draws drawn
 * in the last two days (each entrant is emailed once, so asking again is harmless). Stately, so one run at a time across every
 * server; every step takes the draw's lock and is safe to repeat.
 */
function closeDrawsJob(refunder: DrawRefunder) {
  return defineJob<object, DrawServices>({
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
      const refundDraw = refunder(jobs);
      for (const drawId of await drawsToClose(db, now)) {
        const outcome = await closeDraw(db, { drawId, actorId: null, now });
        if (outcome === "refund") refunds += await refundDraw(db, { drawId, actorId: null, now });
        if (outcome !== "not_due") log.info({ drawId, outcome }, "draw closed");
      }
      for (const drawId of await drawsToDraw(db)) {
        const result = await drawWinner(db, { drawId, actorId: null, now });
        if (result.ok && !result.already) log.info({ drawId, winner: result.winner }, "draw drawn");
      }
      for (const drawId of await recentlyDrawn(db, now)) {
        await jobs.enqueue(drawResultsJob, { drawId }, { singletonKey: drawId });
      }
      if (refunds > 0) log.info({ refunds }, "cancelled draws refunded");
    },
  });
}

/** The draws' jobs, refunding cancelled draws through `refunder`. */
export function drawJobs(refunder: DrawRefunder) {
  return [closeDrawsJob(refunder), drawResultsJob];
}
