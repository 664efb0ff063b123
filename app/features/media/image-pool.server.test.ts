import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { createImagePool, ImageWorkBusy, MEMBER_BUSY, SITE_BUSY, setImagePool } from "./image-pool.server";
import { prepareUpload } from "./pipeline.server";
import { carPicture } from "./test-images.test-support";

// The image workers' queue (docs/media.md, "Off the main thread"): bounded, with a share per
// member and turns between members; what does not fit is a message to try again.

/** A 6000 × 4000 iPhone-style HEIC: about 20 kB on disk, seconds of WebAssembly to decode. */
const largeHeic = () => new Uint8Array(readFileSync(new URL("./fixtures/large-24mp.heic", import.meta.url)));

describe("the image workers' queue", () => {
  it("refuses, with a message to try again, a member past their share and anyone past the queue", async () => {
    const pool = createImagePool({ workers: 1, queue: 1, perMember: 1 });
    const check = { maxPixels: 100_000_000, noun: "photo" as const };
    try {
      const busy = pool.run("inspectUpload", [largeHeic(), check], { member: "ana" });
      // Ana's photo is in the worker: a second from her waits for nobody's place, it is refused.
      await expect(pool.run("inspectUpload", [largeHeic(), check], { member: "ana" })).rejects.toThrow(MEMBER_BUSY);
      // Ben's takes the one place in the queue; Cal finds it full.
      const waiting = pool.run("inspectUpload", [largeHeic(), check], { member: "ben" });
      const refused = pool.run("inspectUpload", [largeHeic(), check], { member: "cal" });
      await expect(refused).rejects.toBeInstanceOf(ImageWorkBusy);
      await expect(refused).rejects.toThrow(SITE_BUSY);
      // A later step of work already let in is never refused.
      const later = pool.run("inspectUpload", [largeHeic(), check], { follows: true });
      for (const outcome of await Promise.all([busy, waiting, later])) {
        expect(outcome).toEqual({ ok: true, kind: "heic", width: 6000, height: 4000 });
      }
      // Once done, Ana may send again.
      expect(await pool.run("inspectUpload", [largeHeic(), check], { member: "ana" })).toMatchObject({ ok: true });
    } finally {
      await pool.stop();
    }
  });

  it("refuses an upload that waited too long for a worker, before a proxy would give up on it", async () => {
    const pool = createImagePool({ workers: 1, queue: 4, perMember: 1, maxWaitMs: 300 });
    const check = { maxPixels: 100_000_000, noun: "photo" as const };
    // The wait is measured on a test clock, moved on before the worker can answer: however fast
    // the machine, Ana's photo still holds the one worker when Ben's time runs out.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const first = pool.run("inspectUpload", [largeHeic(), check], { member: "ana" });
      const second = pool.run("inspectUpload", [largeHeic(), check], { member: "ben" });
      vi.advanceTimersByTime(299);
      expect(pool.state()).toMatchObject({ busy: 1, waiting: 1 });
      vi.advanceTimersByTime(1);
      await expect(second).rejects.toThrow(SITE_BUSY);
      // Ben's refusal gave back his place (his share is one): he may send again at once.
      expect(pool.state()).toMatchObject({ busy: 1, waiting: 0 });
      const again = pool.run("inspectUpload", [largeHeic(), check], { member: "ben" });
      expect(pool.state()).toMatchObject({ busy: 1, waiting: 1 });
      vi.useRealTimers();
      expect(await first).toMatchObject({ ok: true });
      expect(await again).toMatchObject({ ok: true });
    } finally {
      vi.useRealTimers();
      await pool.stop();
    }
  });

  it("gives the next turn to the member who waited longest, not to the one with the most photos", async () => {
    const pool = createImagePool({ workers: 1, queue: 10, perMember: 5 });
    const check = { maxPixels: 100_000_000, noun: "photo" as const };
    const jpeg = new Uint8Array(await carPicture(640, 480).jpeg().toBuffer());
    const finished: string[] = [];
    const send = (name: string, member: string) =>
      pool.run("inspectUpload", [jpeg, check], { member }).then(() => finished.push(name));
    try {
      await Promise.all([send("ana 1", "ana"), send("ana 2", "ana"), send("ana 3", "ana"), send("ben 1", "ben")]);
      expect(finished).toEqual(["ana 1", "ben 1", "ana 2", "ana 3"]);
    } finally {
      await pool.stop();
    }
  });

  // Waits for a 24-megapixel HEIC to be decoded: seconds, more on a busy machine.
  it("answers a refusal, not an error, when an upload finds the workers full", { timeout: 180_000 }, async () => {
    const pool = createImagePool({ workers: 1, queue: 0, perMember: 1 });
    const previous = setImagePool(pool);
    try {
      const limits = { maxPixels: 100_000_000, maxSide: 800, noun: "photo" as const };
      const jpeg = await carPicture(640, 480).jpeg().toBuffer();
      // The HEIC takes the one worker at once, and keeps it through its decode.
      const first = prepareUpload(largeHeic(), limits);
      const second = await prepareUpload(jpeg, limits);
      expect(second).toEqual({ ok: false, message: SITE_BUSY });
      expect(await first).toMatchObject({ ok: true, kind: "heic" });
    } finally {
      setImagePool(previous);
      await pool.stop();
    }
  });
});
