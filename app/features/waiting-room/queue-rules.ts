import { countOf } from "~/ui/plural";

/**
 * The waiting room's arithmetic (docs/waiting-room.md, ADR 0016). Pure functions of the event's
 * settings and the time, so every server, the queue page and the tests agree without sharing
 * anything but the database.
 */

export type QueueSettings = {
  enabled: boolean;
  /** The event's `sales_start_at`: the queue only runs for sales that open at a set time. */
  opensAt: Date | null;
  ratePerMinute: number;
  admissionMinutes: number;
};

const MINUTE = 60_000;

/** Whether buying this event's tickets goes through its waiting room. */
export function queueApplies(settings: QueueSettings): settings is QueueSettings & { opensAt: Date } {
  return settings.enabled && settings.opensAt !== null;
}

/**
 * How many places at the front of the queue have had their turn by `now`: a batch of
 * `ratePerMinute` at opening, then another at the start of every minute after it.
 */
export function admittedThrough(settings: QueueSettings & { opensAt: Date }, now: Date) {
  const elapsed = now.getTime() - settings.opensAt.getTime();
  if (elapsed < 0) return 0;
  return settings.ratePerMinute * (Math.floor(elapsed / MINUTE) + 1);
}

/** When the place at `position` (1 is the front) gets its turn. */
export function turnAt(settings: QueueSettings & { opensAt: Date }, position: number) {
  const batch = Math.ceil(position / settings.ratePerMinute) - 1;
  return new Date(settings.opensAt.getTime() + batch * MINUTE);
}

/** When a turn that starts at `admittedAt` ends. */
export function turnEndsAt(settings: QueueSettings, admittedAt: Date) {
  return new Date(admittedAt.getTime() + settings.admissionMinutes * MINUTE);
}

/** "about 3 minutes", "less than a minute": an expected wait, rounded up to whole minutes. */
export function describeExpectedWait(milliseconds: number) {
  if (milliseconds < MINUTE) return "less than a minute";
  const minutes = Math.ceil(milliseconds / MINUTE);
  if (minutes < 60) return `about ${countOf(minutes, "minute", "minutes")}`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const hourText = countOf(hours, "hour", "hours");
  return rest === 0 ? `about ${hourText}` : `about ${hourText} ${countOf(rest, "minute", "minutes")}`;
}

/** A uniform random 48-bit whole number: the draw that orders everyone there at opening. */
export function drawNumber(bytes: Uint8Array) {
  let value = 0;
  for (const byte of bytes.subarray(0, 6)) value = value * 256 + byte;
  return value;
}
