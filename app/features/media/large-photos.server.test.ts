import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeCarPhoto } from "./car-photos.server";
import { type MediaStore, mediaStore } from "./media-stores.test-support";

// Large photos cannot stall the site (docs/media.md, "Off the main thread"; docs/security.md):
// decoding and encoding run in an image worker, so the thread that answers every request keeps
// answering while a member's 24-megapixel HEIC is decoded.

let store: MediaStore;
beforeAll(async () => {
  store = await mediaStore();
});
afterAll(() => store.stop());

/** A 6000 × 4000 iPhone-style HEIC: about 20 kB on disk, seconds of WebAssembly to decode. */
const largeHeic = () => new Uint8Array(readFileSync(new URL("./fixtures/large-24mp.heic", import.meta.url)));

/** Runs `work` while a timer asks to run every 10 ms; answers the longest the timer had to wait. */
async function longestStall(work: () => Promise<unknown>) {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  longest = Math.max(longest, performance.now() - last);
  return { longest, elapsed: performance.now() - started };
}

describe("a large HEIC photo", () => {
  it("is decoded and stored while this thread keeps answering: no wait of even a fifth of the upload", {
    timeout: 180_000,
  }, async () => {
    const { longest, elapsed } = await longestStall(async () => {
      const outcome = await storeCarPhoto(store.storage, largeHeic(), { member: "member-1" });
      if (!outcome.ok) throw new Error(outcome.message);
      // Scaled to the original's 3200 pixels, the decoded picture is what was sent.
      expect(outcome.photo).toMatchObject({ width: 3200, height: 2133 });
    });
    // Decoding it on this thread stopped every timer (every request) for most of the upload.
    expect(longest, `the longest wait was ${Math.round(longest)} ms of ${Math.round(elapsed)} ms`).toBeLessThan(
      Math.min(1000, elapsed / 5),
    );
  });
});
