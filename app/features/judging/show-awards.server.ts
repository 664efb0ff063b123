import { and, asc, eq, inArray } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import type { Db } from "~/server/db/client.server";
import { isUniqueViolation } from "~/server/db/retry.server";
import {
  showAwards,
  showCarApplications,
  showClasses,
  showClassJudges,
  showEntries,
  showMarks,
  users,
} from "../../../db/schema";
import { leaderboard, readyForAwards } from "./judging-rules";
import type { ShowOutcome } from "./show-setup.server";

// The staff leaderboard of each class and the awards given from it (docs/car-shows.md): Best in
// Class once a class is closed, Best in Show, and named trophies. The scoring is judging-rules.ts;
// this file only reads the marks for it and keeps what staff decided.

const BEST_IN_CLASS = "Best in Class";
const BEST_IN_SHOW = "Best in Show";

type BoardClass = {
  id: string;
  name: string;
  scheme: "weighted" | "deduction";
  criteria: { id: string; name: string; weight: number }[];
  closedAt: Date | null;
};

/**
 * The classes' leaderboards as staff see them: each car's place, number and label, and what is
 * missing. Three queries whatever the number of classes; only cars still in the show count.
 */
export async function classBoards(db: Db, classes: readonly BoardClass[]) {
  const ids = classes.map((showClass) => showClass.id);
  if (ids.length === 0) return [];
  const [judges, cars, marks] = await Promise.all([
    db
      .select({ classId: showClassJudges.classId, userId: users.id, name: users.name })
      .from(showClassJudges)
      .innerJoin(users, eq(users.id, showClassJudges.userId))
      .where(inArray(showClassJudges.classId, ids))
      .orderBy(asc(users.name), asc(users.id)),
    db
      .select({
        classId: showEntries.classId,
        applicationId: showEntries.applicationId,
        showNumber: showEntries.showNumber,
        carLabel: showCarApplications.carLabel,
      })
      .from(showEntries)
      .innerJoin(showCarApplications, eq(showCarApplications.id, showEntries.applicationId))
      .where(and(inArray(showEntries.classId, ids), inArray(showCarApplications.status, ["approved", "paid"]))),
    db
      .select({
        classId: showMarks.classId,
        judgeId: showMarks.judgeId,
        carId: showMarks.applicationId,
        criterionId: showMarks.criterionId,
        halves: showMarks.halves,
      })
      .from(showMarks)
      .where(inArray(showMarks.classId, ids)),
  ]);
  return classes.map((showClass) => {
    const own = <Row extends { classId: string | null }>(rows: Row[]) =>
      rows.filter((row) => row.classId === showClass.id);
    const classJudges = own(judges).map(({ userId, name }) => ({ userId, name }));
    const classCars = own(cars);
    const standings = leaderboard({
      scheme: showClass.scheme,
      criteria: showClass.criteria,
      judgeIds: classJudges.map((judge) => judge.userId),
      carIds: classCars.map((car) => car.applicationId),
      marks: own(marks).map((mark) => ({ ...mark, value: mark.halves / 2 })),
    });
    const carById = new Map(classCars.map((car) => [car.applicationId, car]));
    return {
      classId: showClass.id,
      name: showClass.name,
      closed: showClass.closedAt !== null,
      judges: classJudges,
      ready: readyForAwards(standings),
      standings: standings.map((standing) => ({
        ...standing,
        showNumber: carById.get(standing.carId)?.showNumber ?? null,
        carLabel: carById.get(standing.carId)?.carLabel ?? "",
      })),
    };
  });
}

/** Every class's leaderboard, in the classes' order. */
export async function leaderboardsOf(db: Db, eventId: string) {
  const classes = await db
    .select({
      id: showClasses.id,
      name: showClasses.name,
      scheme: showClasses.scheme,
      criteria: showClasses.criteria,
      closedAt: showClasses.closedAt,
    })
    .from(showClasses)
    .where(eq(showClasses.eventId, eventId))
    .orderBy(asc(showClasses.position), asc(showClasses.createdAt));
  return classBoards(db, classes);
}

