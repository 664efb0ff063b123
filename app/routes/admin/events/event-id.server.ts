import { EventIdSchema } from "~/features/events/organizer/schemas";
import { notFound } from "~/ui/not-found";

/** The event id from the address; anything that is not an id is a missing page, not an error. */
export function eventIdFrom(value: string | undefined) {
  const parsed = EventIdSchema.safeParse(value);
  if (!parsed.success) notFound();
  return parsed.data.toLowerCase();
}
