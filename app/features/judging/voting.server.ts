import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { eventByIdOrSlug } from "~/features/events/catalogue.server";
import type { Db } from "~/server/db/client.server";
import {
  ballots,
  carPhotos,
  cars,
  events,
  showCarApplications,
  showClasses,
  showEntries,
  showSettings,
  tickets,
  ticketTypes,
  voteCategories,
} from "../../../db/schema";
import { type Ballot, ballotListHash, canonicalBallotList } from "./tally-proof";
import { voteProblem } from "./vote-rules";

// People's Choice on the database (docs/car-shows.md): the page behind a car's windscreen QR, a
// ballot cast or changed in one statement that racing servers cannot double, and the ballot list
// frozen once when voting closes. Who may vote is `voteProblem`'s to say, nowhere else.

/** Only a car the show accepted (approved, or paid once a fee was paid) takes votes. */
const IN_SHOW = ["approved", "paid"] as const;

/** An event anyone may see: published, or cancelled with its notice (never a draft). */
const PUBLIC_EVENT = inArray(events.status, ["published", "cancelled"]);

export type CarCover = { hash: string; width: number; height: number; color: string; alt: string };

/**
 * The cover photo of each car that anyone may see (public in the garage and not hidden by
 * moderators): its chosen cover, else its first photo not hidden. Cars kept to members or private
 * show no photo on the show's public pages.
 */
export async function publicCovers(db: Db, carIds: readonly (string | null)[]) {
  const ids = [...new Set(carIds.filter((id): id is string => id !== null))];
  const covers = new Map<string, CarCover>();
  if (ids.length === 0) return covers;
  const photos = await db
    .select({
      carId: carPhotos.carId,
      id: carPhotos.id,
      coverPhotoId: cars.coverPhotoId,
      hash: carPhotos.hash,
      width: carPhotos.width,
      height: carPhotos.height,
      color: carPhotos.color,
      alt: carPhotos.alt,
      year: cars.year,
      make: cars.make,
      model: cars.model,
    })
    .from(carPhotos)
    .innerJoin(cars, eq(cars.id, carPhotos.carId))
    .where(
      and(
        inArray(carPhotos.carId, ids),
        eq(cars.visibility, "public"),
        isNull(cars.hiddenAt),
        isNull(carPhotos.hiddenAt),
      ),
    )
    .orderBy(asc(carPhotos.carId), asc(carPhotos.position));
  for (const photo of photos) {
    const chosen = covers.get(photo.carId);
    if (chosen && photo.id !== photo.coverPhotoId) continue;
    covers.set(photo.carId, {
      hash: photo.hash,
      width: photo.width,
      height: photo.height,
      color: photo.color,
      alt: photo.alt.trim() || `${photo.year} ${photo.make} ${photo.model}`,
    });
  }
  return covers;
}

/** Where voting stands: a show with no window set has not opened. */
export function votingState(settings: { votingOpensAt: Date | null; votingClosesAt: Date | null } | null, now: Date) {
  if (!settings?.votingOpensAt || now < settings.votingOpensAt) return "not_open" as const;
  if (settings.votingClosesAt && now >= settings.votingClosesAt) return "closed" as const;
  return "open" as const;
}

/** The car a vote address names at a public event, with its event; null for an unknown key or event. */
async function carAt(db: Db, idOrSlug: string, voteKey: string) {
  if (!idOrSlug || idOrSlug.length > 200 || !voteKey || voteKey.length > 100) return null;
  const [car] = await db
    .select({
      eventId: events.id,
      eventSlug: events.slug,
      eventTitle: events.title,
      applicationId: showEntries.applicationId,
      showNumber: showEntries.showNumber,
      label: showCarApplications.carLabel,
      carId: showCarApplications.carId,
      ownerId: showCarApplications.userId,
      className: showClasses.name,
    })
    .from(showEntries)
    .innerJoin(events, eq(events.id, showEntries.eventId))
    .innerJoin(showCarApplications, eq(showCarApplications.id, showEntries.applicationId))
    .leftJoin(showClasses, eq(showClasses.id, showEntries.classId))
    .where(
      and(
        eq(showEntries.voteKey, voteKey),
        eventByIdOrSlug(idOrSlug),
        PUBLIC_EVENT,
        inArray(showCarApplications.status, [...IN_SHOW]),
        isNotNull(showEntries.showNumber),
      ),
    );
  return car ? { ...car, showNumber: car.showNumber! } : null;
}

export type VotePage = NonNullable<Awaited<ReturnType<typeof votePage>>>;

/**
 * What a car's vote page shows: the car, the show's categories and where voting stands, and for
 * a signed-in viewer each of their tickets for the event with why it cannot vote (if it cannot)
 * and its ballot in each category, id included, so they can find it on the published list.
 */
