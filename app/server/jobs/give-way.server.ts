import { cpus } from "node:os";
import { performance } from "node:perf_hooks";

/** How background work gives way to the requests a server is answering. */
export type GiveWay = {
  /** The share of this process's main thread (0–1) above which the server counts as busy. */
  busyShare: number;
  /**
   * The share of the whole machine's CPU (0–1, every core together) above which the server counts
   * as busy too: on one machine with its database, a rush can fill the cores while each
   * process's own thread still has time to spare.
   */
  machineBusyShare: number;
  /** The window each look measures, in milliseconds. */
  windowMs: number;
  /** The longest a batch of jobs waits: under steady load, jobs still run at least this often. */
  maxWaitMs: number;
};

/**
 * A server's jobs (confirmation emails, refunds, housekeeping) share its main thread, and often
 * its machine, with the pages and payment notifications it answers. In a rush (an on-sale's last
 * places going, every payment notification arriving at once) the CPU is the bottleneck, and a job
 * run then slows the requests for no gain: an email a second later is as good. So a batch of jobs
 * waits while, over the last `windowMs`, the main thread was busy for more than `busyShare` of the
 * time or the machine's cores for more than `machineBusyShare`, up to `maxWaitMs`, and then runs
 * whatever the load: jobs are delayed, never starved. The window is long enough for the machine's
 * CPU times, which Linux counts in 10 ms ticks, to tell a full machine from a busy one.
 */
const GIVE_WAY: GiveWay = { busyShare: 0.5, machineBusyShare: 0.8, windowMs: 50, maxWaitMs: 1000 };

/** How much of the last window was busy: this process's main thread, and the whole machine. */
export type BusyShares = { mainThread: number; machine: number };

/**
 * Resolves once the server has had time to spare (see GIVE_WAY), or after `maxWaitMs` whatever the
 * load. Answers how long it waited, in milliseconds. `look` measures one window (tests pass their
 * own).
 */
export async function giveWay(
  options: GiveWay = GIVE_WAY,
  look: (windowMs: number) => Promise<BusyShares> = busyShares,
): Promise<number> {
  const started = performance.now();
  for (;;) {
    const shares = await look(options.windowMs);
    const waited = performance.now() - started;
    if (shares.mainThread <= options.busyShare && shares.machine <= options.machineBusyShare) return waited;
    if (waited >= options.maxWaitMs) return waited;
  }
}

/** Measures a window of `windowMs`: the main thread's event loop use, and the machine's cores. */
export async function busyShares(windowMs: number): Promise<BusyShares> {
  const loopBefore = performance.eventLoopUtilization();
  const machineBefore = machineCpu();
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  const machineAfter = machineCpu();
  const all = machineAfter.all - machineBefore.all;
  return {
    mainThread: performance.eventLoopUtilization(loopBefore).utilization,
    // No CPU times (a platform without them, or too short a window): the main thread decides.
    machine: all > 0 ? (machineAfter.busy - machineBefore.busy) / all : 0,
  };
}

/** The machine's CPU time so far, in milliseconds over every core: busy, and in all. */
function machineCpu() {
  let busy = 0;
  let all = 0;
  for (const { times } of cpus()) {
    const total = times.user + times.nice + times.sys + times.irq + times.idle;
    all += total;
    busy += total - times.idle;
  }
  return { busy, all };
}
