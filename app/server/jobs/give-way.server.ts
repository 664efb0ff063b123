import { performance } from "node:perf_hooks";

/** How background work gives way to the requests a server is answering. */
export type GiveWay = {
  /** The share of the main thread's time (0–1) above which the server counts as busy. */
  busyShare: number;
  /** The window each look measures, in milliseconds. */
  windowMs: number;
  /** The longest a batch of jobs waits: under steady load, jobs still run at least this often. */
  maxWaitMs: number;
};

/**
 * A server's jobs (confirmation emails, refunds, housekeeping) share its main thread with the
 * pages and payment notifications it answers. In a rush (an on-sale's last places going, every
 * payment notification arriving at once) that thread is the bottleneck, and a job run then slows
 * the requests for no gain: an email a second later is as good. So a batch of jobs waits while
 * the main thread has been busy for more than `busyShare` of the last `windowMs`, up to
 * `maxWaitMs`, and then runs whatever the load: jobs are delayed, never starved.
 */
export const GIVE_WAY: GiveWay = { busyShare: 0.5, windowMs: 20, maxWaitMs: 1000 };

/**
 * Resolves once this process's main thread has had time to spare (busy for at most
 * `busyShare` of a window of `windowMs`), or after `maxWaitMs` whatever the load. Answers how
 * long it waited, in milliseconds.
 */
export async function giveWay(options: GiveWay = GIVE_WAY): Promise<number> {
  const started = performance.now();
  for (;;) {
    const before = performance.eventLoopUtilization();
    await new Promise((resolve) => setTimeout(resolve, options.windowMs));
    const waited = performance.now() - started;
    if (performance.eventLoopUtilization(before).utilization <= options.busyShare) return waited;
    if (waited >= options.maxWaitMs) return waited;
  }
}
