import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { countOf } from "~/ui/plural";
import type { SyncedSave } from "./marking.server";
import { MARKS_BATCH } from "./marking-schemas";

/**
 * A judge's saves kept on the phone (docs/car-shows.md), in the browser's localStorage: a save that
 * could not reach the server (no signal, or no answer in time) waits here and is sent to the sync
 * address when the connection comes back, on the `online` event, when the page loads, and every
 * 15 seconds while anything waits. Each keeps the time it was made, so a late one never overwrites
 * a newer mark.
 */

/** One save of one car's marks, as the sync address takes it. */
export type QueuedSave = {
  id: string;
  applicationId: string;
  savedAt: string;
  marks: { criterionId: string; value: number }[];
};

/** What became of a save: sent and saved, kept on the phone, or answered by the server otherwise. */
export type SaveAnswer = { outcome: SyncedSave["outcome"] | "queued"; message: string };

const QUEUED_MESSAGE = "Saved on this phone, will send when online";

const SYNC_EVERY_MS = 15_000;
/** How long a save waits for the server before the phone keeps it. */
const SERVER_WAIT_MS = 6000;

/** A phone may pass between judges: each judge's saves wait apart, and only they send them. */
type Owner = { eventId: string; judgeId: string };

const keyOf = ({ eventId, judgeId }: Owner) => `pitlane-judging-outbox:${eventId}:${judgeId}`;

function readOutbox(owner: Owner): QueuedSave[] {
  try {
    const stored = JSON.parse(localStorage.getItem(keyOf(owner)) ?? "[]") as unknown;
    return Array.isArray(stored) ? (stored as QueuedSave[]) : [];
  } catch {
    return [];
  }
}

function writeOutbox(owner: Owner, saves: readonly QueuedSave[]) {
  if (saves.length === 0) localStorage.removeItem(keyOf(owner));
  else localStorage.setItem(keyOf(owner), JSON.stringify(saves));
}

/** Sends saves to the sync address; null when the server could not be reached or did not answer. */
async function send(
  eventId: string,
  items: readonly QueuedSave[],
  signal?: AbortSignal,
): Promise<{ synced: SyncedSave[] } | { error: string } | null> {
  try {
    const response = await fetch(`/members/judging/${eventId}/sync`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ items }),
      signal,
    });
    if (response.status >= 500) return null;
    const answer = (await response.json().catch(() => null)) as { synced?: SyncedSave[]; error?: string } | null;
    if (!response.ok || !answer?.synced) {
      return { error: answer?.error ?? `The server refused the marks (error ${response.status})` };
    }
    return { synced: answer.synced };
  } catch {
    return null;
  }
}

/**
 * The phone's outbox for one event. `save` sends a save at once while online and keeps it when that
 * fails; `pending` is what waits; `refused` lists what the server turned down after waiting, so the
 * judge can mark those cars again. `onSent` hears when saves reached the server, to reload marks.
 */
export function useJudgingOutbox(eventId: string, judgeId: string, onSent: () => void) {
  const [pending, setPending] = useState<QueuedSave[]>([]);
  const [online, setOnline] = useState(true);
  const [message, setMessage] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ applicationId: string; message: string }[]>([]);
  const owner = useMemo(() => ({ eventId, judgeId }), [eventId, judgeId]);
  const syncing = useRef(false);
  const heard = useRef(onSent);
  heard.current = onSent;

  const sync = useCallback(async () => {
    if (syncing.current || !navigator.onLine) return;
    syncing.current = true;
    try {
      let sent = 0;
      for (;;) {
        const batch = readOutbox(owner).slice(0, MARKS_BATCH);
        if (batch.length === 0) break;
        const answer = await send(eventId, batch);
        if (!answer) break;
        if ("error" in answer) {
          setMessage(`The marks kept on this phone could not be sent: ${answer.error}.`);
          break;
        }
        const answered = new Set(answer.synced.map((save) => save.id));
        writeOutbox(
          owner,
          readOutbox(owner).filter((save) => !answered.has(save.id)),
        );
        const byId = new Map(batch.map((save) => [save.id, save]));
        const turnedDown = answer.synced.flatMap((save) =>
          save.outcome === "refused"
            ? [{ applicationId: byId.get(save.id)?.applicationId ?? "", message: save.message }]
            : [],
        );
        if (turnedDown.length > 0) setRefused((current) => [...current, ...turnedDown]);
        sent += answer.synced.length;
      }
      setPending(readOutbox(owner));
      if (sent > 0) {
        setMessage(`Sent ${countOf(sent, "save", "saves")} kept on this phone.`);
        heard.current();
      }
    } finally {
      syncing.current = false;
    }
  }, [eventId, owner]);

  useEffect(() => {
    setOnline(navigator.onLine);
    setPending(readOutbox(owner));
    void sync();
    const wentOnline = () => {
      setOnline(true);
      void sync();
    };
    const wentOffline = () => setOnline(false);
    window.addEventListener("online", wentOnline);
    window.addEventListener("offline", wentOffline);
    const timer = window.setInterval(() => {
      if (readOutbox(owner).length > 0) void sync();
    }, SYNC_EVERY_MS);
    return () => {
      window.removeEventListener("online", wentOnline);
      window.removeEventListener("offline", wentOffline);
      window.clearInterval(timer);
    };
  }, [owner, sync]);

  /**
   * Saves one car's marks: straight to the server while it answers within a few seconds;
   * otherwise kept on the phone under the same id, so a save the server did receive is never
   * counted twice (the same save again changes nothing).
   */
  const save = useCallback(
    async (item: QueuedSave): Promise<SaveAnswer> => {
      if (navigator.onLine && readOutbox(owner).length === 0) {
        const controller = new AbortController();
        const timer = window.setTimeout(() => controller.abort(), SERVER_WAIT_MS);
        const answer = await send(eventId, [item], controller.signal);
        window.clearTimeout(timer);
        if (answer && "synced" in answer) {
          const own = answer.synced[0];
          if (own) {
            heard.current();
            return { outcome: own.outcome, message: own.message };
          }
        }
        if (answer && "error" in answer) return { outcome: "refused", message: answer.error };
      }
      // Kept behind any saves still waiting, so they reach the server in the order made.
      writeOutbox(owner, [...readOutbox(owner), item]);
      setPending(readOutbox(owner));
      // Online with saves waiting: they go now, this one behind them.
      if (navigator.onLine) void sync();
      return { outcome: "queued", message: QUEUED_MESSAGE };
    },
    [eventId, owner, sync],
  );

  return { pending, online, message, refused, sync, save };
}

export type JudgingOutbox = ReturnType<typeof useJudgingOutbox>;
