import { and, asc, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import {
  type ClassCriterion,
  events,
  type JudgingScheme,
  showCarApplications,
  showClasses,
  showClassJudges,
  showEntries,
  showMarks,
} from "../../../db/schema";
import { judgeTotal, markProblem } from "./judging-rules";
import type { MarksSyncItem } from "./marking-schemas";

// A judge marking cars on their phone (docs/car-shows.md): a judge sees and marks only the cars of
// the classes they judge, marks go in halves, a closed class takes no more marks, and a save made
// offline never overwrites a mark the judge made after it.

/** Applications whose car is in the show: approved, or paid (at once when the show is free). */
const IN_SHOW = ["approved", "paid"] as const;

/** The events whose classes the member judges, from yesterday on, soonest first, with those classes. */
export async function judgingDutiesOf(db: Db, userId: string, now: Date) {
  const dayAgo = new Date(now.getTime() - 24 * 3_600_000);
  const rows = await db
    .select({
      eventId: events.id,
      title: events.title,
      startsAt: events.startsAt,
      timeZone: events.timeZone,
      className: showClasses.name,
    })
    .from(showClassJudges)
    .innerJoin(showClasses, eq(showClasses.id, showClassJudges.classId))
    .innerJoin(events, eq(events.id, showClasses.eventId))
    .where(and(eq(showClassJudges.userId, userId), gte(events.endsAt, dayAgo)))
    .orderBy(asc(events.startsAt), asc(events.id), asc(showClasses.position), asc(showClasses.name));
  const duties: { eventId: string; title: string; startsAt: Date; timeZone: string; classes: string[] }[] = [];
  for (const row of rows) {
    const last = duties.at(-1);
    if (last?.eventId === row.eventId) last.classes.push(row.className);
    else
      duties.push({
        eventId: row.eventId,
        title: row.title,
        startsAt: row.startsAt,
        timeZone: row.timeZone,
        classes: [row.className],
      });
  }
  return duties;
}

/** Whether the member judges any class of the event: the judging page's door. */
export async function judgesAt(db: Db, input: { eventId: string; userId: string }) {
  const [row] = await db
    .select({ classId: showClassJudges.classId })
    .from(showClassJudges)
    .innerJoin(showClasses, eq(showClasses.id, showClassJudges.classId))
    .where(and(eq(showClasses.eventId, input.eventId), eq(showClassJudges.userId, input.userId)))
    .limit(1);
  return Boolean(row);
}

export type SheetCar = {
  applicationId: string;
  showNumber: number | null;
  carLabel: string;
  /** What the windscreen QR carries, so a scan finds the car on the phone. */
  voteKey: string;
  /** This judge's marks by criterion id, as the judge entered them (7.5, not 15 halves). */
  marks: Record<string, number>;
  /** This judge's total out of 100, or null while a criterion is unmarked. */
  total: number | null;
};

export type SheetClass = {
  id: string;
  name: string;
  scheme: JudgingScheme;
  criteria: ClassCriterion[];
  closed: boolean;
  cars: SheetCar[];
};

/**
 * A judge's sheet for one event: the classes of it they judge, each with its cars by show number
 * and the judge's own marks (never another judge's). Null when there is no such event; a member
 * who judges none of its classes gets an empty list.
 */
export async function judgingSheet(db: Db, input: { eventId: string; userId: string }) {
  const [event] = await db
    .select({ id: events.id, title: events.title })
    .from(events)
    .where(eq(events.id, input.eventId));
  if (!event) return null;
  const classRows = await db
    .select({
      id: showClasses.id,
      name: showClasses.name,
      scheme: showClasses.scheme,
      criteria: showClasses.criteria,
      closedAt: showClasses.closedAt,
    })
    .from(showClasses)
    .innerJoin(
      showClassJudges,
      and(eq(showClassJudges.classId, showClasses.id), eq(showClassJudges.userId, input.userId)),
    )
    .where(eq(showClasses.eventId, input.eventId))
    .orderBy(asc(showClasses.position), asc(showClasses.name));
  const classIds = classRows.map((row) => row.id);
  const carRows =
    classIds.length === 0
      ? []
      : await db
          .select({
            classId: showEntries.classId,
            applicationId: showEntries.applicationId,
            showNumber: showEntries.showNumber,
            voteKey: showEntries.voteKey,
            carLabel: showCarApplications.carLabel,
          })
          .from(showEntries)
          .innerJoin(showCarApplications, eq(showCarApplications.id, showEntries.applicationId))
          .where(and(inArray(showEntries.classId, classIds), inArray(showCarApplications.status, IN_SHOW)))
          .orderBy(sql`${showEntries.showNumber} asc nulls last`, asc(showCarApplications.carLabel));
  const markRows =
    carRows.length === 0
      ? []
      : await db
          .select({
            applicationId: showMarks.applicationId,
            criterionId: showMarks.criterionId,
            halves: showMarks.halves,
          })
          .from(showMarks)
          .where(
            and(
              eq(showMarks.judgeId, input.userId),
              inArray(
                showMarks.applicationId,
                carRows.map((car) => car.applicationId),
              ),
            ),
          );
  const marksOf = new Map<string, Record<string, number>>();
  for (const mark of markRows) {
    const marks = marksOf.get(mark.applicationId) ?? {};
    marks[mark.criterionId] = mark.halves / 2;
    marksOf.set(mark.applicationId, marks);
  }
  const classes: SheetClass[] = classRows.map((row) => {
    const allowed = new Set(row.criteria.map((criterion) => criterion.id));
    return {
      id: row.id,
      name: row.name,
      scheme: row.scheme,
      criteria: row.criteria,
      closed: row.closedAt !== null,
      cars: carRows
        .filter((car) => car.classId === row.id)
        .map((car) => {
          // Marks on a criterion taken out of the class since are not the judge's business now.
          const marks = Object.fromEntries(
            Object.entries(marksOf.get(car.applicationId) ?? {}).filter(([id]) => allowed.has(id)),
          );
          return {
            applicationId: car.applicationId,
            showNumber: car.showNumber,
            carLabel: car.carLabel,
            voteKey: car.voteKey,
            marks,
            total: judgeTotal(row.scheme, row.criteria, new Map(Object.entries(marks))),
          };
        }),
    };
  });
  return { eventId: event.id, title: event.title, judgeId: input.userId, classes };
}

export type JudgingSheet = NonNullable<Awaited<ReturnType<typeof judgingSheet>>>;

export type SaveMarksOutcome =
  | {
      ok: true;
      /** `stale` when every mark sent was older than one the judge had saved already. */
      outcome: "saved" | "stale";
      message: string;
      /** The criteria whose newer mark was kept, by name. */
      kept: string[];
    }
  | { ok: false; field: string; message: string; status: 400 | 404 | 409 };

/**
 * Saves one judge's marks for one car, under the class's lock. The car must be in a class the judge
 * judges at this event and the class still open; every mark is checked with `markProblem` and
 * stored in halves. A mark saved at `savedAt` replaces the judge's earlier one only when it is newer,
 * so a phone sending old offline saves late never overwrites what the judge marked since, and the
 * same save sent twice changes nothing.
 */
export async function saveMarks(
  db: Db,
  input: {
    eventId: string;
    judgeId: string;
    applicationId: string;
    marks: readonly { criterionId: string; value: number }[];
    savedAt: Date;
    now: Date;
  },
): Promise<SaveMarksOutcome> {
  const savedAt = new Date(Math.min(input.savedAt.getTime(), input.now.getTime()));
  return db.transaction(async (tx) => {
    const [entry] = await tx
      .select({ classId: showEntries.classId })
      .from(showEntries)
      .innerJoin(showCarApplications, eq(showCarApplications.id, showEntries.applicationId))
      .innerJoin(
        showClassJudges,
        and(eq(showClassJudges.classId, showEntries.classId), eq(showClassJudges.userId, input.judgeId)),
      )
      .where(
        and(
          eq(showEntries.applicationId, input.applicationId),
          eq(showEntries.eventId, input.eventId),
          inArray(showCarApplications.status, IN_SHOW),
        ),
      );
    if (!entry?.classId) {
      return { ok: false, field: "applicationId", message: "This car is not in a class you judge", status: 404 };
    }
    // Closing a class takes this row for update: marks wait for it, or see it closed.
    const [showClass] = await tx
      .select({
        name: showClasses.name,
        scheme: showClasses.scheme,
        criteria: showClasses.criteria,
        closedAt: showClasses.closedAt,
      })
      .from(showClasses)
      .where(eq(showClasses.id, entry.classId))
      .for("share");
    if (!showClass) {
      return { ok: false, field: "applicationId", message: "This car is not in a class you judge", status: 404 };
    }
    if (showClass.closedAt) {
      return { ok: false, field: "", message: `Marking for ${showClass.name} is closed`, status: 409 };
    }
    const byId = new Map(showClass.criteria.map((criterion) => [criterion.id, criterion]));
    for (const mark of input.marks) {
      const criterion = byId.get(mark.criterionId);
      if (!criterion) {
        return {
          ok: false,
          field: "",
          message: `${showClass.name} has no such criterion any more: reload the page`,
          status: 400,
        };
      }
      const problem = markProblem(showClass.scheme, criterion, mark.value);
      if (problem) return { ok: false, field: mark.criterionId, message: problem, status: 400 };
    }
    if (input.marks.length === 0) return { ok: false, field: "", message: "Mark at least one criterion", status: 400 };
    // A newer save replaces the mark; the same save again rewrites the same mark, so a replayed
    // batch answers as it did the first time; an older save is left out.
    const written = await tx
      .insert(showMarks)
      .values(
        input.marks.map((mark) => ({
          applicationId: input.applicationId,
          classId: entry.classId!,
          judgeId: input.judgeId,
          criterionId: mark.criterionId,
          halves: Math.round(mark.value * 2),
          savedAt,
        })),
      )
      .onConflictDoUpdate({
        target: [showMarks.applicationId, showMarks.judgeId, showMarks.criterionId],
        set: {
          halves: sql`excluded.halves`,
          savedAt: sql`excluded.saved_at`,
          classId: sql`excluded.class_id`,
        },
        setWhere: sql`${showMarks.savedAt} < excluded.saved_at or (${showMarks.savedAt} = excluded.saved_at and ${showMarks.halves} = excluded.halves)`,
      })
      .returning({ criterionId: showMarks.criterionId });
    const writtenIds = new Set(written.map((row) => row.criterionId));
    const kept = input.marks
      .filter((mark) => !writtenIds.has(mark.criterionId))
      .map((mark) => byId.get(mark.criterionId)!.name);
    if (writtenIds.size === 0) {
      return {
        ok: true,
        outcome: "stale",
        message: "You had saved newer marks for this car already: those are kept",
        kept,
      };
    }
    return {
      ok: true,
      outcome: "saved",
      message:
        kept.length === 0
          ? "Marks saved"
          : `Marks saved, except ${kept.join(", ")}: you had saved a newer mark there, which is kept`,
      kept,
    };
  });
}

export type SyncedSave = { id: string; outcome: "saved" | "stale" | "refused"; message: string };

/**
 * A judge's phone back online sends the saves it kept (docs/car-shows.md). Each is saved in the
 * order sent, at the time it was made, so whatever order they arrive in the newest mark stands; the
 * answer says what became of each, so the phone can forget those answered and show any refusal.
 * Sending the same batch again changes nothing and gets the same answer.
 */
export async function syncMarks(
  db: Db,
  input: { eventId: string; judgeId: string; items: readonly MarksSyncItem[]; now: Date },
): Promise<SyncedSave[]> {
  const synced: SyncedSave[] = [];
  for (const item of input.items) {
    const outcome = await saveMarks(db, {
      eventId: input.eventId,
      judgeId: input.judgeId,
      applicationId: item.applicationId,
      marks: item.marks,
      savedAt: item.savedAt,
      now: input.now,
    });
    synced.push(
      outcome.ok
        ? { id: item.id, outcome: outcome.outcome, message: outcome.message }
        : { id: item.id, outcome: "refused", message: outcome.message },
    );
  }
  return synced;
}