/** The awards given at the event: Best in Show first, then by class, then trophies by title. */
export async function awardsOf(db: Db, eventId: string) {
  return db
    .select({
      id: showAwards.id,
      title: showAwards.title,
      classId: showAwards.classId,
      className: showClasses.name,
      applicationId: showAwards.applicationId,
      carLabel: showCarApplications.carLabel,
      showNumber: showEntries.showNumber,
    })
    .from(showAwards)
    .innerJoin(showCarApplications, eq(showCarApplications.id, showAwards.applicationId))
    .leftJoin(showEntries, eq(showEntries.applicationId, showAwards.applicationId))
    .leftJoin(showClasses, eq(showClasses.id, showAwards.classId))
    .where(eq(showAwards.eventId, eventId))
    .orderBy(asc(showClasses.position), asc(showAwards.givenAt), asc(showAwards.title));
}

type AwardInput =
  | { kind: "class"; classId: string; applicationId: string }
  | { kind: "show"; applicationId: string }
  | { kind: "trophy"; title: string; applicationId: string };

/**
 * Gives an award. Best in Class: only once its class is closed and fully marked, to a car at the
 * top of its leaderboard (staff choose between cars tied there). Best in Show and trophies: to any
 * car in the show. Each title once per class or per show: the table's unique index says so.
 */
export async function giveAward(
  db: Db,
  input: { eventId: string; award: AwardInput; actorId: string; now: Date },
): Promise<ShowOutcome<"applicationId" | "title">> {
  const { award } = input;
  const title = award.kind === "class" ? BEST_IN_CLASS : award.kind === "show" ? BEST_IN_SHOW : award.title;
  const classId = award.kind === "class" ? award.classId : null;
  const [car] = await db
    .select({ carLabel: showCarApplications.carLabel })
    .from(showEntries)
    .innerJoin(showCarApplications, eq(showCarApplications.id, showEntries.applicationId))
    .where(
      and(
        eq(showEntries.applicationId, award.applicationId),
        eq(showEntries.eventId, input.eventId),
        inArray(showCarApplications.status, ["approved", "paid"]),
      ),
    );
  if (!car) return { ok: false, field: "applicationId", message: "Choose a car in the show" };
  if (award.kind === "class") {
    const [showClass] = await db
      .select({
        id: showClasses.id,
        name: showClasses.name,
        scheme: showClasses.scheme,
        criteria: showClasses.criteria,
        closedAt: showClasses.closedAt,
      })
      .from(showClasses)
      .where(and(eq(showClasses.id, award.classId), eq(showClasses.eventId, input.eventId)));
    if (!showClass) return { ok: false, field: "", message: "This class no longer exists" };
    if (!showClass.closedAt) {
      return { ok: false, field: "", message: `Close ${showClass.name} before giving its Best in Class` };
    }
    const board = (await classBoards(db, [showClass]))[0]!;
    const standing = board.standings.find((row) => row.carId === award.applicationId);
    if (!standing) return { ok: false, field: "applicationId", message: `Choose a car in ${showClass.name}` };
    if (board.standings.some((row) => row.incomplete)) {
      return { ok: false, field: "", message: "Some cars are not marked by every judge yet" };
    }
    if (standing.place !== 1) {
      return { ok: false, field: "applicationId", message: "Best in Class goes to a car in first place" };
    }
  }
  try {
    return await db.transaction(async (tx) => {
      const [given] = await tx
        .insert(showAwards)
        .values({
          eventId: input.eventId,
          classId,
          title,
          applicationId: award.applicationId,
          givenBy: input.actorId,
          givenAt: input.now,
        })
        .returning({ id: showAwards.id });
      await recordAudit(tx, {
        actorId: input.actorId,
        action: "show.award.give",
        subjectType: "event",
        subjectId: input.eventId,
        details: { awardId: given!.id, title, classId, applicationId: award.applicationId },
      });
      return { ok: true as const, message: `${title} goes to ${car.carLabel}.` };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      return {
        ok: false,
        field: award.kind === "trophy" ? "title" : "",
        message: `${title} is given already: take it back first to give it to another car`,
      };
    }
    throw error;
  }
}

/** Takes an award back. Audited. */
export async function takeBackAward(
  db: Db,
  input: { eventId: string; awardId: string; actorId: string },
): Promise<ShowOutcome> {
  return db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(showAwards)
      .where(and(eq(showAwards.id, input.awardId), eq(showAwards.eventId, input.eventId)))
      .returning({ title: showAwards.title, applicationId: showAwards.applicationId, classId: showAwards.classId });
    if (!removed) return { ok: false, field: "", message: "This award was taken back already" };
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "show.award.take_back",
      subjectType: "event",
      subjectId: input.eventId,
      details: { awardId: input.awardId, ...removed },
    });
    return { ok: true, message: `${removed.title} is taken back.` };
  });
}
