import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
// The image library is loaded by this thread before any worker loads it, so its shared
// libraries stay open for the whole life of the process, whichever worker stops.
import "sharp";
import { getEnv } from "~/server/env.server";
import { type ImageStep, type ImageSteps, withBuffers } from "./image-steps.server";
import type { StepAnswer, StepRequest } from "./image-worker.server";

// The image workers (docs/media.md, "Off the main thread"): a few threads, sized to the machine,
// that run every heavy step of the pipeline, so one member's large photos never hold up another
// request. Work waits in a bounded queue; a member has a share of it, and what does not fit is
// refused with a message to try again, never queued without end.

/** Refused because the workers and their queue are full: a message to try again, not an error page. */
export class ImageWorkBusy extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImageWorkBusy";
  }
}

export const SITE_BUSY = "The site is busy with other photos just now. Try again in a minute.";
export const MEMBER_BUSY = "Your other photos are still being processed. Try this one again in a moment.";

export type ImagePoolSettings = {
  /** Threads that decode and encode pictures. */
  workers: number;
  /** Uploads that may wait for a worker, site-wide; the next one is refused. */
  queue: number;
  /** Uploads one member may have waiting or in a worker at once. */
  perMember: number;
  /**
   * How long a member's upload may wait for a worker before it is refused (30 s unless said): the
   * answer then still comes well before a proxy gives up on the request (nginx's 60 s,
   * docs/deploy.md), which would leave the photo made but the uploader told it failed. Work with
   * no member (staff uploads, the demo content) waits its turn however long it takes.
   */
  maxWaitMs?: number;
};

const MAX_WAIT_MS = 30_000;

export type RunOptions = {
  /** Whose upload this is: their share of the queue is counted. */
  member?: string;
  /**
   * A later step of work already let in (a crop after the decode): never refused, and taken
   * before new uploads, so what was started finishes.
   */
  follows?: boolean;
};

type Task = {
  id: number;
  step: ImageStep;
  args: unknown[];
  member: string | null;
  follows: boolean;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Refuses the upload once it has waited too long. */
  expiry?: ReturnType<typeof setTimeout>;
};
type Slot = { worker: Worker; task: Task | null };

/** One thread fewer than the machine has, at least one: the request thread keeps a core to itself. */
function defaultImageWorkers() {
  return Math.max(1, availableParallelism() - 1);
}

// Workers run this file's TypeScript beside it through tsx, in tests and dev as in the built
// server, which bundles the app but runs from the project's folder (like its migrations).
const SOURCE = "app/features/media/image-worker.server.ts";
function workerEntry() {
  const beside = fileURLToPath(new URL("./image-worker.server.ts", import.meta.url));
  return pathToFileURL(existsSync(beside) ? beside : path.resolve(process.cwd(), SOURCE)).href;
}
const BOOTSTRAP = `
const { workerData } = require("node:worker_threads");
import("tsx/esm/api").then((tsx) => { tsx.register(); return import(workerData.entry); });
`;

