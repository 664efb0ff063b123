import { CloudOff, Download, RefreshCw } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { GateMerchOrder } from "~/features/fulfilment/gate-merch";
import { preloadScanner } from "~/features/tickets/ticket-scanner";
import { Card } from "~/ui/card";
import { inputClass } from "~/ui/form";
import { countOf } from "~/ui/plural";
import type { GateResult } from "./gate.server";
import {
  type AdmissionList,
  decideOffline,
  type GateDirection,
  gateTime,
  NOT_A_TICKET,
  type OfflineAnswer,
  TONE_OF,
} from "./offline-rules";
import {
  hashOf,
  outboxOf,
  readList,
  readScanned,
  recordMove,
  recordScan,
  removeFromOutbox,
  type StoredList,
  saveList,
  withMove,
} from "./offline-store";
import { SYNC_BATCH } from "./schemas";

const GATE_NAME_KEY = "pitlane-gate-name";
const SYNC_EVERY_MS = 15_000;
/** How long a scan waits for the server before the device decides it on its own. */
const SERVER_WAIT_MS = 4000;

type Synced = { id: string; conflict: string | null };

/** What the gate shows for a scan, from the server or from this device. */
export type ScanAnswer = { result: GateResult; merch: GateMerchOrder[] };

/**
 * The gate without signal (docs/gate.md): the event's admission list kept on this device, scans
 * decided here while the device is offline and queued, and the queue sent back in scan order when
 * the connection returns (and every 15 seconds while anything waits). `onSynced` hears how many
 * conflicts the server found, so the page can show them.
 */
