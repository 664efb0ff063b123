import type { ApplicationStatus } from "../../../db/schema";

/**
 * Show-car applications (docs/applications.md): a member applies with one of their garage cars
 * while an event's applications are open; staff approve, wait-list or reject with a note;
 * approval takes the event's row lock and counts approved and paid applications against the
 * event's spots, so two staff on two servers can never approve past them. An approved
 * application with a fee is paid through the one cart and checkout (an `application` line);
 * a free one, or a paid fee, gives an exhibitor pass that the gate admits like a ticket.
 *
 * This module holds the rules they share, as pure functions: the statuses, when applying is
 * open, and when a fee can be paid. Applying and withdrawing are in apply.server.ts, the
 * organizers' decisions in decide.server.ts, the fee in the cart and checkout in fees.server.ts,
 * exhibitor passes in passes.server.ts, and what the pages read in member-queries.server.ts and
 * review-queries.server.ts.
 */

/** Applications still holding, or waiting for, one of the event's spots. */
export const SPOT_STATUSES: ApplicationStatus[] = ["approved", "paid"];
/** What a member can still withdraw: anything not yet paid, rejected or withdrawn. */
export const WITHDRAWABLE: ApplicationStatus[] = ["submitted", "waitlisted", "approved"];

/** What staff can decide about an application. */
export type Decision = "approve" | "waitlist" | "reject";

/** Which decisions each status allows: the review page offers these, and deciding checks them. */
export const DECISIONS_ALLOWED: Record<ApplicationStatus, Decision[]> = {
  submitted: ["approve", "waitlist", "reject"],
  waitlisted: ["approve", "reject"],
  approved: ["reject"],
  rejected: [],
  withdrawn: [],
  paid: [],
};

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
