import { randomBytes, randomUUID } from "node:crypto";
import { and, asc, count, eq, inArray, isNull, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import { slugify } from "~/features/forms/slug";
import type { Db } from "~/server/db/client.server";
import { isUniqueViolation } from "~/server/db/retry.server";
import {
  ballots,
  type ClassCriterion,
  classTemplates,
  events,
  type JudgingScheme,
  showCarApplications,
  showClasses,
  showClassJudges,
  showEntries,
  showMarks,
  showSettings,
  users,
  voteCategories,
} from "../../../db/schema";
import { criteriaProblem } from "./judging-rules";
import { MAX_SHOW_NUMBER } from "./show-setup-schemas";

// The organizer's side of a car show (docs/car-shows.md): an event's classes and the library they
// are copied from, each class's judges, which class and show number each car in the show has, and
// the People's Choice settings. Every staff change is audited in the transaction that makes it.

/** Outcomes of the show tab's forms: what was done, or the field to show the problem beside. */
export type ShowOutcome<Field extends string = string> =
  | { ok: true; message: string }
  | { ok: false; field: Field | ""; message: string };

/** Applications whose car is in the show. */
const IN_SHOW = ["approved", "paid"] as const;

/** A vote key: the unguessable part of the car's vote address on its windscreen QR. */
function newVoteKey() {
  return randomBytes(12).toString("base64url");
}

/** The event's title and time zone, or null when it does not exist. */
export async function showEventOf(db: Db, eventId: string) {
  const [event] = await db
    .select({ id: events.id, title: events.title, slug: events.slug, timeZone: events.timeZone })
    .from(events)
    .where(eq(events.id, eventId));
  return event ?? null;
}

/** The event's classes in order, each with its judges and how many marks it holds. */
export async function classesOf(db: Db, eventId: string) {
  const [rows, judges, marks] = await Promise.all([
    db
      .select({
        id: showClasses.id,
        name: showClasses.name,
        scheme: showClasses.scheme,
        criteria: showClasses.criteria,
        position: showClasses.position,
        closedAt: showClasses.closedAt,
      })
      .from(showClasses)
      .where(eq(showClasses.eventId, eventId))
      .orderBy(asc(showClasses.position), asc(showClasses.createdAt), asc(showClasses.name)),
    judgesOf(db, eventId),
    db
      .select({ classId: showMarks.classId, marks: count() })
      .from(showMarks)
      .innerJoin(showClasses, eq(showClasses.id, showMarks.classId))
      .where(eq(showClasses.eventId, eventId))
      .groupBy(showMarks.classId),
  ]);
  const markCounts = new Map(marks.map((row) => [row.classId, Number(row.marks)]));
  return rows.map((row) => ({
    ...row,
    judges: judges.filter((judge) => judge.classId === row.id),
    marks: markCounts.get(row.id) ?? 0,
  }));
}

/** The judges of the event's classes, by name. */
async function judgesOf(db: Db, eventId: string) {
  return db
    .select({ classId: showClassJudges.classId, userId: users.id, name: users.name, email: users.email })
    .from(showClassJudges)
    .innerJoin(showClasses, eq(showClasses.id, showClassJudges.classId))
    .innerJoin(users, eq(users.id, showClassJudges.userId))
    .where(eq(showClasses.eventId, eventId))
    .orderBy(asc(users.name), asc(users.email));
}

/** The class library, by name. */
export async function classTemplatesList(db: Db) {
  return db
    .select({
      id: classTemplates.id,
      name: classTemplates.name,
      scheme: classTemplates.scheme,
      criteria: classTemplates.criteria,
    })
    .from(classTemplates)
    .orderBy(asc(sql`lower(${classTemplates.name})`));
}

/** A criterion as the class form sends it: an existing one keeps its id. */
type CriterionInput = { id?: string | null; name: string; weight: number };

const NAME_TAKEN = "This event has a class with this name already";

/**
 * Adds a class to the event, or changes one (`classId`). Criteria that were in the class keep
 * their ids, so marks already given follow a renamed criterion; new ones get a fresh id. Audited.
 */
export async function saveClass(
  db: Db,
  input: {
    eventId: string;
    classId?: string | null;
    name: string;
    scheme: JudgingScheme;
    criteria: readonly CriterionInput[];
    actorId: string;
    now: Date;
  },
): Promise<ShowOutcome<"name" | "criteria">> {
  const problem = criteriaProblem(input.criteria);
  if (problem) return { ok: false, field: "criteria", message: problem };
  try {
    return await db.transaction(async (tx) => {
      const [event] = await tx.select({ id: events.id }).from(events).where(eq(events.id, input.eventId));
      if (!event) return { ok: false as const, field: "" as const, message: "This event no longer exists" };
      if (input.classId) {
        const [existing] = await tx
          .select({ criteria: showClasses.criteria })
          .from(showClasses)
          .where(and(eq(showClasses.id, input.classId), eq(showClasses.eventId, input.eventId)))
          .for("update");
        if (!existing) return { ok: false as const, field: "" as const, message: "This class no longer exists" };
        const known = new Set(existing.criteria.map((criterion) => criterion.id));
        const criteria = input.criteria.map((criterion) => ({
          id: criterion.id && known.has(criterion.id) ? criterion.id : randomUUID(),
          name: criterion.name.trim(),
          weight: criterion.weight,
        }));
        await tx
          .update(showClasses)
          .set({ name: input.name, scheme: input.scheme, criteria })
          .where(eq(showClasses.id, input.classId));
        await recordAudit(tx, {
          actorId: input.actorId,
          action: "show.class.edit",
          subjectType: "event",
          subjectId: input.eventId,
          details: { classId: input.classId, name: input.name, scheme: input.scheme, criteria },
        });
        return { ok: true as const, message: `${input.name} is saved.` };
      }
      const id = await insertClass(tx, {
        eventId: input.eventId,
        name: input.name,
        scheme: input.scheme,
        criteria: input.criteria,
        now: input.now,
      });
      await recordAudit(tx, {
        actorId: input.actorId,
        action: "show.class.add",
        subjectType: "event",
        subjectId: input.eventId,
        details: { classId: id, name: input.name, scheme: input.scheme },
      });
      return { ok: true as const, message: `${input.name} is added.` };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, field: "name", message: NAME_TAKEN };
    throw error;
  }
}

/** A new class at the end of the event's list, its criteria with fresh ids. */
async function insertClass(
  tx: Db,
  input: { eventId: string; name: string; scheme: JudgingScheme; criteria: readonly CriterionInput[]; now: Date },
) {
  const [last] = await tx
    .select({ position: sql<number>`coalesce(max(${showClasses.position}), -1)::int` })
    .from(showClasses)
    .where(eq(showClasses.eventId, input.eventId));
  const criteria: ClassCriterion[] = input.criteria.map((criterion) => ({
    id: randomUUID(),
    name: criterion.name.trim(),
    weight: criterion.weight,
  }));
  const [created] = await tx
    .insert(showClasses)
    .values({
      eventId: input.eventId,
      name: input.name,
      scheme: input.scheme,
      criteria,
      position: Number(last?.position ?? -1) + 1,
      createdAt: input.now,
    })
    .returning({ id: showClasses.id });
  return created!.id;
}

/** Removes a class that has no marks yet: marks are judges' work, never thrown away by a click. Audited. */
export async function removeClass(
  db: Db,
  input: { eventId: string; classId: string; actorId: string },
): Promise<ShowOutcome> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ name: showClasses.name })
      .from(showClasses)
      .where(and(eq(showClasses.id, input.classId), eq(showClasses.eventId, input.eventId)))
      .for("update");
    if (!row) return { ok: false, field: "", message: "This class no longer exists" };
    const [marked] = await tx.select({ n: count() }).from(showMarks).where(eq(showMarks.classId, input.classId));
    if (Number(marked?.n ?? 0) > 0) {
      return { ok: false, field: "", message: `${row.name} has marks already: it cannot be removed` };
    }
    await tx.delete(showClasses).where(eq(showClasses.id, input.classId));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "show.class.remove",
      subjectType: "event",
      subjectId: input.eventId,
      details: { classId: input.classId, name: row.name },
    });
    return { ok: true, message: `${row.name} is removed.` };
  });
}

