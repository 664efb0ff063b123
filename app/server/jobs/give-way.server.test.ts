import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { type BusyShares, busyShares, giveWay } from "./give-way.server";

/**
 * Keeps the main thread busy for `ms`, in slices of 10 ms with the event loop let through between
 * them, as a server answering a rush of requests does. Resolves when the spell ends.
 */
function busySpell(ms: number) {
  const until = performance.now() + ms;
  return new Promise<void>((resolve) => {
    const slice = () => {
      const sliceEnd = Math.min(until, performance.now() + 10);
      while (performance.now() < sliceEnd) {
        // Working.
      }
      if (performance.now() >= until) resolve();
      else setImmediate(slice);
    };
    setImmediate(slice);
  });
}

// The machine's share is left out here (1 is never exceeded): tests run beside other test files,
// which keep the machine busy whatever this one does. The machine's rule is tested below on
// measures given to it.
const options = { busyShare: 0.5, machineBusyShare: 1, windowMs: 20, maxWaitMs: 3000 };

/** A look that answers the given measures in turn, the last one from then on, counting its calls. */
function looks(...measures: BusyShares[]) {
  let calls = 0;
  const look = async () => measures[Math.min(calls++, measures.length - 1)]!;
  return { look, calls: () => calls };
}

describe("giveWay", () => {
  it("lets a batch run after one look when the server has time to spare", async () => {
    const waited = await giveWay(options);
    expect(waited).toBeLessThan(options.maxWaitMs);
  });

  it("waits while the server is busy, and goes once the busy spell ends", async () => {
    const started = performance.now();
    const spell = busySpell(300);
    const waited = await giveWay(options);
    const spellEnded = await spell.then(() => performance.now() - started);
    // Not before the spell ended (less a window's worth of looking), and well before the limit.
    expect(waited).toBeGreaterThanOrEqual(spellEnded - options.windowMs * 2);
    expect(waited).toBeLessThan(options.maxWaitMs);
  });

  it("never waits past its limit, so jobs still run under steady load", async () => {
    const spell = busySpell(1500);
    const waited = await giveWay({ ...options, maxWaitMs: 200 });
    expect(waited).toBeGreaterThanOrEqual(200);
    expect(waited).toBeLessThan(1500);
    await spell;
  });

  it("waits while the machine's cores are full, even with the main thread to spare", async () => {
    const idle = { mainThread: 0.1, machine: 0.3 };
    const full = { mainThread: 0.1, machine: 0.95 };
    const machine = looks(full, full, full, idle);
    await giveWay({ ...options, machineBusyShare: 0.8 }, machine.look);
    expect(machine.calls()).toBe(4);

    const busyThread = looks({ mainThread: 0.9, machine: 0.3 }, idle);
    await giveWay({ ...options, machineBusyShare: 0.8 }, busyThread.look);
    expect(busyThread.calls()).toBe(2);
  });

  it("measures the main thread and the machine over a window, each as a share of it", async () => {
    const spell = busySpell(200);
    const shares = await busyShares(100);
    await spell;
    expect(shares.mainThread).toBeGreaterThan(0.5);
    expect(shares.mainThread).toBeLessThanOrEqual(1);
    // One core kept busy the whole window. Linux counts CPU time in 10 ms ticks, so the
    // machine's share is coarse: at least about one core's share, never above the whole.
    expect(shares.machine).toBeGreaterThanOrEqual(0.5 / cpus().length);
    expect(shares.machine).toBeLessThanOrEqual(1);
  });
});