export async function votePage(
  db: Db,
  input: { eventId: string; voteKey: string; viewerId: string | null; now: Date },
) {
  const car = await carAt(db, input.eventId, input.voteKey);
  if (!car) return null;
  const [categories, [settings], covers, held] = await Promise.all([
    db
      .select({ id: voteCategories.id, slug: voteCategories.slug, name: voteCategories.name })
      .from(voteCategories)
      .where(eq(voteCategories.eventId, car.eventId))
      .orderBy(asc(voteCategories.position), asc(voteCategories.name)),
    db
      .select({
        votingOpensAt: showSettings.votingOpensAt,
        votingClosesAt: showSettings.votingClosesAt,
        resultsPublishedAt: showSettings.resultsPublishedAt,
      })
      .from(showSettings)
      .where(eq(showSettings.eventId, car.eventId)),
    publicCovers(db, [car.carId]),
    input.viewerId
      ? db
          .select({
            id: tickets.id,
            status: tickets.status,
            holderId: tickets.userId,
            typeName: ticketTypes.name,
            attendeeName: tickets.attendeeName,
          })
          .from(tickets)
          .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
          .where(and(eq(tickets.eventId, car.eventId), eq(tickets.userId, input.viewerId)))
          .orderBy(asc(tickets.createdAt), asc(tickets.id))
      : Promise.resolve([]),
  ]);
  const cast =
    held.length > 0
      ? await db
          .select({
            id: ballots.id,
            ticketId: ballots.ticketId,
            categoryId: ballots.categoryId,
            applicationId: ballots.applicationId,
            showNumber: showEntries.showNumber,
            label: showCarApplications.carLabel,
          })
          .from(ballots)
          .innerJoin(showEntries, eq(showEntries.applicationId, ballots.applicationId))
          .innerJoin(showCarApplications, eq(showCarApplications.id, ballots.applicationId))
          .where(
            inArray(
              ballots.ticketId,
              held.map((ticket) => ticket.id),
            ),
          )
      : [];
  const voting = {
    eventId: car.eventId,
    opensAt: settings?.votingOpensAt ?? null,
    closesAt: settings?.votingClosesAt ?? null,
  };
  return {
    event: { id: car.eventId, slug: car.eventSlug, title: car.eventTitle },
    car: {
      applicationId: car.applicationId,
      showNumber: car.showNumber,
      label: car.label,
      className: car.className,
      cover: car.carId ? (covers.get(car.carId) ?? null) : null,
    },
    categories,
    voting: {
      state: votingState(settings ?? null, input.now),
      opensAt: voting.opensAt?.toISOString() ?? null,
      closesAt: voting.closesAt?.toISOString() ?? null,
    },
    resultsPublished: Boolean(settings?.resultsPublishedAt),
    tickets: held.map((ticket, index) => ({
      id: ticket.id,
      label: `Ticket ${index + 1}: ${ticket.typeName}${ticket.attendeeName ? ` (${ticket.attendeeName})` : ""}`,
      status: ticket.status,
      problem: voteProblem({
        voting,
        ticket: { eventId: car.eventId, status: ticket.status, holderId: ticket.holderId },
        voterId: input.viewerId!,
        carOwnerId: car.ownerId,
        now: input.now,
      }),
      ballots: Object.fromEntries(
        cast
          .filter((ballot) => ballot.ticketId === ticket.id)
          .map((ballot) => [
            ballot.categoryId,
            {
              id: ballot.id,
              showNumber: ballot.showNumber,
              label: ballot.label,
              thisCar: ballot.applicationId === car.applicationId,
            },
          ]),
      ) as Record<string, { id: string; showNumber: number | null; label: string; thisCar: boolean }>,
    })),
  };
}

/** The vote form: which of the voter's tickets votes, in which category (the car is the page's). */
export const VoteSchema = z.object({
  ticketId: z.uuid({ message: "Choose which of your tickets votes" }),
  categoryId: z.uuid({ message: "Choose one of this show's categories" }),
});

type VoteOutcome =
  | { ok: true; ballotId: string; changed: boolean; showNumber: number; categoryName: string }
  | { ok: false; field: "ticketId" | "categoryId" | ""; message: string }
  | { ok: false; notFound: true };

/**
 * Casts the ticket's ballot in the category for the car the vote address names, or points the
 * ballot it already has at this car. Everything is checked inside one transaction holding the
 * show's settings row `FOR SHARE` (so voting cannot close, nor the list be frozen, under a vote in
 * flight), and the ballot is written by one upsert on (ticket, category): racing servers change
 * the one ballot, which keeps its id, and never make a second.
 */
