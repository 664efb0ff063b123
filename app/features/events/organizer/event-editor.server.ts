import { and, asc, count, eq, inArray, ne, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import { changesBetween, same } from "~/features/audit/changes";
import { eventDays } from "~/features/dates/time-zones";
import { numberedSlug, slugify as slugFromWords } from "~/features/forms/slug";
import type { Db } from "~/server/db/client.server";
import type { Storage } from "~/server/storage/storage.server";
import { countOf, plural } from "~/ui/plural";
import { events, ticketTypes } from "../../../../db/schema";
import { prepareCover, storeCover } from "../cover.server";
import {
  lockEditableEvent,
  type NotFound,
  notEditable,
  notFound,
  type Refusal,
  refuse,
  ticketsSold,
} from "./editable-event.server";
import { type EventInput, isUsableSlug, LIMITS } from "./schemas";

// The organizer's changes to events: create, edit, duplicate, publish, back to draft, cancel,
// and the cover. Each opens with `lockEditableEvent` (editable-event.server.ts).

/** "Cars & Coffee: Brooklands!" → "cars-and-coffee-brooklands"; "event" when nothing is left. */
export function slugify(title: string) {
  return slugFromWords(title, { max: LIMITS.slug, fallback: "event" });
}

/** The first of base, base-2, base-3… that no other event uses and no page of the site needs. */
async function firstFreeSlug(db: Db, base: string, exceptEventId?: string) {
  for (let start = 1; ; start += 50) {
    const candidates = Array.from({ length: 50 }, (_, i) => numberedSlug(base, start + i, LIMITS.slug));
    const rows = await db
      .select({ slug: events.slug })
      .from(events)
      .where(
        and(inArray(sql`lower(${events.slug})`, candidates), exceptEventId ? ne(events.id, exceptEventId) : undefined),
      );
    const taken = new Set(rows.map((row) => row.slug.toLowerCase()));
    const free = candidates.find((slug) => !taken.has(slug) && isUsableSlug(slug));
    if (free) return free;
  }
}

async function slugTakenByAnother(db: Db, slug: string, exceptEventId?: string) {
  const [row] = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(sql`lower(${events.slug})`, slug), exceptEventId ? ne(events.id, exceptEventId) : undefined))
    .limit(1);
  return Boolean(row);
}

async function slugInUse(db: Db, slug: string, exceptEventId?: string): Promise<Refusal> {
  const suggestion = await firstFreeSlug(db, slug, exceptEventId);
  return refuse("slug", `Another event already uses this address. Try “${suggestion}”.`);
}

/** The unique index on slugs refused the write: another organizer took the address meanwhile. */
function isSlugConflict(error: unknown) {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause) {
    const { code, constraint, message } = cause as { code?: string; constraint?: string; message?: string };
    if (code === "23505" && (constraint === "events_slug_key" || message?.includes("events_slug_key"))) return true;
  }
  return false;
}

/**
 * Runs `write` again when a concurrent write took the slug it chose between its look-up and its
 * insert. Each run is its own transaction: PostgreSQL aborts a transaction at the violation.
 */
async function retryingSlugConflicts<T>(write: () => Promise<T>, onConflict?: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isSlugConflict(error)) throw error;
      if (onConflict) return onConflict();
      if (attempt >= 25) throw error;
    }
  }
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function eventValues(input: EventInput) {
  return {
    title: input.title,
    summary: input.summary,
    description: input.description,
    type: input.type,
    headline: input.headline,
    membersEvent: input.membersEvent,
    startsAt: input.startsAt,
    endsAt: input.endsAt,
    timeZone: input.timeZone,
    venue: input.venue,
    address: input.address,
    town: input.town,
    postcode: input.postcode,
    latitude: input.latitude,
    longitude: input.longitude,
    placeId: input.placeId,
    capacity: input.capacity,
    salesStartAt: input.salesStartAt,
    salesEndAt: input.salesEndAt,
    applicationsOpen: input.applicationsOpen,
    applicationsDeadline: input.applicationsDeadline,
    applicationSpots: input.applicationSpots,
    applicationFee: input.applicationFee,
    applicationCriteria: input.applicationCriteria,
  };
}

type EventValues = ReturnType<typeof eventValues> & { slug: string };

/** Fields whose old and new values the audit log keeps; long texts are named, not copied. */
const EVENT_KEY_FIELDS = new Set<keyof EventValues>([
  "title",
  "slug",
  "type",
  "headline",
  "membersEvent",
  "startsAt",
  "endsAt",
  "timeZone",
  "venue",
  "town",
  "capacity",
  "salesStartAt",
  "salesEndAt",
  "applicationsOpen",
  "applicationsDeadline",
  "applicationSpots",
  "applicationFee",
]);

