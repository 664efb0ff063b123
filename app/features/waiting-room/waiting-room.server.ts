import { createHash, randomBytes } from "node:crypto";
import { and, eq, inArray, isNotNull, ne, or, type SQL, sql } from "drizzle-orm";
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

/** Who is asking: the signed-in member (if any) and the queue cookie's token (if any). */
export type QueueVisitor = { userId: string | null; token: string | null };

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

export function hashQueueToken(token: string) {
  return createHash("sha256").update(token).digest("hex");
}

export function newQueueToken() {
  return randomBytes(32).toString("base64url");
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

/**
 * The visitor's place in the event's queue: the member's own, else the cookie's. A place joined
 * before signing in becomes the member's the first time they are seen signed in with its cookie,
 * unless they already have one (one place per account).
 */
export async function findPlace(db: Db, eventId: string, visitor: QueueVisitor): Promise<QueueEntry | null> {
  const mine = [
    visitor.userId ? eq(waitingRoomEntries.userId, visitor.userId) : undefined,
    visitor.token ? eq(waitingRoomEntries.tokenHash, hashQueueToken(visitor.token)) : undefined,
  ].filter((condition) => condition !== undefined);
  if (mine.length === 0) return null;
  const rows = await db
    .select()
    .from(waitingRoomEntries)
    .where(and(eq(waitingRoomEntries.eventId, eventId), or(...mine)));
  const own = rows.find((row) => visitor.userId && row.userId === visitor.userId);
  if (own) return own;
  const byCookie = rows.find((row) => row.userId === null) ?? null;
  if (!byCookie || !visitor.userId) return byCookie;
  try {
    const [claimed] = await db
      .update(waitingRoomEntries)
      .set({ userId: visitor.userId })
      .where(and(eq(waitingRoomEntries.id, byCookie.id), sql`${waitingRoomEntries.userId} is null`))
      .returning();
    return claimed ?? byCookie;
  } catch (error) {
    // The member took a place of their own on another device meanwhile: that one counts.
    if (!isUniqueViolation(error)) throw error;
    return null;
  }
}

/**
 * Takes a place in the queue, or answers the visitor's existing one. Before opening the place
 * gets a random draw; the moment of joining decides which group it is in. A join whose clock says
 * "before opening" after another server has already let someone through counts as after opening,
 * so it cannot land ahead of a turn already given.
 */
export async function joinQueue(
  db: Db,
  event: QueueEvent,
  input: { visitor: QueueVisitor; newToken: string; now: Date; draw?: number },
): Promise<{ entry: QueueEntry; joined: boolean }> {
  const existing = await findPlace(db, event.id, input.visitor);
  if (existing) return { entry: existing, joined: false };
  const draw = input.draw ?? drawNumber(randomBytes(6));
  try {
    return await db.transaction(async (tx) => {
      await lockQueue(tx as unknown as Db, event.id);
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
        .values({
          eventId: event.id,
          tokenHash: hashQueueToken(input.newToken),
          userId: input.visitor.userId,
          joinedAt,
          draw,
        })
        .returning();
      return { entry: entry!, joined: true };
    });
  } catch (error) {
    // The same member joining from two tabs at once: the first place stands.
    if (!isUniqueViolation(error)) throw error;
    const entry = await findPlace(db, event.id, input.visitor);
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
 * The rule at Add to cart: while an event's queue runs, only a signed-in member whose place has
 * had its turn (and whose turn has not ended) may add its tickets.
 */
export async function addToCartTurnProblem(
  db: Db,
  eventId: string,
  visitor: QueueVisitor,
  now: Date,
): Promise<TurnProblem | null> {
  const [event] = await db.select(settingsColumns).from(events).where(eq(events.id, eventId));
  if (!event || !queueApplies(event)) return null;
  const found = await findPlace(db, eventId, visitor);
  const place = found ? await takeTurnIfDue(db, event, found, now) : null;
  const problem = turnProblemOf(place, now);
  // Paying needs an account, and the turn must belong to the account that pays.
  if (!problem && !visitor.userId) return { message: "It is your turn: sign in to buy tickets for this event." };
  return problem;
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