/** Closes a class (its marks are locked, its awards can be given) or opens it again. Audited. */
export async function setClassClosed(
  db: Db,
  input: { eventId: string; classId: string; closed: boolean; actorId: string; now: Date },
): Promise<ShowOutcome> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(showClasses)
      .set({ closedAt: input.closed ? input.now : null })
      .where(and(eq(showClasses.id, input.classId), eq(showClasses.eventId, input.eventId)))
      .returning({ name: showClasses.name });
    if (!row) return { ok: false, field: "", message: "This class no longer exists" };
    await recordAudit(tx, {
      actorId: input.actorId,
      action: input.closed ? "show.class.close" : "show.class.reopen",
      subjectType: "event",
      subjectId: input.eventId,
      details: { classId: input.classId },
    });
    return {
      ok: true,
      message: input.closed
        ? `${row.name} is closed: its marks are locked.`
        : `${row.name} is open again: judges can change marks.`,
    };
  });
}

/** Keeps a copy of an event's class in the library; one of the same name there is replaced. Audited. */
export async function saveClassToLibrary(
  db: Db,
  input: { eventId: string; classId: string; actorId: string; now: Date },
): Promise<ShowOutcome> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ name: showClasses.name, scheme: showClasses.scheme, criteria: showClasses.criteria })
      .from(showClasses)
      .where(and(eq(showClasses.id, input.classId), eq(showClasses.eventId, input.eventId)));
    if (!row) return { ok: false, field: "", message: "This class no longer exists" };
    const [existing] = await tx
      .select({ id: classTemplates.id })
      .from(classTemplates)
      .where(sql`lower(${classTemplates.name}) = lower(${row.name})`)
      .for("update");
    if (existing) {
      await tx
        .update(classTemplates)
        .set({ name: row.name, scheme: row.scheme, criteria: row.criteria })
        .where(eq(classTemplates.id, existing.id));
    } else {
      await tx.insert(classTemplates).values({ ...row, createdBy: input.actorId, createdAt: input.now });
    }
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "show.template.save",
      subjectType: "event",
      subjectId: input.eventId,
      details: { classId: input.classId, name: row.name, replaced: Boolean(existing) },
    });
    return {
      ok: true,
      message: existing ? `${row.name} is updated in the library.` : `${row.name} is saved to the library.`,
    };
  });
}