export type SavedEvent = { ok: true; id: string; slug: string };

/** A new event, as a draft, at the address the organizer chose or one made from its title. */
export async function createEvent(
  db: Db,
  input: { actorId: string; event: EventInput },
): Promise<SavedEvent | Refusal> {
  const chosen = input.event.slug;
  const write = () =>
    db.transaction(async (tx): Promise<SavedEvent | Refusal> => {
      if (chosen && (await slugTakenByAnother(tx, chosen))) return slugInUse(tx, chosen);
      const slug = chosen ?? (await firstFreeSlug(tx, slugify(input.event.title)));
      const [created] = await tx
        .insert(events)
        .values({ ...eventValues(input.event), slug, status: "draft", createdBy: input.actorId })
        .returning({ id: events.id, slug: events.slug });
      if (!created) throw new Error("The event was not created");
      await recordAudit(tx, {
        actorId: input.actorId,
        action: "event.create",
        subjectType: "event",
        subjectId: created.id,
        details: {
          title: input.event.title,
          slug,
          type: input.event.type,
          startsAt: iso(input.event.startsAt),
          endsAt: iso(input.event.endsAt),
          timeZone: input.event.timeZone,
        },
      });
      return { ok: true, ...created };
    });
  // An address the organizer typed is theirs to change; a generated one moves on to the next number.
  return retryingSlugConflicts(write, chosen ? () => slugInUse(db, chosen) : undefined);
}

/**
 * Moves ticket days along with the event's dates: a Sunday ticket stays the event's second
 * day. Days that fall off a shorter event are dropped; a ticket left with none covers every day.
 */
function movedDays(days: string[], before: string[], after: string[]) {
  if (before[0] === after[0] || !before[0] || !after[0]) {
    const kept = days.filter((day) => after.includes(day));
    return kept.length > 0 ? kept : after;
  }
  const shift = Date.parse(`${after[0]}T00:00:00Z`) - Date.parse(`${before[0]}T00:00:00Z`);
  const moved = days
    .map((day) => new Date(Date.parse(`${day}T00:00:00Z`) + shift).toISOString().slice(0, 10))
    .filter((day) => after.includes(day));
  return moved.length > 0 ? moved : after;
}

export type UpdatedEvent = { ok: true; slug: string; changed: string[]; ticketDaysMoved: number };

export async function updateEvent(
  db: Db,
  input: { actorId: string; eventId: string; event: EventInput },
): Promise<UpdatedEvent | Refusal | NotFound> {
  const write = () =>
    db.transaction(async (tx): Promise<UpdatedEvent | Refusal | NotFound> => {
      const locked = await lockEditableEvent(tx, input.eventId);
      if (!locked.ok) return locked;
      const current = locked.event;

      const sold = await ticketsSold(tx, input.eventId);
      if (input.event.capacity !== null && input.event.capacity < sold) {
        return refuse(
          "capacity",
          `${countOf(sold, "ticket", "tickets")} ${plural(sold, "is", "are")} already sold, so the capacity cannot be lower than ${sold}.`,
        );
      }
      let slug: string;
      if (input.event.slug) {
        if (await slugTakenByAnother(tx, input.event.slug, input.eventId))
          return slugInUse(tx, input.event.slug, input.eventId);
        slug = input.event.slug;
      } else {
        slug = await firstFreeSlug(tx, slugify(input.event.title), input.eventId);
      }

      const next: EventValues = { ...eventValues(input.event), slug };
      const { changed, values } = changesBetween(current as unknown as EventValues, next, EVENT_KEY_FIELDS);
      if (changed.length === 0) return { ok: true, slug, changed, ticketDaysMoved: 0 };

      await tx
        .update(events)
        .set({ ...next, updatedAt: new Date() })
        .where(eq(events.id, input.eventId));

      let ticketDaysMoved = 0;
      const before = eventDays(current.startsAt, current.endsAt, current.timeZone);
      const after = eventDays(next.startsAt, next.endsAt, next.timeZone);
      if (!same(before, after)) {
        const types = await tx
          .select({ id: ticketTypes.id, days: ticketTypes.days })
          .from(ticketTypes)
          .where(eq(ticketTypes.eventId, input.eventId));
        for (const type of types) {
          const days = movedDays(type.days, before, after);
          if (same(days, type.days)) continue;
          await tx.update(ticketTypes).set({ days, updatedAt: new Date() }).where(eq(ticketTypes.id, type.id));
          ticketDaysMoved++;
        }
      }
      await recordAudit(tx, {
        actorId: input.actorId,
        action: "event.update",
        subjectType: "event",
        subjectId: input.eventId,
        details: { changed, ...values, ...(ticketDaysMoved ? { ticketDaysMoved } : {}) },
      });
      return { ok: true, slug, changed, ticketDaysMoved };
    });
  const chosen = input.event.slug;
  return retryingSlugConflicts(write, chosen ? () => slugInUse(db, chosen, input.eventId) : undefined);
}

