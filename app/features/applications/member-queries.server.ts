import { and, asc, desc, eq } from "drizzle-orm";
import { formatEventInstant } from "~/features/dates/event-dates";
import { formatTicketCode, signTicketCode } from "~/features/tickets/ticket-codes.server";
import type { Db } from "~/server/db/client.server";
import { type ApplicationStatus, cars, events, exhibitorPasses, showCarApplications } from "../../../db/schema";
import { carLabel, feeLineProblem, payByOf, STATUS_LABELS, WITHDRAWABLE } from "./application-rules";

/** What the member's pages read: the event page's "Apply with your car" and My events. */

/** The member's garage cars to pick from on an event page, newest first. */
export async function carsToApplyWith(db: Db, input: { userId: string; eventId: string }) {
  const rows = await db
    .select({
      id: cars.id,
      year: cars.year,
      make: cars.make,
      model: cars.model,
      applicationStatus: showCarApplications.status,
    })
    .from(cars)
    .leftJoin(
      showCarApplications,
      and(eq(showCarApplications.carId, cars.id), eq(showCarApplications.eventId, input.eventId)),
    )
    .where(eq(cars.ownerId, input.userId))
    .orderBy(desc(cars.createdAt), asc(cars.id));
  return rows.map((row) => ({
    id: row.id,
    label: carLabel(row),
    applied: row.applicationStatus !== null && row.applicationStatus !== "withdrawn",
  }));
}

export type MyApplication = {
  id: string;
  status: ApplicationStatus;
  statusLabel: string;
  carLabel: string;
  note: string;
  decisionNote: string | null;
  fee: number;
  /** "Pay the fee" is offered: approved, with a fee, before the deadline. */
  canPay: boolean;
  canWithdraw: boolean;
  payBy: string;
  event: { id: string; slug: string; title: string; startsAt: Date; endsAt: Date; timeZone: string };
  pass: { shortCode: string; qrPayload: string | null; status: string; checkedInAt: string | null } | null;
};

/** The member's applications, newest first, each with its pass when it has one. */
export async function applicationsOfMember(
  db: Db,
  input: { userId: string; secret: string; now: Date },
): Promise<MyApplication[]> {
  const rows = await db
    .select({
      id: showCarApplications.id,
      status: showCarApplications.status,
      carLabel: showCarApplications.carLabel,
      note: showCarApplications.note,
      decisionNote: showCarApplications.decisionNote,
      fee: showCarApplications.fee,
      eventId: events.id,
      slug: events.slug,
      title: events.title,
      eventStatus: events.status,
      startsAt: events.startsAt,
      endsAt: events.endsAt,
      timeZone: events.timeZone,
      applicationsDeadline: events.applicationsDeadline,
      passCode: exhibitorPasses.code,
      passStatus: exhibitorPasses.status,
      passCheckedInAt: exhibitorPasses.checkedInAt,
    })
    .from(showCarApplications)
    .innerJoin(events, eq(events.id, showCarApplications.eventId))
    .leftJoin(exhibitorPasses, eq(exhibitorPasses.applicationId, showCarApplications.id))
    .where(eq(showCarApplications.userId, input.userId))
    .orderBy(desc(showCarApplications.createdAt), asc(showCarApplications.id));
  return rows.map((row) => {
    const event = { ...row, status: row.eventStatus };
    const pass =
      row.passCode && row.passStatus
        ? {
            shortCode: formatTicketCode(row.passCode),
            qrPayload: row.passStatus === "valid" ? signTicketCode(row.passCode, input.secret) : null,
            status: row.passStatus,
            checkedInAt: row.passCheckedInAt ? formatEventInstant(row.passCheckedInAt, row.timeZone) : null,
          }
        : null;
    return {
      id: row.id,
      status: row.status,
      statusLabel: STATUS_LABELS[row.status],
      carLabel: row.carLabel,
      note: row.note,
      decisionNote: row.decisionNote,
      fee: row.fee,
      canPay: feeLineProblem(row, event, input.now) === null,
      canWithdraw: WITHDRAWABLE.includes(row.status),
      payBy: formatEventInstant(payByOf(event), row.timeZone),
      event: {
        id: row.eventId,
        slug: row.slug,
        title: row.title,
        startsAt: row.startsAt,
        endsAt: row.endsAt,
        timeZone: row.timeZone,
      },
      pass,
    };
  });
}

export type ApplySection =
  | { signedIn: false }
  | {
      signedIn: true;
      cars: { id: string; label: string; applied: boolean }[];
      mine: {
        id: string;
        carLabel: string;
        status: ApplicationStatus;
        statusLabel: string;
        canWithdraw: boolean;
      }[];
    };

/** What the event page's "Apply with your car" section shows the viewer. */
export async function applySectionFor(
  db: Db,
  input: { userId: string | null; eventId: string },
): Promise<ApplySection> {
  if (!input.userId) return { signedIn: false };
  const [garage, mine] = await Promise.all([
    carsToApplyWith(db, { userId: input.userId, eventId: input.eventId }),
    db
      .select({
        id: showCarApplications.id,
        carLabel: showCarApplications.carLabel,
        status: showCarApplications.status,
      })
      .from(showCarApplications)
      .where(and(eq(showCarApplications.eventId, input.eventId), eq(showCarApplications.userId, input.userId)))
      .orderBy(asc(showCarApplications.createdAt)),
  ]);
  return {
    signedIn: true,
    cars: garage,
    mine: mine
      .filter((row) => row.status !== "withdrawn")
      .map((row) => ({
        ...row,
        statusLabel: STATUS_LABELS[row.status],
        canWithdraw: WITHDRAWABLE.includes(row.status),
      })),
  };
}
