import { and, asc, count, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { classBoards } from "~/features/judging/show-awards.server";
import type { Db } from "~/server/db/client.server";
import {
  ballots,
  carHistoryChoices,
  cars,
  events,
  exhibitorPasses,
  showAwards,
  showCarApplications,
  showClasses,
  showEntries,
  showSettings,
  voteCategories,
} from "../../../db/schema";

// A car's show history (docs/car-shows.md): it fills itself from what happened at each show the
// car was in. A show counts once its exhibitor pass was scanned at the gate, or once its results
// name the car. Places, awards and People's Choice votes appear once the show's results are
// published; the score only when the owner chooses to show it. The owner can hide any show.

/** The key of an owner's choice about one show of one car: hide the show, or show its score. */
type HistoryItem = `show:${string}` | `score:${string}`;

export type ShowHistoryEntry = {
  /** The application that put the car in the show: what the owner's choices name. */
  applicationId: string;
  event: { id: string; slug: string; title: string; startsAt: Date; timeZone: string; town: string };
  attended: boolean;
  showNumber: number | null;
  className: string | null;
  /** Whether the results are published: places, awards and votes are shown only then. */
  published: boolean;
  place: number | null;
  classSize: number;
  /** The car's score out of 100, when published and the owner shows it (the owner always sees it). */
  score: number | null;
  scoreShown: boolean;
  awards: { id: string; title: string; className: string | null }[];
  votes: { category: string; votes: number; place: number }[];
  hidden: boolean;
};

/** The car's shows, latest first: everything for its owner; what they have not hidden for anyone else. */
export async function carHistory(db: Db, input: { carId: string; owner: boolean }): Promise<ShowHistoryEntry[]> {
  const rows = await db
    .select({
      applicationId: showCarApplications.id,
      eventId: events.id,
      slug: events.slug,
      title: events.title,
      startsAt: events.startsAt,
      timeZone: events.timeZone,
      town: events.town,
      checkedInAt: exhibitorPasses.checkedInAt,
      showNumber: showEntries.showNumber,
      classId: showEntries.classId,
      className: showClasses.name,
      criteria: showClasses.criteria,
      scheme: showClasses.scheme,
      publishedAt: showSettings.resultsPublishedAt,
      talliedAt: showSettings.talliedAt,
    })
    .from(showCarApplications)
    .innerJoin(events, eq(events.id, showCarApplications.eventId))
    .leftJoin(exhibitorPasses, eq(exhibitorPasses.applicationId, showCarApplications.id))
    .leftJoin(showEntries, eq(showEntries.applicationId, showCarApplications.id))
    .leftJoin(showClasses, eq(showClasses.id, showEntries.classId))
    .leftJoin(showSettings, eq(showSettings.eventId, events.id))
    .where(
      and(
        eq(showCarApplications.carId, input.carId),
        inArray(showCarApplications.status, ["approved", "paid"]),
        or(isNotNull(exhibitorPasses.checkedInAt), isNotNull(showSettings.resultsPublishedAt)),
      ),
    )
    .orderBy(sql`${events.startsAt} desc`, asc(events.id));
  if (rows.length === 0) return [];

  const published = rows.filter((row) => row.publishedAt !== null);
  // The classes of shows with published results (a car is in one class per show), for their boards.
  const publishedClasses = published.flatMap((row) =>
    row.classId && row.criteria && row.scheme
      ? [{ id: row.classId, name: row.className ?? "", scheme: row.scheme, criteria: row.criteria, closedAt: null }]
      : [],
  );
  const talliedEvents = [...new Set(published.filter((row) => row.talliedAt !== null).map((row) => row.eventId))];
  const publishedIds = published.map((row) => row.applicationId);

  const [choices, awards, boards, votes] = await Promise.all([
    db
      .select({ item: carHistoryChoices.item, shown: carHistoryChoices.shown })
      .from(carHistoryChoices)
      .where(eq(carHistoryChoices.carId, input.carId)),
    publishedIds.length === 0
      ? []
      : db
          .select({
            id: showAwards.id,
            applicationId: showAwards.applicationId,
            title: showAwards.title,
            className: showClasses.name,
          })
          .from(showAwards)
          .leftJoin(showClasses, eq(showClasses.id, showAwards.classId))
          .where(inArray(showAwards.applicationId, publishedIds))
          .orderBy(sql`${showAwards.classId} is not null`, asc(showAwards.title)),
    classBoards(db, publishedClasses),
    talliedEvents.length === 0
      ? []
      : db
          .select({
            eventId: ballots.eventId,
            category: voteCategories.name,
            categoryId: ballots.categoryId,
            applicationId: ballots.applicationId,
            votes: count(),
          })
          .from(ballots)
          .innerJoin(voteCategories, eq(voteCategories.id, ballots.categoryId))
          .where(inArray(ballots.eventId, talliedEvents))
          .groupBy(ballots.eventId, voteCategories.name, ballots.categoryId, ballots.applicationId),
  ]);

  const choice = new Map(choices.map((row) => [row.item, row.shown]));
  const entries: ShowHistoryEntry[] = rows.map((row) => {
    const isPublished = row.publishedAt !== null;
    const _place: number | null = null;
    const _score: number | null = null;
    const _classSize = 0;
    const board = isPublished ? boards.find((each) => each.classId === row.classId) : undefined;
    const standing = board?.standings.find((each) => each.carId === row.applicationId);
    const place = standing?.place ?? null;
    const score = standing?.score ?? null;
    const classSize = board?.standings.length ?? 0;
    const scoreShown = choice.get(`score:${row.applicationId}`) === true;
    return {
      applicationId: row.applicationId,
      event: {
        id: row.eventId,
        slug: row.slug,
        title: row.title,
        startsAt: row.startsAt,
        timeZone: row.timeZone,
        town: row.town,
      },
      attended: row.checkedInAt !== null,
      showNumber: row.showNumber,
      className: row.className,
      published: isPublished,
      place,
      classSize,
      score: input.owner || scoreShown ? score : null,
      scoreShown,
      awards: awards
        .filter((award) => award.applicationId === row.applicationId)
        .map(({ id, title, className }) => ({ id, title, className })),
      votes: isPublished ? votePlaces(votes, row.eventId, row.applicationId) : [],
      hidden: choice.get(`show:${row.applicationId}`) === false,
    };
  });
  return input.owner ? entries : entries.filter((entry) => !entry.hidden);
}

/** The car's votes in each People's Choice category of the show, with its place there (shared on equal votes). */
function votePlaces(
  votes: readonly { eventId: string; category: string; categoryId: string; applicationId: string; votes: number }[],
  eventId: string,
  applicationId: string,
) {
  const mine = votes.filter((row) => row.eventId === eventId && row.applicationId === applicationId);
  return mine.map((row) => {
    const ahead = votes.filter(
      (other) =>
        other.eventId === eventId && other.categoryId === row.categoryId && Number(other.votes) > Number(row.votes),
    ).length;
    return { category: row.category, votes: Number(row.votes), place: ahead + 1 };
  });
}

/**
 * The awards each of these cars has won at shows whose results are published, for the badges on
 * their tiles: one query for a page of cars. Shows their owners hid are left out.
 */
export async function awardsOfCars(db: Db, carIds: readonly string[]) {
  const byCar = new Map<string, string[]>();
  if (carIds.length === 0) return byCar;
  const rows = await db
    .select({ carId: showCarApplications.carId, title: showAwards.title })
    .from(showAwards)
    .innerJoin(showCarApplications, eq(showCarApplications.id, showAwards.applicationId))
    .innerJoin(
      showSettings,
      and(eq(showSettings.eventId, showAwards.eventId), isNotNull(showSettings.resultsPublishedAt)),
    )
    .leftJoin(
      carHistoryChoices,
      and(
        eq(carHistoryChoices.carId, showCarApplications.carId),
        eq(carHistoryChoices.item, sql`'show:' || ${showCarApplications.id}::text`),
        eq(carHistoryChoices.shown, false),
      ),
    )
    .where(and(inArray(showCarApplications.carId, [...carIds]), sql`${carHistoryChoices.carId} is null`))
    .orderBy(asc(showAwards.givenAt), asc(showAwards.title));
  for (const row of rows) {
    if (!row.carId) continue;
    byCar.set(row.carId, [...(byCar.get(row.carId) ?? []), row.title]);
  }
  return byCar;
}

/**
 * The owner's choice about one show of their car: hide it from everyone else (or show it again),
 * or show its score (hidden unless chosen). Only the car's owner can choose, and only for a show
 * the car was in; false when either is not so.
 */
export async function chooseHistory(
  db: Db,
  input: { ownerId: string; carId: string; applicationId: string; what: "show" | "score"; shown: boolean },
) {
  const [application] = await db
    .select({ id: showCarApplications.id })
    .from(showCarApplications)
    .innerJoin(cars, eq(cars.id, showCarApplications.carId))
    .where(
      and(eq(showCarApplications.id, input.applicationId), eq(cars.id, input.carId), eq(cars.ownerId, input.ownerId)),
    );
  if (!application) return false;
  const item: HistoryItem = `${input.what}:${input.applicationId}`;
  await db
    .insert(carHistoryChoices)
    .values({ carId: input.carId, item, shown: input.shown })
    .onConflictDoUpdate({ target: [carHistoryChoices.carId, carHistoryChoices.item], set: { shown: input.shown } });
  return true;
}