/** Copies a class from the library into the event, with criteria of its own. Audited. */
export async function addClassFromLibrary(
  db: Db,
  input: { eventId: string; templateId: string; actorId: string; now: Date },
): Promise<ShowOutcome<"templateId">> {
  try {
    return await db.transaction(async (tx) => {
      const [template] = await tx
        .select({ name: classTemplates.name, scheme: classTemplates.scheme, criteria: classTemplates.criteria })
        .from(classTemplates)
        .where(eq(classTemplates.id, input.templateId));
      if (!template)
        return { ok: false as const, field: "templateId" as const, message: "Choose a class from the library" };
      const [event] = await tx.select({ id: events.id }).from(events).where(eq(events.id, input.eventId));
      if (!event) return { ok: false as const, field: "" as const, message: "This event no longer exists" };
      const id = await insertClass(tx, { eventId: input.eventId, ...template, now: input.now });
      await recordAudit(tx, {
        actorId: input.actorId,
        action: "show.class.add",
        subjectType: "event",
        subjectId: input.eventId,
        details: { classId: id, name: template.name, templateId: input.templateId },
      });
      return { ok: true as const, message: `${template.name} is added from the library.` };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, field: "templateId", message: NAME_TAKEN };
    throw error;
  }
}

/**
 * Makes the member with `email` a judge of one class. Staff may judge too: the judging page is
 * theirs only for the classes they are put on. Audited.
 */
export async function addJudge(
  db: Db,
  input: { eventId: string; classId: string; email: string; actorId: string; now: Date },
): Promise<ShowOutcome<"email">> {
  return db.transaction(async (tx) => {
    const [member] = await tx
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(sql`lower(${users.email}) = ${input.email.toLowerCase()}`);
    if (!member) return { ok: false, field: "email", message: "No account has this email: ask them to sign up first" };
    const [row] = await tx
      .select({ name: showClasses.name })
      .from(showClasses)
      .where(and(eq(showClasses.id, input.classId), eq(showClasses.eventId, input.eventId)));
    if (!row) return { ok: false, field: "", message: "This class no longer exists" };
    const added = await tx
      .insert(showClassJudges)
      .values({ classId: input.classId, userId: member.id, addedBy: input.actorId, createdAt: input.now })
      .onConflictDoNothing()
      .returning({ userId: showClassJudges.userId });
    if (added.length === 0) return { ok: false, field: "email", message: `${member.name} judges ${row.name} already` };
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "show.judge.add",
      subjectType: "event",
      subjectId: input.eventId,
      details: { classId: input.classId, userId: member.id },
    });
    return { ok: true, message: `${member.name} judges ${row.name}.` };
  });
}

