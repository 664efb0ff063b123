import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { recordAudit } from "~/features/admin/audit.server";
import { formatEventInstant } from "~/features/events/event-dates";
import { formatTicketCode, newTicketCode, signTicketCode } from "~/features/tickets/ticket-codes.server";
import type { Db } from "~/server/db/client.server";
import { isUniqueViolation, transactionWithRetry } from "~/server/db/retry.server";
import {
  type ApplicationStatus,
  carPhotos,
  cars,
  cartItems,
  carts,
  events,
  exhibitorPasses,
  showCarApplications,
  users,
} from "../../../db/schema";
import { DECISION_NOTE_MAX, NOTE_MAX } from "./limits";

/**
 * Show-car applications (docs/applications.md): a member applies with one of their garage cars
 * while an event's applications are open; staff approve, wait-list or reject with a note;
 * approval takes the event's row lock and counts approved and paid applications against the
 * event's spots, so two staff on two servers can never approve past them. An approved
 * application with a fee is paid through the one cart and checkout (an `application` line);
 * a free one, or a paid fee, gives an exhibitor pass that the gate admits like a ticket.
 */

export { DECISION_NOTE_MAX, NOTE_MAX } from "./limits";

/** Applications still holding, or waiting for, one of the event's spots. */
export const SPOT_STATUSES: ApplicationStatus[] = ["approved", "paid"];
/** What a member can still withdraw: anything not yet paid, rejected or withdrawn. */
export const WITHDRAWABLE: ApplicationStatus[] = ["submitted", "waitlisted", "approved"];

export const STATUS_LABELS: Record<ApplicationStatus, string> = {
  submitted: "Waiting for review",
  approved: "Approved",
  waitlisted: "On the waiting list",
  rejected: "Not accepted",
  withdrawn: "Withdrawn",
  paid: "Confirmed",
};

export type ApplicationEvent = {
  id: string;
  slug: string;
  title: string;
  status: string;
  endsAt: Date;
  timeZone: string;
  applicationsOpen: boolean;
  applicationsDeadline: Date | null;
  applicationSpots: number | null;
  applicationFee: number;
};

const eventColumns = {
  id: events.id,
  slug: events.slug,
  title: events.title,
  status: events.status,
  endsAt: events.endsAt,
  timeZone: events.timeZone,
  applicationsOpen: events.applicationsOpen,
  applicationsDeadline: events.applicationsDeadline,
  applicationSpots: events.applicationSpots,
  applicationFee: events.applicationFee,
};

/** The label a car is applied with: "1991 Mazda MX-5". */
export function carLabel(car: { year: number; make: string; model: string }) {
  return `${car.year} ${car.make} ${car.model}`.trim();
}

/** Why members cannot apply to this event now; null while they can. */
export function applyingClosedReason(event: ApplicationEvent, now: Date): string | null {
  if (event.status !== "published") return "This event is not taking applications";
  if (now >= event.endsAt) return "This event has ended";
  if (!event.applicationsOpen) return "Applications for this event are closed";
  if (event.applicationsDeadline && now >= event.applicationsDeadline)
    return "The deadline for applications has passed";
  return null;
}

/** The last moment an approved application's fee can be paid: the deadline, else the event's end. */
export function payByOf(event: Pick<ApplicationEvent, "applicationsDeadline" | "endsAt">) {
  return event.applicationsDeadline ?? event.endsAt;
}

/** Why an application's fee cannot be paid now; null when it can (cart, checkout and settlement). */
export function feeLineProblem(
  application: { status: ApplicationStatus; fee: number },
  event: Pick<ApplicationEvent, "status" | "applicationsDeadline" | "endsAt">,
  now: Date,
): string | null {
  if (application.status === "paid") return "This application's fee has already been paid";
  if (application.status !== "approved") return "This application is no longer approved";
  if (application.fee <= 0) return "This application has no fee to pay";
  if (event.status === "cancelled") return "The event was cancelled";
  if (now >= payByOf(event)) return "The deadline for paying this application's fee has passed";
  return null;
}