export function useOfflineGate(eventId: string, onSynced: (conflicts: number) => void) {
  const [online, setOnline] = useState(true);
  const [stored, setStored] = useState<StoredList | null>(null);
  const [pending, setPending] = useState(0);
  const [gate, setGate] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const syncing = useRef(false);
  const heard = useRef(onSynced);
  heard.current = onSynced;

  const byHash = useMemo(() => new Map(stored?.list.entries.map((entry) => [entry.h, entry]) ?? []), [stored]);

  const sync = useCallback(async () => {
    if (syncing.current || !navigator.onLine) return;
    syncing.current = true;
    try {
      let sent = 0;
      let conflicts = 0;
      for (;;) {
        const batch = (await outboxOf(eventId)).slice(0, SYNC_BATCH);
        if (batch.length === 0) break;
        const response = await fetch(`/admin/events/${eventId}/checkin/sync`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            gate: localStorage.getItem(GATE_NAME_KEY) || "Unnamed",
            scans: batch.map(({ id, value, at, local, direction }) => ({ id, value, at, local, direction })),
          }),
        });
        if (!response.ok) {
          const answer = (await response.json().catch(() => null)) as { error?: string } | null;
          setMessage(`The scans made offline could not be sent: ${answer?.error ?? `error ${response.status}`}.`);
          break;
        }
        const { synced } = (await response.json()) as { synced: Synced[] };
        await removeFromOutbox(synced.map((scan) => scan.id));
        sent += synced.length;
        conflicts += synced.filter((scan) => scan.conflict).length;
      }
      setPending((await outboxOf(eventId)).length);
      if (sent > 0) {
        setMessage(
          `Sent ${countOf(sent, "scan", "scans")} made offline.${conflicts > 0 ? ` ${countOf(conflicts, "conflict", "conflicts")} for the supervisor: see below.` : ""}`,
        );
        heard.current(conflicts);
      }
    } catch {
      // Still no way through: the scans wait for the next try.
    } finally {
      syncing.current = false;
    }
  }, [eventId]);

  useEffect(() => {
    setOnline(navigator.onLine);
    setGate(localStorage.getItem(GATE_NAME_KEY) ?? "");
    let cancelled = false;
    (async () => {
      const [list, outbox] = await Promise.all([readList(eventId), outboxOf(eventId)]);
      if (cancelled) return;
      setStored(list ?? null);
      setPending(outbox.length);
    })().catch(() => undefined);
    const wentOnline = () => {
      setOnline(true);
      void sync();
    };
    const wentOffline = () => setOnline(false);
    window.addEventListener("online", wentOnline);
    window.addEventListener("offline", wentOffline);
    const timer = window.setInterval(() => void sync(), SYNC_EVERY_MS);
    return () => {
      cancelled = true;
      window.removeEventListener("online", wentOnline);
      window.removeEventListener("offline", wentOffline);
      window.clearInterval(timer);
    };
  }, [eventId, sync]);

  /** Downloads the event's list (keeping what this device admitted meanwhile) and names the gate. */
  const getReady = useCallback(
    async (gateName: string) => {
      setBusy(true);
      setMessage(null);
      try {
        localStorage.setItem(GATE_NAME_KEY, gateName);
        setGate(gateName);
        // Scans still waiting go first, so the new list counts them.
        await sync();
        const response = await fetch(`/admin/events/${eventId}/checkin/admissions.json`, {
          headers: { Accept: "application/json" },
        });
        if (!response.ok) throw new Error(String(response.status));
        const list = (await response.json()) as AdmissionList;
        // The camera's QR reader is loaded now too, while it can be.
        await preloadScanner();
        // The list holds every scan the server has heard of: this device's own entries and exits
        // matter only while some of its scans still wait to be sent.
        const [earlier, waiting] = await Promise.all([readList(eventId), outboxOf(eventId)]);
        const next = {
          list,
          admitted: earlier?.admitted ?? {},
          moves: waiting.length > 0 ? (earlier?.moves ?? {}) : {},
          savedAt: new Date().toISOString(),
        };
        await saveList(next);
        setStored(next);
        setMessage(`Ready for offline: ${countOf(list.entries.length, "code", "codes")} on this device.`);
      } catch {
        setMessage("The admission list could not be downloaded. Try again where there is signal.");
      } finally {
        setBusy(false);
      }
    },
    [eventId, sync],
  );

  /** Decides a scan on this device, as the gate would, and queues it to be sent under `id`. */
  const decide = useCallback(
    async (value: string, id: string, direction: GateDirection): Promise<OfflineAnswer> => {
      const now = new Date();
      if (!stored) {
        return {
          decision: "refused",
          headline: "No connection",
          detail: "This device was not got ready for offline: check the ticket by hand, or find signal.",
        };
      }
      const read = await readScanned(value, stored.list.publicKey);
      const hash = read ? await hashOf(read.code) : null;
      const admittedAt = hash && stored.admitted[hash] ? new Date(stored.admitted[hash]!) : null;
      const move = hash ? stored.moves?.[hash] : undefined;
      const answer = read
        ? decideOffline(hash ? byHash.get(hash) : undefined, {
            types: stored.list.types,
            timeZone: stored.list.timeZone,
            now,
            admittedAt,
            lastMove: move ? { direction: move.direction, at: new Date(move.at) } : null,
            direction,
            reentry: stored.list.reentry,
            signed: read.signed,
          })
        : {
            decision: "refused" as const,
            headline: NOT_A_TICKET,
            detail: "Check the code, or send the holder to the box office.",
          };
      const passed = answer.decision === "admitted" && hash ? { hash } : null;
      const at = now.toISOString();
      await recordScan({ id, eventId, value: value.slice(0, 200), at, local: answer.decision, direction }, passed);
      if (passed) setStored((current) => (current ? withMove(current, passed.hash, { direction, at }) : current));
      setPending((count) => count + 1);
      return answer;
    },
    [byHash, eventId, stored],
  );

  /**
   * A scan at a device ready for offline: the server decides it while it answers within a few
   * seconds; otherwise (no connection, or a weak one) the device decides it and queues it under the
   * same id, so a scan the server did receive is never counted twice.
   */
  const scan = useCallback(
    async (value: string, direction: GateDirection = "in"): Promise<ScanAnswer> => {
      const id = crypto.randomUUID();
      if (navigator.onLine) {
        const controller = new AbortController();
        const timer = window.setTimeout(() => controller.abort(), SERVER_WAIT_MS);
        try {
          const response = await fetch(`/admin/events/${eventId}/checkin/scan`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({
              id,
              gate: localStorage.getItem(GATE_NAME_KEY) || "Unnamed",
              value: value.slice(0, 200),
              direction,
            }),
            signal: controller.signal,
          });
          if (response.ok) {
            const answer = (await response.json()) as ScanAnswer;
            if (answer.result.tone === "admitted" && stored) {
              const read = await readScanned(value, stored.list.publicKey);
              if (read) {
                const hash = await hashOf(read.code);
                const move = { direction, at: new Date().toISOString() };
                await recordMove(eventId, hash, move);
                setStored((current) => (current ? withMove(current, hash, move) : current));
              }
            }
            return answer;
          }
        } catch {
          // No answer in time: the device decides below.
        } finally {
          window.clearTimeout(timer);
        }
      }
      const answer = await decide(value, id, direction);
      return {
        result: { tone: TONE_OF[answer.decision], headline: answer.headline, detail: answer.detail },
        merch: [],
      };
    },
    [decide, eventId, stored],
  );

  return { online, stored, pending, gate, message, busy, getReady, scan, sync };
}