const COPY_SUFFIX = " (copy)";

/**
 * A draft copy of an event to run it again: same details, cover and ticket types (none sold),
 * and the same dates, for the organizer to move.
 */
export async function duplicateEvent(
  db: Db,
  input: { actorId: string; eventId: string },
): Promise<SavedEvent | NotFound> {
  return retryingSlugConflicts(() =>
    db.transaction(async (tx): Promise<SavedEvent | NotFound> => {
      const [source] = await tx.select().from(events).where(eq(events.id, input.eventId));
      if (!source) return notFound();
      const types = await tx
        .select()
        .from(ticketTypes)
        .where(eq(ticketTypes.eventId, input.eventId))
        .orderBy(asc(ticketTypes.sortOrder), asc(ticketTypes.createdAt));
      const title = `${source.title.slice(0, LIMITS.title - COPY_SUFFIX.length).trimEnd()}${COPY_SUFFIX}`;
      const slug = await firstFreeSlug(tx, slugify(title));
      const {
        id: _id,
        search: _search,
        createdAt: _createdAt,
        updatedAt: _updatedAt,
        publishedAt: _publishedAt,
        cancelledAt: _cancelledAt,
        cancelReason: _cancelReason,
        ...details
      } = source;
      const [copy] = await tx
        .insert(events)
        .values({ ...details, title, slug, status: "draft", headline: false, createdBy: input.actorId })
        .returning({ id: events.id, slug: events.slug });
      if (!copy) throw new Error("The copy was not created");
      if (types.length > 0) {
        await tx.insert(ticketTypes).values(
          types.map(({ id: _typeId, createdAt: _c, updatedAt: _u, eventId: _e, sold: _sold, ...type }) => ({
            ...type,
            eventId: copy.id,
            sold: 0,
          })),
        );
      }
      await recordAudit(tx, {
        actorId: input.actorId,
        action: "event.duplicate",
        subjectType: "event",
        subjectId: copy.id,
        details: { from: source.id, fromSlug: source.slug, slug, ticketTypes: types.length },
      });
      return { ok: true, ...copy };
    }),
  );
}

type StatusChange = { ok: true };

/**
 * Puts a draft on sale. An event needs a visible ticket type, or the organizer's word that it is
 * a free, turn-up event with no tickets (docs/decisions/0009-publishing-events-without-tickets.md).
 */
export async function publishEvent(
  db: Db,
  input: { actorId: string; eventId: string; noTickets: boolean },
): Promise<StatusChange | Refusal | NotFound> {
  return db.transaction(async (tx) => {
    const locked = await lockEditableEvent(tx, input.eventId);
    if (!locked.ok) return locked;
    const current = locked.event;
    if (current.status === "published") return refuse("", "This event is already published.");
    const [visible] = await tx
      .select({ count: count() })
      .from(ticketTypes)
      .where(and(eq(ticketTypes.eventId, input.eventId), eq(ticketTypes.hidden, false)));
    const ticketTypesOnSale = visible?.count ?? 0;
    if (ticketTypesOnSale === 0 && !input.noTickets) {
      return refuse(
        "noTickets",
        "Add a ticket type first, or confirm that this event needs no tickets (free to turn up).",
      );
    }
    await tx
      .update(events)
      .set({ status: "published", publishedAt: new Date(), updatedAt: new Date() })
      .where(eq(events.id, input.eventId));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "event.publish",
      subjectType: "event",
      subjectId: input.eventId,
      details: { ticketTypes: ticketTypesOnSale, noTickets: ticketTypesOnSale === 0, firstTime: !current.publishedAt },
    });
    return { ok: true as const };
  });
}

