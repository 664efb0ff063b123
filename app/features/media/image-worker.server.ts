import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { type ImageStep, imageSteps, withBuffers } from "./image-steps.server";

// An image worker: a thread of its own that runs the pipeline's heavy steps (decoding, HEIC's
// WebAssembly decoder included, crops, blurs and encodings), one at a time, as the pool in
// image-pool.server.ts hands them over, so the thread that answers requests never waits on them.

export type StepRequest = { id: number; step: ImageStep; args: unknown[] };
export type StepAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

const port = parentPort;
if (!port) throw new Error("image-worker.server.ts runs as a worker thread");

/**
 * On Linux each thread has its own nice value: this one gives way to the request thread when the
 * machine is busy (HEIC's decoder runs here, on this thread). Elsewhere it keeps the process's.
 */
function giveWay() {
  try {
    const thread = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(thread)) setPriority(thread, 10);
  } catch {
    // Not Linux, or not allowed: the worker runs at the process's priority.
  }
}
giveWay();

port.on("message", async ({ id, step, args }: StepRequest) => {
  let answer: StepAnswer;
  try {
    const run = imageSteps[step] as (...values: unknown[]) => Promise<unknown>;
    answer = { id, ok: true, value: await run(...withBuffers(args)) };
  } catch (error) {
    answer = { id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});
