import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { giveWay } from "./give-way.server";

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

const options = { busyShare: 0.5, windowMs: 20, maxWaitMs: 3000 };

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
});
