import { toLocalInputValue } from "../../app/features/dates/time-zones";

/** A wall-clock time in London (the demo site's time zone) as a datetime-local field's value. */
export const londonTime = (instant: Date) => toLocalInputValue(instant, "Europe/London");