/** Takes a judge off a class. Their marks stay, but no longer count: the leaderboard reads the class's judges. Audited. */
export async function removeJudge(
  db: Db,
  input: { eventId: string; classId: string; userId: string; actorId: string },
): Promise<ShowOutcome> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ name: showClasses.name })
      .from(showClasses)
      .where(and(eq(showClasses.id, input.classId), eq(showClasses.eventId, input.eventId)));
    if (!row) return { ok: false, field: "", message: "This class no longer exists" };
    const removed = await tx
      .delete(showClassJudges)
      .where(and(eq(showClassJudges.classId, input.classId), eq(showClassJudges.userId, input.userId)))
      .returning({ userId: showClassJudges.userId });
    if (removed.length === 0) return { ok: false, field: "", message: `They were not judging ${row.name}` };
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "show.judge.remove",
      subjectType: "event",
      subjectId: input.eventId,
      details: { classId: input.classId, userId: input.userId },
    });
    return { ok: true, message: `Removed from judging ${row.name}.` };
  });
}

/**
 * The cars in the show (approved or paid applications), by show number then by when they
 * applied: the owner, the class the applicant suggested, the class staff chose and the number.
 */
export async function showEntriesOf(db: Db, eventId: string) {
  const rows = await db
    .select({
      applicationId: showCarApplications.id,
      carLabel: showCarApplications.carLabel,
      ownerName: users.name,
      status: showCarApplications.status,
      suggestedClassId: showEntries.suggestedClassId,
      classId: showEntries.classId,
      showNumber: showEntries.showNumber,
      voteKey: showEntries.voteKey,
    })
    .from(showCarApplications)
    .innerJoin(users, eq(users.id, showCarApplications.userId))
    .leftJoin(showEntries, eq(showEntries.applicationId, showCarApplications.id))
    .where(and(eq(showCarApplications.eventId, eventId), inArray(showCarApplications.status, [...IN_SHOW])))
    .orderBy(
      sql`${showEntries.showNumber} is null`,
      asc(showEntries.showNumber),
      asc(showCarApplications.createdAt),
      asc(showCarApplications.id),
    );
  return rows;
}

type PlacementField = "classId" | "showNumber";