async function eventById(db: Db, eventId: string) {
  const [event] = await db.select(eventColumns).from(events).where(eq(events.id, eventId));
  return event ?? null;
}

export type ApplyResult =
  | { ok: true; applicationId: string; carLabel: string }
  | { ok: false; field: "carId" | "note" | "form"; message: string };

/**
 * A member applies to show one of their own cars. One application per car per event: a second
 * is refused by the unique index with a clear message; a withdrawn one may be sent again.
 */
export async function applyWithCar(
  db: Db,
  input: { userId: string; eventId: string; carId: string; note: string; now: Date },
): Promise<ApplyResult> {
  const note = input.note.trim();
  if (note.length > NOTE_MAX)
    return { ok: false, field: "note", message: `Keep the note under ${NOTE_MAX} characters` };
  const event = await eventById(db, input.eventId);
  if (!event) return { ok: false, field: "form", message: "This event could not be found" };
  const closed = applyingClosedReason(event, input.now);
  if (closed) return { ok: false, field: "form", message: closed };
  const [car] = await db
    .select({ id: cars.id, year: cars.year, make: cars.make, model: cars.model })
    .from(cars)
    .where(and(eq(cars.id, input.carId), eq(cars.ownerId, input.userId)));
  if (!car) return { ok: false, field: "carId", message: "Choose one of the cars in your garage" };
  const label = carLabel(car);
  try {
    return await db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: showCarApplications.id, status: showCarApplications.status })
        .from(showCarApplications)
        .where(and(eq(showCarApplications.eventId, event.id), eq(showCarApplications.carId, car.id)))
        .for("update");
      if (existing && existing.status !== "withdrawn") {
        return { ok: false as const, field: "carId" as const, message: "You have already applied with this car" };
      }
      if (existing) {
        await tx
          .update(showCarApplications)
          .set({
            status: "submitted",
            note,
            carLabel: label,
            fee: 0,
            decisionNote: null,
            reviewedBy: null,
            reviewedAt: null,
            updatedAt: input.now,
          })
          .where(eq(showCarApplications.id, existing.id));
        return { ok: true as const, applicationId: existing.id, carLabel: label };
      }
      const [created] = await tx
        .insert(showCarApplications)
        .values({
          eventId: event.id,
          userId: input.userId,
          carId: car.id,
          carLabel: label,
          note,
          createdAt: input.now,
          updatedAt: input.now,
        })
        .returning({ id: showCarApplications.id });
      return { ok: true as const, applicationId: created!.id, carLabel: label };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      return { ok: false, field: "carId", message: "You have already applied with this car" };
    }
    throw error;
  }
}

export type WithdrawResult = { ok: true } | { ok: false; message: string };

/** The member withdraws an application that is not paid yet; its spot (if approved) frees at once. */
export async function withdrawApplication(
  db: Db,
  input: { userId: string; applicationId: string; now: Date },
): Promise<WithdrawResult> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: showCarApplications.id, status: showCarApplications.status })
      .from(showCarApplications)
      .where(and(eq(showCarApplications.id, input.applicationId), eq(showCarApplications.userId, input.userId)))
      .for("update");
    if (!row) return { ok: false as const, message: "This application could not be found" };
    if (!WITHDRAWABLE.includes(row.status)) {
      return {
        ok: false as const,
        message:
          row.status === "paid"
            ? "A confirmed application cannot be withdrawn here; contact the organizers"
            : "This application is already closed",
      };
    }
    await tx
      .update(showCarApplications)
      .set({ status: "withdrawn", updatedAt: input.now })
      .where(eq(showCarApplications.id, row.id));
    await tx.delete(cartItems).where(eq(cartItems.applicationId, row.id));
    return { ok: true as const };
  });
}

export type Decision = "approve" | "waitlist" | "reject";

const DECISION_STATUS: Record<Decision, ApplicationStatus> = {
  approve: "approved",
  waitlist: "waitlisted",
  reject: "rejected",
};