export function createImagePool(settings: ImagePoolSettings) {
  const slots: Slot[] = [];
  const waiting: Task[] = [];
  const inFlight = new Map<string, number>();
  let nextId = 1;
  let stopped = false;

  // Turns: the member whose upload went to a worker longest ago goes next (uploads with no
  // member share one turn), so one member's batch never holds back another member's photo.
  const lastTurn = new Map<string, number>();
  let turns = 0;

  /** Later steps first; then the oldest upload of whoever has waited longest for a turn. */
  function nextTask() {
    const follow = waiting.findIndex((task) => task.follows);
    if (follow >= 0) return waiting.splice(follow, 1)[0];
    let best = -1;
    let bestTurn = Number.POSITIVE_INFINITY;
    for (const [index, task] of waiting.entries()) {
      const turn = lastTurn.get(task.member ?? "") ?? 0;
      if (turn < bestTurn) [best, bestTurn] = [index, turn];
    }
    const task = best < 0 ? undefined : waiting.splice(best, 1)[0];
    if (task) lastTurn.set(task.member ?? "", ++turns);
    clearTimeout(task?.expiry);
    return task;
  }

  function settle(task: Task) {
    if (task.member === null || task.follows) return;
    const count = (inFlight.get(task.member) ?? 1) - 1;
    if (count > 0) inFlight.set(task.member, count);
    else inFlight.delete(task.member);
  }

  function spawn(): Slot {
    const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { entry: workerEntry() } });
    const slot: Slot = { worker, task: null };
    worker.on("message", (answer: StepAnswer) => {
      const task = slot.task;
      if (!task || task.id !== answer.id) return;
      slot.task = null;
      worker.unref();
      settle(task);
      if (answer.ok) task.resolve(withBuffers(answer.value));
      else task.reject(new Error(answer.message));
      dispatch();
      // Nothing left to share: the turns start again from nobody.
      if (waiting.length === 0 && slots.every((candidate) => candidate.task === null)) lastTurn.clear();
    });
    // A worker that stops (out of memory, a crash in a decoder) fails only the step it was on.
    const lost = (error: Error) => {
      const index = slots.indexOf(slot);
      if (index < 0) return;
      slots.splice(index, 1);
      const task = slot.task;
      slot.task = null;
      if (task) {
        settle(task);
        task.reject(error);
      }
      dispatch();
    };
    worker.on("error", lost);
    worker.on("exit", (code) => lost(new Error(`An image worker stopped (exit code ${code})`)));
    worker.unref();
    slots.push(slot);
    return slot;
  }

  function dispatch() {
    while (!stopped && waiting.length > 0) {
      const slot =
        slots.find((candidate) => candidate.task === null) ?? (slots.length < settings.workers ? spawn() : null);
      if (!slot) return;
      const task = nextTask();
      if (!task) return;
      slot.task = task;
      // A worker at work keeps the process alive; an idle one does not.
      slot.worker.ref();
      slot.worker.postMessage({ id: task.id, step: task.step, args: task.args } satisfies StepRequest);
    }
  }

  return {
    settings,
    /** Runs one step in a worker; throws ImageWorkBusy when it cannot be let in. */
    run<S extends ImageStep>(
      step: S,
      args: Parameters<ImageSteps[S]>,
      options: RunOptions = {},
    ): Promise<Awaited<ReturnType<ImageSteps[S]>>> {
      const member = options.member ?? null;
      const follows = options.follows ?? false;
      if (!follows) {
        const idle = slots.some((slot) => slot.task === null) || slots.length < settings.workers;
        const queued = waiting.filter((task) => !task.follows).length;
        if (!idle && queued >= settings.queue) return Promise.reject(new ImageWorkBusy(SITE_BUSY));
        if (member !== null && (inFlight.get(member) ?? 0) >= settings.perMember) {
          return Promise.reject(new ImageWorkBusy(MEMBER_BUSY));
        }
        if (member !== null) inFlight.set(member, (inFlight.get(member) ?? 0) + 1);
      }
      return new Promise((resolve, reject) => {
        const task: Task = {
          id: nextId++,
          step,
          args,
          member,
          follows,
          resolve: resolve as (value: unknown) => void,
          reject,
        };
        if (!follows && member !== null) {
          task.expiry = setTimeout(() => {
            const index = waiting.indexOf(task);
            if (index < 0) return;
            waiting.splice(index, 1);
            settle(task);
            reject(new ImageWorkBusy(SITE_BUSY));
          }, settings.maxWaitMs ?? MAX_WAIT_MS);
          task.expiry.unref();
        }
        waiting.push(task);
        dispatch();
      });
    },
    /** What the pool holds now (tests, metrics). */
    state() {
      return {
        workers: slots.length,
        busy: slots.filter((slot) => slot.task !== null).length,
        waiting: waiting.length,
      };
    },
    /** Stops every worker; what was waiting is refused. */
    async stop() {
      stopped = true;
      for (const task of waiting.splice(0)) {
        clearTimeout(task.expiry);
        task.reject(new ImageWorkBusy(SITE_BUSY));
      }
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  };
}

export type ImagePool = ReturnType<typeof createImagePool>;

/** The settings the site runs with: MEDIA_WORKERS, MEDIA_QUEUE and MEDIA_QUEUE_PER_MEMBER. */
function configuredSettings(): ImagePoolSettings {
  const env = getEnv();
  return {
    workers: env.MEDIA_WORKERS ?? defaultImageWorkers(),
    queue: env.MEDIA_QUEUE,
    perMember: env.MEDIA_QUEUE_PER_MEMBER,
  };
}

// One pool per process, kept across dev reloads like the database.
const globalPool = globalThis as unknown as { __pitlaneImagePool?: ImagePool };

/** The process's image workers, started when the first picture needs them. */
export function imagePool(): ImagePool {
  globalPool.__pitlaneImagePool ??= createImagePool(configuredSettings());
  return globalPool.__pitlaneImagePool;
}

/** Used by tests that need a pool of another size in the same process; answers the one it replaces. */
export function setImagePool(pool: ImagePool | undefined) {
  const previous = globalPool.__pitlaneImagePool;
  globalPool.__pitlaneImagePool = pool;
  return previous;
}