/**
 * Puts a car in a class and gives it a show number (either may be cleared). The entry is made on
 * the first placement, with its vote key. A number another car has is refused by the unique index.
 * Audited.
 */
export async function placeEntry(
  db: Db,
  input: {
    eventId: string;
    applicationId: string;
    classId: string | null;
    showNumber: number | null;
    actorId: string;
    now: Date;
  },
): Promise<ShowOutcome<PlacementField>> {
  try {
    return await db.transaction(async (tx) => {
      const [application] = await tx
        .select({ id: showCarApplications.id, carLabel: showCarApplications.carLabel })
        .from(showCarApplications)
        .where(
          and(
            eq(showCarApplications.id, input.applicationId),
            eq(showCarApplications.eventId, input.eventId),
            inArray(showCarApplications.status, [...IN_SHOW]),
          ),
        );
      if (!application) return { ok: false as const, field: "" as const, message: "This car is not in the show" };
      if (input.classId) {
        const [showClass] = await tx
          .select({ id: showClasses.id })
          .from(showClasses)
          .where(and(eq(showClasses.id, input.classId), eq(showClasses.eventId, input.eventId)));
        if (!showClass)
          return { ok: false as const, field: "classId" as const, message: "Choose one of this show's classes" };
      }
      await tx
        .insert(showEntries)
        .values({
          applicationId: application.id,
          eventId: input.eventId,
          classId: input.classId,
          showNumber: input.showNumber,
          voteKey: newVoteKey(),
          updatedAt: input.now,
        })
        .onConflictDoUpdate({
          target: showEntries.applicationId,
          set: { classId: input.classId, showNumber: input.showNumber, updatedAt: input.now },
        });
      await recordAudit(tx, {
        actorId: input.actorId,
        action: "show.entry.place",
        subjectType: "event",
        subjectId: input.eventId,
        details: { applicationId: application.id, classId: input.classId, showNumber: input.showNumber },
      });
      return { ok: true as const, message: `${application.carLabel} is placed.` };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      return { ok: false, field: "showNumber", message: `Number ${input.showNumber} is taken by another car` };
    }
    throw error;
  }
}

/**
 * Gives every car in the show without a number the next free numbers after the highest one
 * given, in the order they applied; entries are made where needed. Audited.
 */
export async function numberCars(db: Db, input: { eventId: string; actorId: string; now: Date }): Promise<ShowOutcome> {
  return db.transaction(async (tx) => {
    // One numbering at a time per event: two staff pressing at once would give the same numbers.
    await tx.select({ id: events.id }).from(events).where(eq(events.id, input.eventId)).for("update");
    const unnumbered = await tx
      .select({
        applicationId: showCarApplications.id,
        hasEntry: sql<boolean>`${showEntries.applicationId} is not null`,
      })
      .from(showCarApplications)
      .leftJoin(showEntries, eq(showEntries.applicationId, showCarApplications.id))
      .where(
        and(
          eq(showCarApplications.eventId, input.eventId),
          inArray(showCarApplications.status, [...IN_SHOW]),
          isNull(showEntries.showNumber),
        ),
      )
      .orderBy(asc(showCarApplications.createdAt), asc(showCarApplications.id));
    if (unnumbered.length === 0) return { ok: false, field: "", message: "Every car has a number already" };
    const taken = new Set(
      (
        await tx.select({ n: showEntries.showNumber }).from(showEntries).where(eq(showEntries.eventId, input.eventId))
      ).flatMap((row) => (row.n === null ? [] : [row.n])),
    );
    let next = 1;
    const given: { applicationId: string; showNumber: number }[] = [];
    for (const car of unnumbered) {
      while (taken.has(next)) next++;
      if (next > MAX_SHOW_NUMBER) break;
      taken.add(next);
      given.push({ applicationId: car.applicationId, showNumber: next });
      await tx
        .insert(showEntries)
        .values({
          applicationId: car.applicationId,
          eventId: input.eventId,
          showNumber: next,
          voteKey: newVoteKey(),
          updatedAt: input.now,
        })
        .onConflictDoUpdate({ target: showEntries.applicationId, set: { showNumber: next, updatedAt: input.now } });
    }
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "show.entry.number",
      subjectType: "event",
      subjectId: input.eventId,
      details: { given },
    });
    return { ok: true, message: given.length === 1 ? "1 car is numbered." : `${given.length} cars are numbered.` };
  });
}