/** Which decisions each status allows. */
const ALLOWED: Record<ApplicationStatus, Decision[]> = {
  submitted: ["approve", "waitlist", "reject"],
  waitlisted: ["approve", "reject"],
  approved: ["reject"],
  rejected: [],
  withdrawn: [],
  paid: [],
};

export type DecisionResult =
  | {
      ok: true;
      status: ApplicationStatus;
      /** Who to tell: the member's email and name (null when the account is gone). */
      member: { email: string; name: string } | null;
      event: { slug: string; title: string };
      carLabel: string;
      fee: number;
      payBy: Date;
      timeZone: string;
      passIssued: boolean;
    }
  | { ok: false; message: string };

/**
 * Staff decide on an application. Approval locks the event's row first, then counts the
 * approved and paid applications against its spots, so parallel approvals on any number of
 * servers queue on that lock and the last spot goes once. A free application is confirmed at
 * once and its pass issued; one with a fee waits for payment. Audited in the same transaction.
 */
export async function decideApplication(
  db: Db,
  input: {
    applicationId: string;
    eventId: string;
    decision: Decision;
    note: string;
    staffId: string;
    now: Date;
  },
): Promise<DecisionResult> {
  const note = input.note.trim();
  if (note.length > DECISION_NOTE_MAX) {
    return { ok: false, message: `Keep the message under ${DECISION_NOTE_MAX} characters` };
  }
  return transactionWithRetry(db, async (tx) => {
    const [event] = await tx.select(eventColumns).from(events).where(eq(events.id, input.eventId)).for("no key update");
    if (!event) return { ok: false as const, message: "This event could not be found" };
    const [application] = await tx
      .select({
        id: showCarApplications.id,
        status: showCarApplications.status,
        userId: showCarApplications.userId,
        carLabel: showCarApplications.carLabel,
      })
      .from(showCarApplications)
      .where(and(eq(showCarApplications.id, input.applicationId), eq(showCarApplications.eventId, event.id)))
      .for("update");
    if (!application) return { ok: false as const, message: "This application could not be found" };
    if (!ALLOWED[application.status].includes(input.decision)) {
      return {
        ok: false as const,
        message: `This application is ${STATUS_LABELS[application.status].toLowerCase()}; it cannot be changed that way`,
      };
    }
    if (input.decision === "approve" && event.applicationSpots !== null) {
      const [taken] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(showCarApplications)
        .where(and(eq(showCarApplications.eventId, event.id), inArray(showCarApplications.status, SPOT_STATUSES)));
      if (Number(taken?.count ?? 0) >= event.applicationSpots) {
        return {
          ok: false as const,
          message: `All ${event.applicationSpots} spots are taken; put it on the waiting list, or free a spot first`,
        };
      }
    }
    const fee = input.decision === "approve" ? event.applicationFee : 0;
    const free = input.decision === "approve" && fee === 0;
    const status: ApplicationStatus = free ? "paid" : DECISION_STATUS[input.decision];
    await tx
      .update(showCarApplications)
      .set({
        status,
        fee,
        decisionNote: note || null,
        reviewedBy: input.staffId,
        reviewedAt: input.now,
        paidAt: free ? input.now : null,
        updatedAt: input.now,
      })
      .where(eq(showCarApplications.id, application.id));
    if (free) {
      await issuePass(tx, {
        applicationId: application.id,
        eventId: event.id,
        userId: application.userId,
        orderId: null,
        now: input.now,
      });
    }
    if (input.decision === "reject") {
      await tx.delete(cartItems).where(eq(cartItems.applicationId, application.id));
    }
    await recordAudit(tx, {
      actorId: input.staffId,
      action: `application.${input.decision}`,
      subjectType: "show_car_application",
      subjectId: application.id,
      details: { eventId: event.id, car: application.carLabel, from: application.status, to: status, note },
    });
    const [member] = application.userId
      ? await tx.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, application.userId))
      : [];
    return {
      ok: true as const,
      status,
      member: member ?? null,
      event: { slug: event.slug, title: event.title },
      carLabel: application.carLabel,
      fee,
      payBy: payByOf(event),
      timeZone: event.timeZone,
      passIssued: free,
    };
  });
}

