/**
 * Whether an event's waiting lists are running, and the places they set aside from the public
 * sale. The stock reads, the event page and the offer sweep all read these, so they sit below
 * the areas that sell places and the waiting lists that offer them.
 */

const HOUR = 60 * 60 * 1000;

/** An event's waiting-list settings, as the organizer left them. */
export type ListSettings = {
  status: "draft" | "published" | "cancelled";
  startsAt: Date;
  waitingListEnabled: boolean;
  waitingListOfferHours: number;
  waitingListClosesHours: number;
};

/** When the list stops taking people and offering places: a set time before the event starts. */
export function listClosesAt(event: Pick<ListSettings, "startsAt" | "waitingListClosesHours">) {
  return new Date(event.startsAt.getTime() - event.waitingListClosesHours * HOUR);
}

/** Whether the event's lists are running at `now`: switched on, the event on sale, not yet closed. */
export function listRunning(event: ListSettings, now: Date) {
  return event.waitingListEnabled && event.status === "published" && now < listClosesAt(event);
}

/**
 * The places a list sets aside from the public sale: while people wait, places that come back
 * are theirs to be offered first, so the public sees them as taken, up to the places actually
 * free. `free` is capacity − sold − held (live holds and kept places).
 */
export function placesForTheLine(waiting: number, free: number) {
  return Math.max(0, Math.min(waiting, free));
}
