/**
 * The gate's rules for a scan decided on the device, with no server (docs/gate.md): the admission
 * list it downloaded, what it has admitted since, and the answer the steward reads. Pure
 * functions, so the browser and the tests run the very same rules; the server decides online
 * scans with the same words (`gate.server.ts`).
 */

/** What a scan decided: let in, seen before, or turned away. */
export type GateDecision = "admitted" | "already" | "refused";

/** What the device shows for a scan. */
export type OfflineAnswer = { decision: GateDecision; headline: string; detail: string | null };

export const NOT_A_TICKET = "This code is not a valid ticket";

/** How the gate's panel colours each decision. */
export const TONE_OF = { admitted: "admitted", already: "warning", refused: "refused" } as const;

/** Which way a scan lets someone through: in, or out at an event with re-entry. */
export type GateDirection = "in" | "out";

/**
 * The words for entries and exits at an event with re-entry, the same online and offline. `who`
 * is "initials or name, ticket type".
 */
export const REENTRY_WORDS = {
  backIn: (who: string) => `Back in: ${who}`,
  out: (who: string): OfflineAnswer => ({
    decision: "admitted",
    headline: `Out: ${who}`,
    detail: "They can come back in with this ticket.",
  }),
  alreadyOut: (time: string, who: string): OfflineAnswer => ({
    decision: "already",
    headline: `Already out at ${time}`,
    detail: who,
  }),
  notIn: (who: string): OfflineAnswer => ({
    decision: "already",
    headline: "Not checked in yet",
    detail: `${who}. Nothing to scan out.`,
  }),
  noReentry: {
    decision: "refused",
    headline: "This event has no re-entry",
    detail: "Exit scans are off: scan entries only.",
  } satisfies OfflineAnswer,
  notATicketOut: {
    decision: "refused",
    headline: "No ticket for this event has this code",
    detail: "Only tickets are scanned out: member cards and exhibitor passes come and go without one.",
  } satisfies OfflineAnswer,
};

export const REFUSED_STATUS = {
  cancelled: "This ticket was cancelled",
  refunded: "This ticket was refunded",
  transferred: "This ticket was transferred",
} as const;

/**
 * One thing a code can let in, as the list carries it: `h` the code's hash, `k` its kind (a
 * ticket, a member card, an exhibitor pass), `t` the index of its ticket type, tier or "Exhibitor"
 * in the list's `types`, `n` the holder's initials (or a pass's car), `s` its state when the list
 * was made, `a` when it was checked in, if it was, `o` when its holder went out, if they are out. No names, emails or phone numbers.
 */
export type AdmissionEntry = {
  h: string;
  k: "ticket" | "member" | "pass";
  t: number;
  n: string;
  s: "valid" | "checked_in" | "cancelled" | "refunded" | "transferred" | "lapsed" | "ended" | "not_for_entry";
  a: string | null;
  /** A ticket whose holder went out, at an event with re-entry: since when (absent while inside). */
  o?: string | null;
};

/** An event's admission list as a device downloads it before going offline. */
export type AdmissionList = {
  eventId: string;
  title: string;
  timeZone: string;
  /** When the list was made: the device says how old its list is. */
  version: string;
  /** The key the codes are signed with (SPKI PEM): a forged code is refused with no server. */
  publicKey: string;
  /** Whether holders may go out and come back in: the device scans exits too. */
  reentry: boolean;
  types: string[];
  entries: AdmissionEntry[];
};

/** "A. B." from a name, for the steward: enough to match a face, nothing to look up. */
export function initialsOf(name: string | null | undefined) {
  const words = (name ?? "").trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "—";
  return words
    .slice(0, 3)
    .map((word) => `${word[0]!.toUpperCase()}.`)
    .join(" ");
}