/**
 * Issues the exhibitor pass of a confirmed application (free approval, or its fee settled). The
 * unique application key makes a repeat a no-op; a pass cancelled by a refund is made valid again
 * with a new code if the application is confirmed once more.
 */
export async function issuePass(
  tx: Db,
  input: { applicationId: string; eventId: string; userId: string | null; orderId: string | null; now: Date },
) {
  const code = newTicketCode();
  await tx
    .insert(exhibitorPasses)
    .values({
      applicationId: input.applicationId,
      eventId: input.eventId,
      userId: input.userId,
      orderId: input.orderId,
      code,
      createdAt: input.now,
    })
    .onConflictDoUpdate({
      target: exhibitorPasses.applicationId,
      set: { status: "valid", code, orderId: input.orderId, checkedInAt: null, checkedInBy: null },
      setWhere: sql`${exhibitorPasses.status} = 'cancelled'`,
    });
}

/**
 * Settlement of an order's application lines: each application (still approved) becomes paid
 * and gets its pass. Called inside settlement's transaction after the order is marked paid.
 */
export async function settleApplicationFees(
  tx: Db,
  input: { orderId: string; userId: string | null; applicationIds: string[]; now: Date },
) {
  if (input.applicationIds.length === 0) return 0;
  const paid = await tx
    .update(showCarApplications)
    .set({ status: "paid", paidAt: input.now, updatedAt: input.now })
    .where(and(inArray(showCarApplications.id, input.applicationIds), eq(showCarApplications.status, "approved")))
    .returning({
      id: showCarApplications.id,
      eventId: showCarApplications.eventId,
      userId: showCarApplications.userId,
    });
  for (const row of paid) {
    await issuePass(tx, {
      applicationId: row.id,
      eventId: row.eventId,
      userId: row.userId,
      orderId: input.orderId,
      now: input.now,
    });
  }
  return paid.length;
}

/**
 * Why an order's application lines can no longer be honoured at settlement (not approved any
 * more, or past the deadline); null when they can.
 */
export async function applicationFeesProblem(tx: Db, applicationIds: string[], now: Date): Promise<string | null> {
  if (applicationIds.length === 0) return null;
  const rows = await tx
    .select({
      status: showCarApplications.status,
      fee: showCarApplications.fee,
      eventStatus: events.status,
      applicationsDeadline: events.applicationsDeadline,
      endsAt: events.endsAt,
    })
    .from(showCarApplications)
    .innerJoin(events, eq(events.id, showCarApplications.eventId))
    .where(inArray(showCarApplications.id, applicationIds))
    .for("update", { of: showCarApplications });
  if (rows.length !== applicationIds.length) return "A show-car application in the order no longer exists";
  for (const row of rows) {
    const problem = feeLineProblem(row, { ...row, status: row.eventStatus }, now);
    if (problem) return problem;
  }
  return null;
}

/**
 * A refund of application fees: the passes are cancelled and the applications withdrawn, which
 * frees their spots for the waiting list.
 */
export async function cancelRefundedApplications(tx: Db, applicationIds: string[], now: Date) {
  if (applicationIds.length === 0) return;
  await tx
    .update(exhibitorPasses)
    .set({ status: "cancelled" })
    .where(inArray(exhibitorPasses.applicationId, applicationIds));
  await tx
    .update(showCarApplications)
    .set({ status: "withdrawn", updatedAt: now })
    .where(inArray(showCarApplications.id, applicationIds));
}

export type PayFeeResult = { ok: true; cartId: string } | { ok: false; message: string };

/**
 * "Pay the fee": the approved application's fee goes into the member's cart as one
 * `application` line (a second click changes nothing). Checkout and settlement check it again.
 */
