import { createHash, randomBytes } from "node:crypto";
import { and, eq, inArray, isNotNull, ne, type SQL, sql } from "drizzle-orm";
import { eventByIdOrSlug } from "~/features/events/catalogue.server";
import type { Db } from "~/server/db/client.server";
import { isUniqueViolation } from "~/server/db/retry.server";
import { events, waitingRoomEntries } from "../../../db/schema";
import { admittedThrough, drawNumber, type QueueSettings, queueApplies, turnEndsAt } from "./queue-rules";

/**
 * The waiting room in the database (docs/waiting-room.md, ADR 0016). A place's position is never
 * stored: it is the number of places that sort before it, so any server answers the same. Joins
 * and turns are taken under one advisory lock per event, so a place's arrival number and the
 * moment it commits follow the same order on every server, and a late joiner can never slip in
 * ahead of a place that has already had its turn.
 */

export type QueueEvent = QueueSettings & {
  id: string;
  slug: string;
  title: string;
  timeZone: string;
  status: "draft" | "published" | "cancelled";
};

export type QueueEntry = typeof waitingRoomEntries.$inferSelect;

/** Who is asking: the signed-in member, or null for a visitor who is not signed in. */
export type QueueVisitor = { userId: string | null };

/**
 * Places one network may hold in one event's queue. A household, an office or a club sharing one
 * address gets a few; a script minting accounts behind one address does not get hundreds. Mobile
 * networks that share addresses between many customers mostly use IPv6, counted by /64.
 */
export const QUEUE_PLACES_PER_NETWORK = 10;

const settingsColumns = {
  id: events.id,
  slug: events.slug,
  title: events.title,
  timeZone: events.timeZone,
  status: events.status,
  enabled: events.queueEnabled,
  opensAt: events.salesStartAt,
  ratePerMinute: events.queueRatePerMinute,
  admissionMinutes: events.queueAdmissionMinutes,
};

/** A public (published or cancelled) event's queue settings, by slug or id. */
export async function queueEventOf(db: Db, idOrSlug: string): Promise<QueueEvent | null> {
  if (!idOrSlug || idOrSlug.length > 200) return null;
  const [event] = await db
    .select(settingsColumns)
    .from(events)
    .where(and(eventByIdOrSlug(idOrSlug), ne(events.status, "draft")));
  return event ?? null;
}

/** What a place keeps of the network it was taken from: a hash, different for every event. */
function networkHashOf(eventId: string, network: string) {
  return createHash("sha256").update(`waiting-room:${eventId}:${network}`).digest("hex");
}

