import type { EventType } from "../../../db/schema/events";

/**
 * What each kind of event is called on the public pages and in the filters. Kept apart from the
 * schema so browser code can use it without pulling in the database layer.
 */
export const EVENT_TYPE_LABELS: Record<EventType, string> = {
  meet: "Meet",
  show: "Show",
  track_day: "Track day",
  cruise: "Cruise",
};

export const EVENT_TYPE_OPTIONS = Object.entries(EVENT_TYPE_LABELS) as [EventType, string][];

export function isEventType(value: string | null | undefined): value is EventType {
  return value != null && Object.hasOwn(EVENT_TYPE_LABELS, value);
}