export async function addFeeToCart(
  db: Db,
  input: { userId: string; applicationId: string; now: Date },
): Promise<PayFeeResult> {
  const [row] = await db
    .select({
      id: showCarApplications.id,
      status: showCarApplications.status,
      fee: showCarApplications.fee,
      eventStatus: events.status,
      applicationsDeadline: events.applicationsDeadline,
      endsAt: events.endsAt,
    })
    .from(showCarApplications)
    .innerJoin(events, eq(events.id, showCarApplications.eventId))
    .where(and(eq(showCarApplications.id, input.applicationId), eq(showCarApplications.userId, input.userId)));
  if (!row) return { ok: false, message: "This application could not be found" };
  const problem = feeLineProblem(row, { ...row, status: row.eventStatus }, input.now);
  if (problem) return { ok: false, message: problem };
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(carts)
      .values({ userId: input.userId })
      .onConflictDoNothing()
      .returning({ id: carts.id });
    const cartId =
      created?.id ?? (await tx.select({ id: carts.id }).from(carts).where(eq(carts.userId, input.userId)))[0]!.id;
    await tx
      .insert(cartItems)
      .values({ cartId, kind: "application", applicationId: row.id, quantity: 1 })
      .onConflictDoNothing();
    await tx.update(carts).set({ updatedAt: input.now }).where(eq(carts.id, cartId));
    return { ok: true as const, cartId };
  });
}

export async function removeFeeFromCart(db: Db, input: { cartId: string; applicationId: string; now: Date }) {
  await db
    .delete(cartItems)
    .where(and(eq(cartItems.cartId, input.cartId), eq(cartItems.applicationId, input.applicationId)));
  await db.update(carts).set({ updatedAt: input.now }).where(eq(carts.id, input.cartId));
}

export type CartApplicationLine = {
  applicationId: string;
  eventTitle: string;
  eventSlug: string;
  carLabel: string;
  unitPrice: number;
  quantity: 1;
  problem: string | null;
  closed: boolean;
};

/** The cart's application lines (CartApplication), with whatever stands in the way of paying. */
export async function applicationCartLines(
  db: Db,
  input: { cartId: string; now: Date },
): Promise<CartApplicationLine[]> {
  const rows = await db
    .select({
      applicationId: showCarApplications.id,
      status: showCarApplications.status,
      fee: showCarApplications.fee,
      carLabel: showCarApplications.carLabel,
      eventTitle: events.title,
      eventSlug: events.slug,
      eventStatus: events.status,
      applicationsDeadline: events.applicationsDeadline,
      endsAt: events.endsAt,
    })
    .from(cartItems)
    .innerJoin(showCarApplications, eq(showCarApplications.id, cartItems.applicationId))
    .innerJoin(events, eq(events.id, showCarApplications.eventId))
    .where(and(eq(cartItems.cartId, input.cartId), eq(cartItems.kind, "application")))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.id));
  return rows.map((row) => {
    const problem = feeLineProblem(row, { ...row, status: row.eventStatus }, input.now);
    return {
      applicationId: row.applicationId,
      eventTitle: row.eventTitle,
      eventSlug: row.eventSlug,
      carLabel: row.carLabel,
      unitPrice: row.fee,
      quantity: 1 as const,
      problem,
      closed: problem !== null,
    };
  });
}

/** The application lines checkout turns into order lines, checked under the application row locks. */
export async function applicationCheckoutItems(tx: Db, input: { applicationIds: string[]; now: Date }) {
  if (input.applicationIds.length === 0) return [];
  const rows = await tx
    .select({
      applicationId: showCarApplications.id,
      eventId: showCarApplications.eventId,
      status: showCarApplications.status,
      fee: showCarApplications.fee,
      carLabel: showCarApplications.carLabel,
      eventTitle: events.title,
      eventStatus: events.status,
      applicationsDeadline: events.applicationsDeadline,
      endsAt: events.endsAt,
    })
    .from(showCarApplications)
    .innerJoin(events, eq(events.id, showCarApplications.eventId))
    .where(inArray(showCarApplications.id, input.applicationIds))
    .orderBy(asc(showCarApplications.id))
    .for("update", { of: showCarApplications });
  return rows.map((row) => ({
    applicationId: row.applicationId,
    eventId: row.eventId,
    description: `${row.eventTitle} — show car: ${row.carLabel}`,
    unitPrice: row.fee,
    problem: feeLineProblem(row, { ...row, status: row.eventStatus }, input.now),
  }));
}

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
      coverHash: carPhotos.hash,
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
    .leftJoin(cars, eq(cars.id, showCarApplications.carId))
    .leftJoin(carPhotos, eq(carPhotos.id, cars.coverPhotoId))
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

