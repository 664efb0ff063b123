import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import {
  type ApplicationStatus,
  carPhotos,
  cars,
  events,
  exhibitorPasses,
  showCarApplications,
  users,
} from "../../../db/schema";
import { SPOT_STATUSES } from "./application-rules";

/** What the organizers' review pages read: an event's applications and spots, and what waits across events. */

export type ReviewedApplication = {
  id: string;
  status: ApplicationStatus;
  carLabel: string;
  coverHash: string | null;
  note: string;
  decisionNote: string | null;
  fee: number;
  memberName: string | null;
  memberEmail: string | null;
  createdAt: Date;
  reviewedBy: string | null;
  passCheckedIn: boolean;
};

/**
 * The cover photo of the application's car, for its thumbnail: null once the car is gone or while
 * it has no cover. The application's table is named, so the subquery never reads a column of its own.
 */
export const applicationCarCover = sql<string | null>`(select p.hash from ${cars} c
  join ${carPhotos} p on p.id = c.cover_photo_id where c.id = ${showCarApplications}.car_id)`;

/** What the staff's review page shows of the event: its time zone and how it takes applications. */
export async function applicationSettings(db: Db, eventId: string) {
  const [event] = await db
    .select({
      id: events.id,
      timeZone: events.timeZone,
      applicationsOpen: events.applicationsOpen,
      applicationSpots: events.applicationSpots,
      applicationFee: events.applicationFee,
    })
    .from(events)
    .where(eq(events.id, eventId));
  return event ?? null;
}

/** An event's applications for staff, with the car's cover photo, in one query. */
export async function applicationsOfEvent(db: Db, eventId: string): Promise<ReviewedApplication[]> {
  const reviewer = sql<string | null>`(select name from users r where r.id = ${showCarApplications.reviewedBy})`;
  const rows = await db
    .select({
      id: showCarApplications.id,
      status: showCarApplications.status,
      carLabel: showCarApplications.carLabel,
      coverHash: applicationCarCover,
      note: showCarApplications.note,
      decisionNote: showCarApplications.decisionNote,
      fee: showCarApplications.fee,
      memberName: users.name,
      memberEmail: users.email,
      createdAt: showCarApplications.createdAt,
      reviewedBy: reviewer,
      passCheckedInAt: exhibitorPasses.checkedInAt,
    })
    .from(showCarApplications)
    .leftJoin(users, eq(users.id, showCarApplications.userId))
    .leftJoin(exhibitorPasses, eq(exhibitorPasses.applicationId, showCarApplications.id))
    .where(eq(showCarApplications.eventId, eventId))
    .orderBy(asc(showCarApplications.createdAt), asc(showCarApplications.id));
  return rows.map(({ passCheckedInAt, ...row }) => ({ ...row, passCheckedIn: passCheckedInAt !== null }));
}

/** How many spots are taken (approved or paid) of the event's spots. */
export async function spotsTaken(db: Db, eventId: string) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(showCarApplications)
    .where(and(eq(showCarApplications.eventId, eventId), inArray(showCarApplications.status, SPOT_STATUSES)));
  return Number(row?.count ?? 0);
}

/** The most the cross-event list shows; each event's own tab lists all of its applications. */
export const PENDING_SHOWN = 200;

/**
 * Applications waiting for a decision (submitted or wait-listed) across every event that has not
 * ended, oldest first, with the event and the car's cover photo, in one query.
 */
export async function pendingApplications(db: Db, now: Date) {
  return db
    .select({
      id: showCarApplications.id,
      status: showCarApplications.status,
      carLabel: showCarApplications.carLabel,
      coverHash: applicationCarCover,
      memberName: users.name,
      createdAt: showCarApplications.createdAt,
      eventId: events.id,
      eventTitle: events.title,
      eventStartsAt: events.startsAt,
      timeZone: events.timeZone,
    })
    .from(showCarApplications)
    .innerJoin(events, eq(events.id, showCarApplications.eventId))
    .leftJoin(users, eq(users.id, showCarApplications.userId))
    .where(and(inArray(showCarApplications.status, ["submitted", "waitlisted"]), sql`${events.endsAt} > ${now}`))
    .orderBy(asc(events.startsAt), asc(showCarApplications.createdAt), asc(showCarApplications.id))
    .limit(PENDING_SHOWN);
}
