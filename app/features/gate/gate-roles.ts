import type { GateRole } from "../../../db/schema";
import { initialsOf } from "./offline-rules";

/**
 * What each role at the gate may do (docs/gate.md). A steward scans and reads the answer with the
 * holder's initials and ticket type: enough to match a face, nothing to look up. A supervisor also
 * sees names, searches the list, lets people in by hand with a reason, sees conflicts and the
 * counts per gate, and downloads the attendee list.
 */
export const GATE_POWERS = {
  steward: { fullNames: false, search: false, letIn: false, conflicts: false, countsPerGate: false, download: false },
  supervisor: { fullNames: true, search: true, letIn: true, conflicts: true, countsPerGate: true, download: true },
} as const satisfies Record<GateRole, Record<string, boolean>>;

/** A holder's name as the role may see it at the gate. */
export function holderShownTo(role: GateRole, name: string) {
  return GATE_POWERS[role].fullNames ? name : initialsOf(name);
}

export type { GateRole };