/** Taken first by every join and every turn of one event; released when the transaction ends. */
async function lockQueue(tx: Db, eventId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`waiting-room:${eventId}`}, 0))`);
}

/**
 * The order of the queue, as a row value to compare: places that joined before opening first,
 * by their draw; then later ones by arrival; `seq` breaks a tie between two equal draws.
 */
function orderKey(opensAt: Date, row: { joinedAt: SQL | Date; draw: SQL | number; seq: SQL | number }) {
  const opens = opensAt.toISOString();
  return sql`(case when ${row.joinedAt} < ${opens} then 0 else 1 end, case when ${row.joinedAt} < ${opens} then ${row.draw} else 0 end, ${row.seq})`;
}

/** How many places are ahead of this one. */
export async function placesAhead(db: Db, event: QueueEvent & { opensAt: Date }, entry: QueueEntry) {
  const mine = orderKey(event.opensAt, {
    joinedAt: sql`${entry.joinedAt.toISOString()}::timestamptz`,
    draw: sql`${entry.draw}::bigint`,
    seq: sql`${entry.seq}::bigint`,
  });
  const theirs = orderKey(event.opensAt, {
    joinedAt: sql`${waitingRoomEntries.joinedAt}`,
    draw: sql`${waitingRoomEntries.draw}`,
    seq: sql`${waitingRoomEntries.seq}`,
  });
  const [row] = await db
    .select({ ahead: sql<number>`count(*)::int` })
    .from(waitingRoomEntries)
    .where(and(eq(waitingRoomEntries.eventId, event.id), sql`${theirs} < ${mine}`));
  return row?.ahead ?? 0;
}

/** How many places the event's queue holds. */
export async function queueLength(db: Db, eventId: string) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(waitingRoomEntries)
    .where(eq(waitingRoomEntries.eventId, eventId));
  return row?.count ?? 0;
}

/** The member's place in the event's queue, if they have one. */
export async function findPlace(db: Db, eventId: string, visitor: QueueVisitor): Promise<QueueEntry | null> {
  if (!visitor.userId) return null;
  const [place] = await db
    .select()
    .from(waitingRoomEntries)
    .where(and(eq(waitingRoomEntries.eventId, eventId), eq(waitingRoomEntries.userId, visitor.userId)));
  return place ?? null;
}

export type JoinOutcome = { entry: QueueEntry; joined: boolean } | { entry: null; networkFull: true };

/**
 * Takes a place in the queue for a signed-in member, or answers their existing one. Before
 * opening the place gets a random draw; the moment of joining decides which group it is in. A
 * join whose clock says "before opening" after another server has already let someone through
 * counts as after opening, so it cannot land ahead of a turn already given. A network that
 * already holds `QUEUE_PLACES_PER_NETWORK` places gets no more; counted under the event's lock,
 * so concurrent joins cannot pass the cap together.
 */
export async function joinQueue(
  db: Db,
  event: QueueEvent,
  input: { userId: string; network: string; now: Date; draw?: number },
): Promise<JoinOutcome> {
  const existing = await findPlace(db, event.id, input);
  if (existing) return { entry: existing, joined: false };
  const draw = input.draw ?? drawNumber(randomBytes(6));
  const networkHash = networkHashOf(event.id, input.network);
  try {
    return await db.transaction(async (tx): Promise<JoinOutcome> => {
      await lockQueue(tx as unknown as Db, event.id);
      const [fromNetwork] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(waitingRoomEntries)
        .where(and(eq(waitingRoomEntries.eventId, event.id), eq(waitingRoomEntries.networkHash, networkHash)));
      if ((fromNetwork?.count ?? 0) >= QUEUE_PLACES_PER_NETWORK) return { entry: null, networkFull: true };
      let joinedAt = input.now;
      if (event.opensAt && joinedAt < event.opensAt) {
        const [turnGiven] = await tx
          .select({ id: waitingRoomEntries.id })
          .from(waitingRoomEntries)
          .where(and(eq(waitingRoomEntries.eventId, event.id), isNotNull(waitingRoomEntries.admittedAt)))
          .limit(1);
        if (turnGiven) joinedAt = event.opensAt;
      }
      const [entry] = await tx
        .insert(waitingRoomEntries)
        .values({ eventId: event.id, userId: input.userId, networkHash, joinedAt, draw })
        .returning();
      if (!entry) throw new Error("The queue place was not written");
      return { entry, joined: true };
    });
  } catch (error) {
    // The same member joining from two tabs at once: the first place stands.
    if (!isUniqueViolation(error)) throw error;
    const entry = await findPlace(db, event.id, input);
    if (!entry) throw error;
    return { entry, joined: false };
  }
}

/**
 * Gives the place its turn if its position has been reached by `now`. Checked and written under
 * the event's lock, and only where no turn was given yet: a place is let through once.
 */
export async function takeTurnIfDue(db: Db, event: QueueEvent, entry: QueueEntry, now: Date): Promise<QueueEntry> {
  if (entry.admittedAt || !queueApplies(event) || now < event.opensAt) return entry;
  const opened = event;
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await lockQueue(t, event.id);
    const ahead = await placesAhead(t, opened, entry);
    if (ahead + 1 > admittedThrough(opened, now)) return entry;
    const [admitted] = await t
      .update(waitingRoomEntries)
      .set({ admittedAt: now, admissionEndsAt: turnEndsAt(opened, now) })
      .where(and(eq(waitingRoomEntries.id, entry.id), sql`${waitingRoomEntries.admittedAt} is null`))
      .returning();
    if (admitted) return admitted;
    const [current] = await t.select().from(waitingRoomEntries).where(eq(waitingRoomEntries.id, entry.id));
    return current ?? entry;
  });
}

/**
 * Gives their turn to every place whose position has been reached by `now`, in one statement
 * under the event's lock; answers how many were let through. The same rule as `takeTurnIfDue`,
 * for a scheduled sweep rather than a visitor's page.
 */
export async function admitDue(db: Db, event: QueueEvent, now: Date) {
  if (!queueApplies(event) || now < event.opensAt) return 0;
  const opened = event;
  const through = admittedThrough(opened, now);
  const key = orderKey(opened.opensAt, {
    joinedAt: sql`joined_at`,
    draw: sql`draw`,
    seq: sql`seq`,
  });
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await lockQueue(t, event.id);
    const result = (await t.execute(sql`
      with ranked as (
        select id, row_number() over (order by ${key}) as position
        from waiting_room_entries where event_id = ${event.id}
      )
      update waiting_room_entries w
      set admitted_at = ${now.toISOString()}, admission_ends_at = ${turnEndsAt(opened, now).toISOString()}
      from ranked
      where w.id = ranked.id and ranked.position <= ${through} and w.admitted_at is null
      returning w.id`)) as unknown as { rows: { id: string }[] };
    return result.rows.length;
  });
}

/** Why buying this event's tickets is refused for now, or null when the visitor may buy. */
export type TurnProblem = { message: string };

function turnProblemOf(entry: QueueEntry | null, now: Date): TurnProblem | null {
  if (!entry) return { message: "Tickets for this event are sold through its queue: join the queue first." };
  if (!entry.admittedAt || !entry.admissionEndsAt) {
    return { message: "It is not your turn in the queue yet: we will let you through as soon as it is." };
  }
  if (entry.admissionEndsAt <= now) return { message: "Your turn in the queue to buy tickets has ended." };
  return null;
}

/**
 * The rule at Add to cart: while an event's queue runs, only a signed-in member whose own place
 * has had its turn (and whose turn has not ended) may add its tickets.
 */
export async function addToCartTurnProblem(
  db: Db,
  eventId: string,
  visitor: QueueVisitor,
  now: Date,
): Promise<TurnProblem | null> {
  const [event] = await db.select(settingsColumns).from(events).where(eq(events.id, eventId));
  if (!event || !queueApplies(event)) return null;
  if (!visitor.userId) {
    return { message: "Tickets for this event are sold through its queue: sign in and join the queue first." };
  }
  const found = await findPlace(db, eventId, visitor);
  const place = found ? await takeTurnIfDue(db, event, found, now) : null;
  return turnProblemOf(place, now);
}

/**
 * The same rule at checkout, inside its transaction (so only `tx`): one problem per ticket line
 * of an event whose queue runs and where the member's turn is missing or over.
 */
export async function checkoutTurnProblems(
  tx: Db,
  userId: string,
  lines: { ticketTypeId: string | null; eventId: string }[],
  now: Date,
) {
  const eventIds = [...new Set(lines.map((line) => line.eventId))];
  if (eventIds.length === 0) return [];
  const queued = await tx
    .select({ id: events.id })
    .from(events)
    .where(and(inArray(events.id, eventIds), eq(events.queueEnabled, true), isNotNull(events.salesStartAt)));
  if (queued.length === 0) return [];
  const places = await tx
    .select()
    .from(waitingRoomEntries)
    .where(
      and(
        inArray(
          waitingRoomEntries.eventId,
          queued.map((event) => event.id),
        ),
        eq(waitingRoomEntries.userId, userId),
      ),
    );
  const problems: { code: "not_yet"; message: string; ticketTypeId: string }[] = [];
  for (const event of queued) {
    const problem = turnProblemOf(places.find((place) => place.eventId === event.id) ?? null, now);
    if (!problem) continue;
    for (const line of lines) {
      if (line.eventId === event.id && line.ticketTypeId) {
        problems.push({ code: "not_yet", message: problem.message, ticketTypeId: line.ticketTypeId });
      }
    }
  }
  return problems;
}