/**
 * The class an applicant suggests for their car, kept on its show entry (made with its vote key
 * if need be); a class of another event, or none, clears the suggestion.
 */
export async function suggestClass(
  db: Db,
  input: { eventId: string; applicationId: string; classId: string | null; now: Date },
) {
  let classId = input.classId;
  if (classId) {
    const [row] = await db
      .select({ id: showClasses.id })
      .from(showClasses)
      .where(and(eq(showClasses.id, classId), eq(showClasses.eventId, input.eventId)));
    classId = row?.id ?? null;
  }
  await db
    .insert(showEntries)
    .values({
      applicationId: input.applicationId,
      eventId: input.eventId,
      suggestedClassId: classId,
      voteKey: newVoteKey(),
      updatedAt: input.now,
    })
    .onConflictDoUpdate({
      target: showEntries.applicationId,
      set: { suggestedClassId: classId, updatedAt: input.now },
    });
}

/** The classes an applicant may suggest, in the organizer's order. */
export async function classChoicesOf(db: Db, eventId: string) {
  return db
    .select({ id: showClasses.id, name: showClasses.name })
    .from(showClasses)
    .where(eq(showClasses.eventId, eventId))
    .orderBy(asc(showClasses.position), asc(showClasses.createdAt));
}

// People's Choice settings.

/** The event's voting window, publication and categories (with their ballots counted). */
export async function votingSettingsOf(db: Db, eventId: string) {
  const [[settings], categories] = await Promise.all([
    db.select().from(showSettings).where(eq(showSettings.eventId, eventId)),
    db
      .select({
        id: voteCategories.id,
        slug: voteCategories.slug,
        name: voteCategories.name,
        ballots: count(ballots.id),
      })
      .from(voteCategories)
      .leftJoin(ballots, eq(ballots.categoryId, voteCategories.id))
      .where(eq(voteCategories.eventId, eventId))
      .groupBy(voteCategories.id)
      .orderBy(asc(voteCategories.position), asc(voteCategories.name)),
  ]);
  return {
    votingOpensAt: settings?.votingOpensAt ?? null,
    votingClosesAt: settings?.votingClosesAt ?? null,
    talliedAt: settings?.talliedAt ?? null,
    resultsPublishedAt: settings?.resultsPublishedAt ?? null,
    showScores: settings?.showScores ?? false,
    categories: categories.map((category) => ({ ...category, ballots: Number(category.ballots) })),
  };
}

type SettingsChange = Partial<
  Pick<typeof showSettings.$inferInsert, "votingOpensAt" | "votingClosesAt" | "resultsPublishedAt" | "showScores">
>;

/** Changes some of the event's show settings, making its row on the first change. Audited. */
async function changeSettings(
  db: Db,
  input: { eventId: string; change: SettingsChange; action: string; actorId: string },
) {
  return db.transaction(async (tx) => {
    const [event] = await tx.select({ id: events.id }).from(events).where(eq(events.id, input.eventId));
    if (!event) return false;
    await tx
      .insert(showSettings)
      .values({ eventId: input.eventId, ...input.change })
      .onConflictDoUpdate({ target: showSettings.eventId, set: input.change });
    await recordAudit(tx, {
      actorId: input.actorId,
      action: input.action,
      subjectType: "event",
      subjectId: input.eventId,
      details: Object.fromEntries(
        Object.entries(input.change).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]),
      ),
    });
    return true;
  });
}