/** Applications waiting for a decision across every event, for the dashboard. */
export async function pendingApplicationCount(db: Db) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(showCarApplications)
    .where(eq(showCarApplications.status, "submitted"));
  return Number(row?.count ?? 0);
}

export type PassCheckIn =
  | { kind: "checked_in"; carLabel: string; coverHash: string | null; holder: string | null }
  | {
      kind: "already_checked_in";
      carLabel: string;
      coverHash: string | null;
      holder: string | null;
      checkedInAt: Date;
      checkedInBy: string | null;
    }
  | { kind: "cancelled"; carLabel: string; coverHash: string | null; holder: string | null }
  | { kind: "other_event"; eventTitle: string }
  | { kind: "not_found" };

/**
 * Checks an exhibitor pass in at the gate: a conditional update, so of two scanners reading it
 * at once exactly one admits it and the other is told when and by whom.
 */
export async function checkInPass(
  db: Db,
  input: { code: string; eventId: string; staffId: string; now: Date },
): Promise<PassCheckIn> {
  const [admitted] = await db
    .update(exhibitorPasses)
    .set({ checkedInAt: input.now, checkedInBy: input.staffId })
    .where(
      and(
        eq(exhibitorPasses.code, input.code),
        eq(exhibitorPasses.eventId, input.eventId),
        eq(exhibitorPasses.status, "valid"),
        sql`${exhibitorPasses.checkedInAt} is null`,
      ),
    )
    .returning({ id: exhibitorPasses.id });
  const checker = sql<string | null>`(select name from users c where c.id = ${exhibitorPasses.checkedInBy})`;
  const [pass] = await db
    .select({
      eventId: exhibitorPasses.eventId,
      eventTitle: events.title,
      status: exhibitorPasses.status,
      checkedInAt: exhibitorPasses.checkedInAt,
      checkedInBy: checker,
      carLabel: showCarApplications.carLabel,
      coverHash: carPhotos.hash,
      holder: users.name,
    })
    .from(exhibitorPasses)
    .innerJoin(events, eq(events.id, exhibitorPasses.eventId))
    .innerJoin(showCarApplications, eq(showCarApplications.id, exhibitorPasses.applicationId))
    .leftJoin(users, eq(users.id, exhibitorPasses.userId))
    .leftJoin(cars, eq(cars.id, showCarApplications.carId))
    .leftJoin(carPhotos, eq(carPhotos.id, cars.coverPhotoId))
    .where(eq(exhibitorPasses.code, input.code));
  if (!pass) return { kind: "not_found" };
  if (pass.eventId !== input.eventId) return { kind: "other_event", eventTitle: pass.eventTitle };
  const shown = { carLabel: pass.carLabel, coverHash: pass.coverHash, holder: pass.holder };
  if (admitted) return { kind: "checked_in", ...shown };
  if (pass.status === "cancelled") return { kind: "cancelled", ...shown };
  return {
    kind: "already_checked_in",
    ...shown,
    checkedInAt: pass.checkedInAt ?? input.now,
    checkedInBy: pass.checkedInBy,
  };
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
      coverHash: carPhotos.hash,
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
    .leftJoin(cars, eq(cars.id, showCarApplications.carId))
    .leftJoin(carPhotos, eq(carPhotos.id, cars.coverPhotoId))
    .where(and(inArray(showCarApplications.status, ["submitted", "waitlisted"]), sql`${events.endsAt} > ${now}`))
    .orderBy(asc(events.startsAt), asc(showCarApplications.createdAt), asc(showCarApplications.id))
    .limit(PENDING_SHOWN);
}