type OfflineGate = ReturnType<typeof useOfflineGate>;

/** The steward's panel for working without signal: get ready, the gate's name, what waits to be sent. */
export function OfflinePanel({ gate }: { gate: OfflineGate }) {
  const { stored, online, pending } = gate;
  const listTime = stored ? gateTime(new Date(stored.list.version), stored.list.timeZone, new Date()) : null;
  return (
    <Card as="section" aria-labelledby="offline-heading" className="space-y-3 p-4">
      <h3 id="offline-heading" className="flex items-center gap-2 font-bold">
        <CloudOff aria-hidden className="size-4" /> Without signal
      </h3>
      <p role="status" className={`text-sm ${online ? "text-muted" : "font-semibold"}`}>
        {online
          ? stored
            ? `Ready for offline: ${countOf(stored.list.entries.length, "code", "codes")}, list from ${listTime}.`
            : "Keep a copy of the admission list on this device, and it checks tickets with no connection."
          : stored
            ? "Offline: scans are checked on this device and sent when the connection is back."
            : "Offline, and this device is not ready: check tickets by hand."}
        {pending > 0 ? ` ${countOf(pending, "scan waits", "scans wait")} to be sent.` : ""}
      </p>
      <form
        className="space-y-2"
        onSubmit={(event) => {
          event.preventDefault();
          const name = String(new FormData(event.currentTarget).get("gate") ?? "").trim();
          if (name) void gate.getReady(name);
        }}
      >
        <label htmlFor="gate-name" className="block text-sm font-semibold">
          This gate's name
        </label>
        <input
          id="gate-name"
          name="gate"
          required
          maxLength={40}
          defaultValue={gate.gate}
          key={gate.gate}
          placeholder="A"
          className={`${inputClass(false)} h-11`}
        />
        <button
          type="submit"
          disabled={gate.busy || !online}
          className="inline-flex w-full items-center justify-center gap-2 rounded-full border-2 border-text px-5 py-2.5 font-bold hover:bg-surface-sunken disabled:opacity-60"
        >
          {stored ? <RefreshCw aria-hidden className="size-4" /> : <Download aria-hidden className="size-4" />}
          {stored ? "Update the list" : "Get ready for offline"}
        </button>
      </form>
      {gate.message ? <p className="text-sm">{gate.message}</p> : null}
    </Card>
  );
}

/** Conflicts found in offline scans, for the supervisor: who was let in twice, or should not have been. */
export function GateConflicts({
  conflicts,
}: {
  conflicts: { id: string; conflict: string; headline: string; by: string | null; gate: string; at: string }[];
}) {
  if (conflicts.length === 0) return null;
  return (
    <section aria-labelledby="conflicts-heading" className="space-y-3">
      <h2 id="conflicts-heading" className="wide text-xl font-extrabold">
        Conflicts from offline scans
      </h2>
      <ul className="space-y-2">
        {conflicts.map((row) => (
          <li key={row.id} className="rounded-xl border-2 border-amber-500 bg-surface-raised p-3">
            <p className="font-semibold">{row.conflict}</p>
            <p className="text-sm text-muted">
              {row.headline} · gate {row.gate}
              {row.by ? `, ${row.by}` : ""}, {row.at}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
