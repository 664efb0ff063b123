import { and, count, eq } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import { changesBetween, same } from "~/features/audit/changes";
import { eventDays } from "~/features/dates/time-zones";
import type { Db } from "~/server/db/client.server";
import { plural } from "~/ui/plural";
import { ticketTypes } from "../../../../db/schema";
import { lockEditableEvent, type NotFound, notFound, type Refusal, refuse } from "./editable-event.server";
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
    memberPrice: input.memberPrice,
    tierPrices: input.tierPrices,
    membersOnly: input.membersOnly,
    memberSalesStartAt: input.memberSalesStartAt,
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
  "memberPrice",
  "tierPrices",
  "membersOnly",
  "memberSalesStartAt",
  "sortOrder",
  "hidden",
]);

/** The audit entry of a change to one of the event's ticket types, written in the change's transaction. */
function auditTicketType(
  tx: Db,
  change: { actorId: string; eventId: string; ticketTypeId: string },
  action: string,
  details: Record<string, unknown>,
) {
  return recordAudit(tx, {
    actorId: change.actorId,
    action,
    subjectType: "ticket_type",
    subjectId: change.ticketTypeId,
    details: { eventId: change.eventId, ...details },
  });
}

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
    await auditTicketType(tx, { ...input, ticketTypeId: created.id }, "ticket_type.create", {
      name: input.ticketType.name,
      price: input.ticketType.price,
      capacity: input.ticketType.capacity,
      days: input.ticketType.days,
    });
    return { ok: true as const, id: created.id };
  });
}

/**
 * Opens a change to one of the event's ticket types: the event's lock (refused as
 * `lockEditableEvent` refuses), then the type's row lock; refused when the type is gone.
 */
async function lockEditableTicketType(tx: Db, eventId: string, ticketTypeId: string) {
  const locked = await lockEditableEvent(tx, eventId);
  if (!locked.ok) return locked;
  const [type] = await tx
    .select()
    .from(ticketTypes)
    .where(and(eq(ticketTypes.id, ticketTypeId), eq(ticketTypes.eventId, eventId)))
    .for("update");
  return type ? { ok: true as const, event: locked.event, type } : notFound("This ticket type");
}

export async function updateTicketType(
  db: Db,
  input: { actorId: string; eventId: string; ticketTypeId: string; ticketType: TicketTypeInput },
): Promise<{ ok: true; changed: string[] } | Refusal | NotFound> {
  return db.transaction(async (tx) => {
    const locked = await lockEditableTicketType(tx, input.eventId, input.ticketTypeId);
    if (!locked.ok) return locked;
    const { event, type: current } = locked;
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
    await auditTicketType(tx, input, "ticket_type.update", {
      name: next.name,
      changed,
      ...values,
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
    const locked = await lockEditableTicketType(tx, input.eventId, input.ticketTypeId);
    if (!locked.ok) return locked;
    const current = locked.type;
    if (current.hidden === input.hidden) return { ok: true as const, name: current.name };
    await tx
      .update(ticketTypes)
      .set({ hidden: input.hidden, updatedAt: new Date() })
      .where(eq(ticketTypes.id, input.ticketTypeId));
    await auditTicketType(tx, input, "ticket_type.update", {
      name: current.name,
      changed: ["hidden"],
      hidden: { from: current.hidden, to: input.hidden },
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
    const locked = await lockEditableTicketType(tx, input.eventId, input.ticketTypeId);
    if (!locked.ok) return locked;
    const current = locked.type;
    if (current.sold > 0) {
      return refuse(
        "",
        `${current.sold} “${current.name}” ${plural(current.sold, "ticket", "tickets")} ${plural(current.sold, "is", "are")} sold, so it cannot be deleted. Hide it to stop selling it.`,
      );
    }
    await tx.delete(ticketTypes).where(and(eq(ticketTypes.id, input.ticketTypeId), eq(ticketTypes.sold, 0)));
    await auditTicketType(tx, input, "ticket_type.delete", {
      name: current.name,
      price: current.price,
      capacity: current.capacity,
    });
    return { ok: true as const, name: current.name };
  });
}