/** Saves when People's Choice voting opens and closes, and whether the results show scores. */
export function saveVoting(
  db: Db,
  input: { eventId: string; opensAt: Date | null; closesAt: Date | null; showScores: boolean; actorId: string },
) {
  return changeSettings(db, {
    eventId: input.eventId,
    change: { votingOpensAt: input.opensAt, votingClosesAt: input.closesAt, showScores: input.showScores },
    action: "show.voting.save",
    actorId: input.actorId,
  });
}

/** Closes voting at once: the tally is frozen when the results are next read. */
export function closeVotingNow(db: Db, input: { eventId: string; actorId: string; now: Date }) {
  return changeSettings(db, {
    eventId: input.eventId,
    change: { votingClosesAt: input.now },
    action: "show.voting.close",
    actorId: input.actorId,
  });
}

/** Publishes the results page, or takes it down again. */
export function setResultsPublished(
  db: Db,
  input: { eventId: string; published: boolean; actorId: string; now: Date },
) {
  return changeSettings(db, {
    eventId: input.eventId,
    change: { resultsPublishedAt: input.published ? input.now : null },
    action: input.published ? "show.results.publish" : "show.results.unpublish",
    actorId: input.actorId,
  });
}

const CATEGORY_SLUG_MAX = 40;

/** Adds a People's Choice category; its slug is made from its name and is unique in the event. Audited. */
export async function addCategory(
  db: Db,
  input: { eventId: string; name: string; actorId: string },
): Promise<ShowOutcome<"name">> {
  const slug = slugify(input.name, { max: CATEGORY_SLUG_MAX, fallback: "" });
  if (!slug) return { ok: false, field: "name", message: "Use some letters or numbers in the name" };
  try {
    return await db.transaction(async (tx) => {
      const [event] = await tx.select({ id: events.id }).from(events).where(eq(events.id, input.eventId));
      if (!event) return { ok: false as const, field: "" as const, message: "This event no longer exists" };
      const [last] = await tx
        .select({ position: sql<number>`coalesce(max(${voteCategories.position}), -1)::int` })
        .from(voteCategories)
        .where(eq(voteCategories.eventId, input.eventId));
      await tx.insert(voteCategories).values({
        eventId: input.eventId,
        slug,
        name: input.name,
        position: Number(last?.position ?? -1) + 1,
      });
      await recordAudit(tx, {
        actorId: input.actorId,
        action: "show.category.add",
        subjectType: "event",
        subjectId: input.eventId,
        details: { slug, name: input.name },
      });
      return { ok: true as const, message: `${input.name} is added.` };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      return { ok: false, field: "name", message: "This show has a category with this name already" };
    }
    throw error;
  }
}

/** Removes a category nobody has voted in: ballots are voters' choices, never thrown away by a click. Audited. */
export async function removeCategory(
  db: Db,
  input: { eventId: string; categoryId: string; actorId: string },
): Promise<ShowOutcome> {
  return db.transaction(async (tx) => {
    const [category] = await tx
      .select({ name: voteCategories.name })
      .from(voteCategories)
      .where(and(eq(voteCategories.id, input.categoryId), eq(voteCategories.eventId, input.eventId)))
      .for("update");
    if (!category) return { ok: false, field: "", message: "This category no longer exists" };
    const [voted] = await tx.select({ n: count() }).from(ballots).where(eq(ballots.categoryId, input.categoryId));
    if (Number(voted?.n ?? 0) > 0) {
      return { ok: false, field: "", message: `${category.name} has votes already: it cannot be removed` };
    }
    await tx.delete(voteCategories).where(eq(voteCategories.id, input.categoryId));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "show.category.remove",
      subjectType: "event",
      subjectId: input.eventId,
      details: { categoryId: input.categoryId, name: category.name },
    });
    return { ok: true, message: `${category.name} is removed.` };
  });
}