/** Takes a published event back to draft: only while no ticket is sold (then it must be cancelled). */
export async function unpublishEvent(
  db: Db,
  input: { actorId: string; eventId: string },
): Promise<StatusChange | Refusal | NotFound> {
  return db.transaction(async (tx) => {
    const notPublished = "Only a published event can go back to draft.";
    const locked = await lockEditableEvent(tx, input.eventId, { whenCancelled: notPublished });
    if (!locked.ok) return locked;
    if (locked.event.status !== "published") return refuse("", notPublished);
    // The event row is locked: a sale that locks it as well cannot land between this count and the change.
    const sold = await ticketsSold(tx, input.eventId);
    if (sold > 0) {
      return refuse(
        "",
        `${countOf(sold, "ticket", "tickets")} ${plural(sold, "is", "are")} already sold, so this event cannot go back to draft. Cancel it instead.`,
      );
    }
    await tx.update(events).set({ status: "draft", updatedAt: new Date() }).where(eq(events.id, input.eventId));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "event.unpublish",
      subjectType: "event",
      subjectId: input.eventId,
      details: {},
    });
    return { ok: true as const };
  });
}

export type CancelledEvent = { ok: true; ticketsSold: number };

/**
 * Cancels an event for good, with the reason visitors and ticket holders are given. Offering
 * refunds and telling ticket holders is the orders area's step after this one: it reads the
 * tickets of cancelled events, so the count returned here is what the organizer is told.
 */
export async function cancelEvent(
  db: Db,
  input: { actorId: string; eventId: string; reason: string },
): Promise<CancelledEvent | Refusal | NotFound> {
  return db.transaction(async (tx) => {
    const locked = await lockEditableEvent(tx, input.eventId, { whenCancelled: "This event is already cancelled." });
    if (!locked.ok) return locked;
    const current = locked.event;
    const sold = await ticketsSold(tx, input.eventId);
    const now = new Date();
    await tx
      .update(events)
      .set({ status: "cancelled", cancelledAt: now, cancelReason: input.reason, headline: false, updatedAt: now })
      .where(eq(events.id, input.eventId));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "event.cancel",
      subjectType: "event",
      subjectId: input.eventId,
      details: { from: current.status, reason: input.reason, ticketsSold: sold },
    });
    return { ok: true as const, ticketsSold: sold };
  });
}

export type CoverChange = { ok: true; action: "added" | "replaced" | "described" };

/**
 * Sets the event's cover from an uploaded image (checked by its content, resized and stored
 * before the row changes) and its description. Without a new image, only the description
 * changes. Old renditions stay in storage: they are content-addressed and a duplicated event
 * may still show them.
 */
export async function setEventCover(
  db: Db,
  storage: Storage,
  input: { actorId: string; eventId: string; image: Uint8Array | null; alt: string },
): Promise<CoverChange | Refusal | NotFound> {
  // Checked before the image is processed (seconds of work), and again under the lock below.
  const [current] = await db
    .select({ status: events.status, coverHash: events.coverHash })
    .from(events)
    .where(eq(events.id, input.eventId));
  const refusal = notEditable(current);
  if (refusal) return refusal;

  let stored: { coverHash: string; coverColor: string } | null = null;
  if (input.image) {
    const prepared = await prepareCover(input.image);
    if (!prepared.ok) return refuse("cover", prepared.message);
    stored = await storeCover(storage, prepared);
  } else if (!current!.coverHash) {
    return refuse("cover", "Choose an image");
  }

  return db.transaction(async (tx) => {
    const locked = await lockEditableEvent(tx, input.eventId);
    if (!locked.ok) return locked;
    const before = locked.event;
    if (!stored && !before.coverHash) return refuse("cover", "Choose an image");
    await tx
      .update(events)
      .set({ ...(stored ?? {}), coverAlt: input.alt, updatedAt: new Date() })
      .where(eq(events.id, input.eventId));
    const action = !stored ? "described" : before.coverHash ? "replaced" : "added";
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "event.cover",
      subjectType: "event",
      subjectId: input.eventId,
      details: {
        action,
        ...(stored ? { from: before.coverHash, to: stored.coverHash } : {}),
        ...(before.coverAlt !== input.alt ? { alt: { from: before.coverAlt, to: input.alt } } : {}),
      },
    });
    return { ok: true as const, action };
  });
}

export async function removeEventCover(
  db: Db,
  input: { actorId: string; eventId: string },
): Promise<StatusChange | Refusal | NotFound> {
  return db.transaction(async (tx) => {
    const locked = await lockEditableEvent(tx, input.eventId);
    if (!locked.ok) return locked;
    const current = locked.event;
    if (!current.coverHash) return { ok: true as const };
    await tx
      .update(events)
      .set({ coverHash: null, coverColor: null, coverAlt: "", updatedAt: new Date() })
      .where(eq(events.id, input.eventId));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "event.cover",
      subjectType: "event",
      subjectId: input.eventId,
      details: { action: "removed", from: current.coverHash },
    });
    return { ok: true as const };
  });
}