/** "10:42", or "Sat 12 Jun, 10:42" when it was another day, in the event's own time zone. */
export function gateTime(instant: Date, timeZone: string, now: Date) {
  const day = (at: Date) => at.toLocaleDateString("en-CA", { timeZone });
  const time = instant.toLocaleTimeString("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  if (day(instant) === day(now)) return time;
  const date = instant.toLocaleDateString("en-GB", { timeZone, weekday: "short", day: "numeric", month: "short" });
  return `${date}, ${time}`;
}

/**
 * The answer for a scan on the device: `entry` is what the list holds for the code (undefined when
 * nothing), `admittedAt` when this device first let it in, `lastMove` the latest entry or exit
 * this device scanned for it (newer than the list), `signed` false for a QR whose signature
 * failed; `direction` an entry (the default) or an exit, at an event with `reentry`. Same words
 * as the server's answers, so a steward reads one gate.
 */
export function decideOffline(
  entry: AdmissionEntry | undefined,
  context: {
    types: readonly string[];
    timeZone: string;
    now: Date;
    admittedAt?: Date | null;
    lastMove?: { direction: GateDirection; at: Date } | null;
    direction?: GateDirection;
    reentry?: boolean;
    signed: boolean;
  },
): OfflineAnswer {
  if (!context.signed) return { decision: "refused", headline: NOT_A_TICKET, detail: "The code's signature is wrong." };
  const out = context.direction === "out";
  if (out && !context.reentry) return REENTRY_WORDS.noReentry;
  if (!entry) {
    if (out) return REENTRY_WORDS.notATicketOut;
    return {
      decision: "refused",
      headline: NOT_A_TICKET,
      detail: "It is not on this event's list. Check it when the connection is back.",
    };
  }
  const type = context.types[entry.t] ?? "";
  const earlier = context.admittedAt ?? (entry.s === "checked_in" && entry.a ? new Date(entry.a) : null);
  const already = (who: string): OfflineAnswer => ({
    decision: "already",
    headline: `Already checked in at ${gateTime(earlier!, context.timeZone, context.now)}`,
    detail: who,
  });
  if (out && entry.k !== "ticket") return REENTRY_WORDS.notATicketOut;
  switch (entry.k) {
    case "ticket": {
      const who = `${entry.n}, ${type}`;
      if (entry.s === "cancelled" || entry.s === "refunded" || entry.s === "transferred") {
        return { decision: "refused", headline: REFUSED_STATUS[entry.s], detail: `${who}. Do not admit.` };
      }
      const where = whereIs(entry, context.lastMove ?? null, earlier);
      if (out) {
        if (where.state === "never") return REENTRY_WORDS.notIn(who);
        if (where.state === "out")
          return REENTRY_WORDS.alreadyOut(gateTime(where.since, context.timeZone, context.now), who);
        return REENTRY_WORDS.out(who);
      }
      if (where.state === "out" && context.reentry) {
        return { decision: "admitted", headline: REENTRY_WORDS.backIn(who), detail: null };
      }
      if (where.state !== "never") return already(who);
      return { decision: "admitted", headline: `Checked in: ${who}`, detail: null };
    }
    case "member": {
      const who = `${entry.n}, ${type}`;
      if (entry.s === "not_for_entry") {
        return {
          decision: "refused",
          headline: "Member, not valid for entry",
          detail: `${who}. A member card does not admit to this event.`,
        };
      }
      if (entry.s === "lapsed" || entry.s === "ended") {
        return { decision: "refused", headline: `Membership ${entry.s}`, detail: `${who}. Do not admit.` };
      }
      if (earlier) return already(`Member: ${who}`);
      return { decision: "admitted", headline: `Member: ${who}`, detail: null };
    }
    case "pass": {
      if (entry.s === "cancelled") {
        return {
          decision: "refused",
          headline: "This exhibitor pass was cancelled",
          detail: `Exhibitor: ${entry.n}. Do not admit.`,
        };
      }
      if (earlier) return already(`Exhibitor: ${entry.n}`);
      return { decision: "admitted", headline: `Exhibitor: ${entry.n}`, detail: null };
    }
  }
}

/**
 * Where a ticket's holder is, as the device knows it: never in, inside, or out since a time. This
 * device's own latest scan of it is newer than the list; without one, the list says.
 */
function whereIs(
  entry: AdmissionEntry,
  lastMove: { direction: GateDirection; at: Date } | null,
  admitted: Date | null,
): { state: "never" } | { state: "inside" } | { state: "out"; since: Date } {
  if (lastMove) return lastMove.direction === "in" ? { state: "inside" } : { state: "out", since: lastMove.at };
  if (!admitted) return { state: "never" };
  return entry.o ? { state: "out", since: new Date(entry.o) } : { state: "inside" };
}

/**
 * A conflict for the supervisor: one code admitted by two scans (two devices offline, or a device
 * offline and a scanner online, `gate` null). Earliest first, times in the event's zone:
 * "Admitted twice, at gates A and B, 10:02 and 10:05".
 */
export function admittedTwice(scans: readonly { gate: string | null; at: Date }[], timeZone: string, now: Date) {
  const sorted = [...scans].sort((a, b) => a.at.getTime() - b.at.getTime());
  const times = sorted.map((scan) => gateTime(scan.at, timeZone, now)).join(" and ");
  const gates = sorted.map((scan) => scan.gate);
  if (gates.every((gate) => gate !== null)) {
    return new Set(gates).size === 1
      ? `Admitted twice at gate ${gates[0]}, ${times}`
      : `Admitted twice, at gates ${gates.join(" and ")}, ${times}`;
  }
  const where = gates.map((gate) => (gate === null ? "online" : `at gate ${gate}`)).join(" and ");
  return `Admitted twice, ${where}, ${times}`;
}

/** A conflict for the supervisor: a device admitted offline what had been refused since its list was made. */
export function admittedWhileRefused(scan: { gate: string; at: Date }, refusal: string, timeZone: string, now: Date) {
  return `Admitted at gate ${scan.gate}, ${gateTime(scan.at, timeZone, now)}, though ${refusal.replace(/^This /, "the ").toLowerCase()}`;
}

/** Characters of a code's hash in the admission list: 132 bits of SHA-256, in base64url. */
export const CODE_HASH_LENGTH = 22;