export async function castVote(
  db: Db,
  input: { eventId: string; voteKey: string; ticketId: string; categoryId: string; voterId: string; now: Date },
): Promise<VoteOutcome> {
  const car = await carAt(db, input.eventId, input.voteKey);
  if (!car) return { ok: false, notFound: true };
  return db.transaction(async (tx) => {
    const [settings] = await tx
      .select({
        opensAt: showSettings.votingOpensAt,
        closesAt: showSettings.votingClosesAt,
        talliedAt: showSettings.talliedAt,
      })
      .from(showSettings)
      .where(eq(showSettings.eventId, car.eventId))
      .for("share");
    // Once the list is frozen nothing joins it, whatever this server's clock says.
    if (settings?.talliedAt) return { ok: false, field: "", message: "Voting has closed" } as const;
    const [[category], [ticket]] = await Promise.all([
      tx
        .select({ id: voteCategories.id, name: voteCategories.name })
        .from(voteCategories)
        .where(and(eq(voteCategories.id, input.categoryId), eq(voteCategories.eventId, car.eventId))),
      tx
        .select({ eventId: tickets.eventId, status: tickets.status, holderId: tickets.userId })
        .from(tickets)
        .where(eq(tickets.id, input.ticketId))
        .for("share"),
    ]);
    const problem = voteProblem({
      voting: { eventId: car.eventId, opensAt: settings?.opensAt ?? null, closesAt: settings?.closesAt ?? null },
      ticket: ticket ?? null,
      voterId: input.voterId,
      carOwnerId: car.ownerId,
      now: input.now,
    });
    if (problem) return { ok: false, field: "", message: problem } as const;
    if (!category) return { ok: false, field: "categoryId", message: "Choose one of this show's categories" } as const;
    const [ballot] = await tx
      .insert(ballots)
      .values({
        id: randomBytes(16).toString("hex"),
        eventId: car.eventId,
        categoryId: category.id,
        ticketId: input.ticketId,
        voterId: input.voterId,
        applicationId: car.applicationId,
        castAt: input.now,
        changedAt: input.now,
      })
      .onConflictDoUpdate({
        target: [ballots.ticketId, ballots.categoryId],
        set: {
          applicationId: sql`excluded.application_id`,
          voterId: sql`excluded.voter_id`,
          changedAt: sql`excluded.changed_at`,
        },
      })
      // A row the upsert updated rather than inserted has a deleting transaction id set.
      .returning({ id: ballots.id, changed: sql<boolean>`xmax <> 0` });
    return {
      ok: true,
      ballotId: ballot!.id,
      changed: Boolean(ballot!.changed),
      showNumber: car.showNumber,
      categoryName: category.name,
    } as const;
  });
}

type FrozenTally = { ballotList: string; commitment: string; talliedAt: Date };

/**
 * The show's ballot list as frozen when voting closed, freezing it now if voting has closed and
 * nobody has yet: the list (category by slug, car by show number) with its SHA-256, written by a
 * conditional update under the settings row's lock, so however many servers ask at once it is
 * written once and every later read returns that one. Null while voting is open (or never set).
 */
export async function tallyOnce(db: Db, eventId: string, now: Date): Promise<FrozenTally | null> {
  const frozen = (row: { ballotList: string | null; commitment: string | null; talliedAt: Date | null } | undefined) =>
    row?.talliedAt && row.ballotList !== null && row.commitment !== null
      ? { ballotList: row.ballotList, commitment: row.commitment, talliedAt: row.talliedAt }
      : null;
  const columns = {
    ballotList: showSettings.ballotList,
    commitment: showSettings.commitment,
    talliedAt: showSettings.talliedAt,
    closesAt: showSettings.votingClosesAt,
  };
  // Most reads find it frozen already, without a lock.
  const [settings] = await db.select(columns).from(showSettings).where(eq(showSettings.eventId, eventId));
  if (!settings) return null;
  if (settings.talliedAt) return frozen(settings);
  if (!settings.closesAt || settings.closesAt > now) return null;
  return db.transaction(async (tx) => {
    // Waits for votes in flight (they hold the row FOR SHARE); later ones find it tallied.
    const [locked] = await tx.select(columns).from(showSettings).where(eq(showSettings.eventId, eventId)).for("update");
    if (locked?.talliedAt) return frozen(locked);
    const rows = await tx
      .select({ id: ballots.id, category: voteCategories.slug, showNumber: showEntries.showNumber })
      .from(ballots)
      .innerJoin(voteCategories, eq(voteCategories.id, ballots.categoryId))
      .innerJoin(showEntries, eq(showEntries.applicationId, ballots.applicationId))
      .where(and(eq(ballots.eventId, eventId), isNotNull(showEntries.showNumber)));
    const list: Ballot[] = rows.map((row) => ({ id: row.id, category: row.category, car: String(row.showNumber) }));
    const ballotList = canonicalBallotList(list);
    const commitment = await ballotListHash(list);
    const [written] = await tx
      .update(showSettings)
      .set({ ballotList, commitment, talliedAt: now })
      .where(and(eq(showSettings.eventId, eventId), isNull(showSettings.talliedAt)))
      .returning(columns);
    if (written) return frozen(written);
    const [again] = await tx.select(columns).from(showSettings).where(eq(showSettings.eventId, eventId));
    return frozen(again);
  });
}
