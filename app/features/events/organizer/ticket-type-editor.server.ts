import { and, count, eq } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import { eventDays } from "~/features/dates/time-zones";
import type { Db } from "~/server/db/client.server";
import { plural } from "~/ui/plural";
import { ticketTypes } from "../../../../db/schema";
import {
  changesBetween,
  lockEditableEvent,
  type NotFound,
  notFound,
  type Refusal,
  refuse,
  same,
} from "./editable-event.server";
import type { TicketTypeInput } from "./schemas";

// The organizer's changes to an event's ticket types. Each locks the event first
// (`lockEditableEvent`), then the ticket type: the one order every writer takes its locks in.

/** Enough for day tickets, passes, concessions and add-ons; stops a runaway script. */
const MAX_TICKET_TYPES = 30;

function ticketValues(input: TicketTypeInput) {
  return {
    name: input.name,
    description: input.description,
    price: input.price,
    capacity: input.capacity,
    maxPerOrder: input.maxPerOrder,
    days: input.days,
    salesStartAt: input.salesStartAt,
    salesEndAt: input.salesEndAt,
    sortOrder: input.sortOrder,
    hidden: input.hidden,
  };
}

type TicketValues = ReturnType<typeof ticketValues>;

const TICKET_KEY_FIELDS = new Set<keyof TicketValues>([
  "name",
  "price",
  "capacity",
  "maxPerOrder",
  "days",
  "salesStartAt",
  "salesEndAt",
  "sortOrder",
  "hidden",
]);

/** The chosen days, checked again against the event's days as they are now. */
function daysProblem(days: string[], event: { startsAt: Date; endsAt: Date; timeZone: string }) {
  const valid = eventDays(event.startsAt, event.endsAt, event.timeZone);
  return days.length > 0 && days.every((day) => valid.includes(day))
    ? null
    : refuse("days", "The event's dates have changed: choose its days again.");
}

export async function createTicketType(
  db: Db,
  input: { actorId: string; eventId: string; ticketType: TicketTypeInput },
): Promise<{ ok: true; id: string } | Refusal | NotFound> {
  return db.transaction(async (tx) => {
    const locked = await lockEditableEvent(tx, input.eventId);
    if (!locked.ok) return locked;
    const { event } = locked;
    const problem = daysProblem(input.ticketType.days, event);
    if (problem) return problem;
    const [existing] = await tx
      .select({ count: count() })
      .from(ticketTypes)
      .where(eq(ticketTypes.eventId, input.eventId));
    if ((existing?.count ?? 0) >= MAX_TICKET_TYPES)
      return refuse("", `An event can have at most ${MAX_TICKET_TYPES} ticket types.`);
    const [created] = await tx
      .insert(ticketTypes)
      .values({ ...ticketValues(input.ticketType), eventId: input.eventId })
      .returning({ id: ticketTypes.id });
    if (!created) throw new Error("The ticket type was not created");
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "ticket_type.create",
      subjectType: "ticket_type",
      subjectId: created.id,
      details: {
        eventId: input.eventId,
        name: input.ticketType.name,
        price: input.ticketType.price,
        capacity: input.ticketType.capacity,
        days: input.ticketType.days,
      },
    });
    return { ok: true as const, id: created.id };
  });
}

async function lockTicketType(db: Db, eventId: string, ticketTypeId: string) {
  const [type] = await db
    .select()
    .from(ticketTypes)
    .where(and(eq(ticketTypes.id, ticketTypeId), eq(ticketTypes.eventId, eventId)))
    .for("update");
  return type;
}

export async function updateTicketType(
  db: Db,
  input: { actorId: string; eventId: string; ticketTypeId: string; ticketType: TicketTypeInput },
): Promise<{ ok: true; changed: string[] } | Refusal | NotFound> {
  return db.transaction(async (tx) => {
    const locked = await lockEditableEvent(tx, input.eventId);
    if (!locked.ok) return locked;
    const { event } = locked;
    const current = await lockTicketType(tx, input.eventId, input.ticketTypeId);
    if (!current) return notFound("This ticket type");
    const next = ticketValues(input.ticketType);
    if (next.capacity !== null && next.capacity < current.sold) {
      return refuse(
        "capacity",
        `${current.sold} of these tickets are already sold, so there must be at least ${current.sold}.`,
      );
    }
    // Days the event no longer has are refused only when they are being changed.
    if (!same(next.days, current.days)) {
      const problem = daysProblem(next.days, event);
      if (problem) return problem;
    }
    const { changed, values } = changesBetween(current as unknown as TicketValues, next, TICKET_KEY_FIELDS);
    if (changed.length === 0) return { ok: true as const, changed };
    await tx
      .update(ticketTypes)
      .set({ ...next, updatedAt: new Date() })
      .where(eq(ticketTypes.id, input.ticketTypeId));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "ticket_type.update",
      subjectType: "ticket_type",
      subjectId: input.ticketTypeId,
      details: { eventId: input.eventId, name: next.name, changed, ...values },
    });
    return { ok: true as const, changed };
  });
}

/** Hides a ticket type from sale (or shows it again) without touching anything else about it. */
export async function setTicketTypeHidden(
  db: Db,
  input: { actorId: string; eventId: string; ticketTypeId: string; hidden: boolean },
): Promise<{ ok: true; name: string } | Refusal | NotFound> {
  return db.transaction(async (tx) => {
    const locked = await lockEditableEvent(tx, input.eventId);
    if (!locked.ok) return locked;
    const current = await lockTicketType(tx, input.eventId, input.ticketTypeId);
    if (!current) return notFound("This ticket type");
    if (current.hidden === input.hidden) return { ok: true as const, name: current.name };
    await tx
      .update(ticketTypes)
      .set({ hidden: input.hidden, updatedAt: new Date() })
      .where(eq(ticketTypes.id, input.ticketTypeId));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "ticket_type.update",
      subjectType: "ticket_type",
      subjectId: input.ticketTypeId,
      details: {
        eventId: input.eventId,
        name: current.name,
        changed: ["hidden"],
        hidden: { from: current.hidden, to: input.hidden },
      },
    });
    return { ok: true as const, name: current.name };
  });
}

/** Deletes a ticket type nobody has bought; one with sales can only be hidden, so tickets keep their type. */
export async function deleteTicketType(
  db: Db,
  input: { actorId: string; eventId: string; ticketTypeId: string },
): Promise<{ ok: true; name: string } | Refusal | NotFound> {
  return db.transaction(async (tx) => {
    const locked = await lockEditableEvent(tx, input.eventId);
    if (!locked.ok) return locked;
    const current = await lockTicketType(tx, input.eventId, input.ticketTypeId);
    if (!current) return notFound("This ticket type");
    if (current.sold > 0) {
      return refuse(
        "",
        `${current.sold} “${current.name}” ${plural(current.sold, "ticket", "tickets")} ${plural(current.sold, "is", "are")} sold, so it cannot be deleted. Hide it to stop selling it.`,
      );
    }
    await tx.delete(ticketTypes).where(and(eq(ticketTypes.id, input.ticketTypeId), eq(ticketTypes.sold, 0)));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "ticket_type.delete",
      subjectType: "ticket_type",
      subjectId: input.ticketTypeId,
      details: { eventId: input.eventId, name: current.name, price: current.price, capacity: current.capacity },
    });
    return { ok: true as const, name: current.name };
  });
}
