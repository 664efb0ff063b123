import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createMembersWithCars } from "~/features/applications/applications.test-support";
import { applyWithCar } from "~/features/applications/apply.server";
import { NOW } from "~/features/checkout/stock.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { auditLog, showCarApplications, showEntries, showMarks, showSettings } from "../../../db/schema";
import {
  addCategory,
  addClassFromLibrary,
  addJudge,
  classesOf,
  classTemplatesList,
  closeVotingNow,
  numberCars,
  placeEntry,
  removeCategory,
  removeClass,
  removeJudge,
  saveClass,
  saveClassToLibrary,
  setClassClosed,
  setResultsPublished,
  showEntriesOf,
  suggestClass,
  votingSettingsOf,
} from "./show-setup.server";
import { createShow } from "./shows.test-support";

const database = freshDatabasePerFile();

const CRITERIA = [
  { name: "Paint", weight: 50 },
  { name: "Interior", weight: 50 },
];

describe("an event's classes", () => {
  it("adds a class, refuses criteria that break the rules and a name used twice, and keeps criterion ids through edits", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 1 });
    const staff = await testAccount(db, "organizer");
    const base = { eventId: show.eventId, scheme: "weighted" as const, actorId: staff.id, now: NOW };

    expect(
      await saveClass(db, { ...base, name: "Pre-1990 hot hatch", criteria: [{ name: "Paint", weight: 40 }] }),
    ).toEqual({
      ok: false,
      field: "criteria",
      message: "The weights add up to 40: make them add up to 100",
    });
    expect(await saveClass(db, { ...base, name: "Pre-1990 hot hatch", criteria: [] })).toMatchObject({
      ok: false,
      message: "Add at least one criterion",
    });
    expect(await saveClass(db, { ...base, name: "modified jdm", criteria: CRITERIA })).toEqual({
      ok: false,
      field: "name",
      message: "This event has a class with this name already",
    });
    expect(await saveClass(db, { ...base, name: "Pre-1990 hot hatch", criteria: CRITERIA })).toMatchObject({
      ok: true,
    });

    const added = (await classesOf(db, show.eventId)).find((row) => row.name === "Pre-1990 hot hatch")!;
    expect(added.position).toBe(1);
    const paint = added.criteria.find((criterion) => criterion.name === "Paint")!;
    const edited = await saveClass(db, {
      ...base,
      classId: added.id,
      name: "Hot hatch",
      scheme: "deduction",
      criteria: [
        { id: paint.id, name: "Paintwork", weight: 60 },
        { id: "made-up", name: "Wheels", weight: 40 },
      ],
    });
    expect(edited).toMatchObject({ ok: true });
    const after = (await classesOf(db, show.eventId)).find((row) => row.id === added.id)!;
    expect(after).toMatchObject({ name: "Hot hatch", scheme: "deduction" });
    expect(after.criteria[0]).toEqual({ id: paint.id, name: "Paintwork", weight: 60 });
    expect(after.criteria[1]!.id).not.toBe("made-up");
    const actions = (await db.select().from(auditLog)).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(["show.class.add", "show.class.edit"]));
  });

  it("removes a class without marks and refuses one with marks; closes and reopens", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 1 });
    const staff = await testAccount(db, "organizer");
    const judge = await testAccount(db, "member", "Jo Judge");
    await db.insert(showMarks).values({
      applicationId: show.entries[0]!.applicationId,
      classId: show.classId,
      judgeId: judge.id,
      criterionId: show.criteria[0]!.id,
      halves: 15,
      savedAt: NOW,
    });
    expect(await removeClass(db, { eventId: show.eventId, classId: show.classId, actorId: staff.id })).toEqual({
      ok: false,
      field: "",
      message: "Modified JDM has marks already: it cannot be removed",
    });
    expect(
      await setClassClosed(db, {
        eventId: show.eventId,
        classId: show.classId,
        closed: true,
        actorId: staff.id,
        now: NOW,
      }),
    ).toMatchObject({ ok: true });
    expect((await classesOf(db, show.eventId))[0]!.closedAt).toEqual(NOW);
    await setClassClosed(db, {
      eventId: show.eventId,
      classId: show.classId,
      closed: false,
      actorId: staff.id,
      now: NOW,
    });
    expect((await classesOf(db, show.eventId))[0]!.closedAt).toBeNull();

    await saveClass(db, {
      eventId: show.eventId,
      name: "Empty",
      scheme: "weighted",
      criteria: CRITERIA,
      actorId: staff.id,
      now: NOW,
    });
    const empty = (await classesOf(db, show.eventId)).find((row) => row.name === "Empty")!;
    expect(await removeClass(db, { eventId: show.eventId, classId: empty.id, actorId: staff.id })).toMatchObject({
      ok: true,
    });
    expect((await classesOf(db, show.eventId)).map((row) => row.name)).toEqual(["Modified JDM"]);
  });

  it("saves a class to the library and copies it into another event with criteria of its own", async () => {
    const { db } = database();
    const first = await createShow(db, { cars: 1, className: "Library JDM" });
    const second = await createShow(db, { cars: 1, className: "Classics" });
    const staff = await testAccount(db, "organizer");
    expect(
      await saveClassToLibrary(db, { eventId: first.eventId, classId: first.classId, actorId: staff.id, now: NOW }),
    ).toMatchObject({ ok: true, message: "Library JDM is saved to the library." });
    expect(
      await saveClassToLibrary(db, { eventId: first.eventId, classId: first.classId, actorId: staff.id, now: NOW }),
    ).toMatchObject({ ok: true, message: "Library JDM is updated in the library." });
    const template = (await classTemplatesList(db)).find((row) => row.name === "Library JDM")!;
    expect(template.criteria.map((criterion) => criterion.name)).toEqual(["Paint", "Engine bay", "Interior", "Stance"]);

    expect(
      await addClassFromLibrary(db, { eventId: second.eventId, templateId: template.id, actorId: staff.id, now: NOW }),
    ).toMatchObject({ ok: true });
    const copied = (await classesOf(db, second.eventId)).find((row) => row.name === "Library JDM")!;
    expect(copied.criteria.map((criterion) => criterion.weight)).toEqual([30, 30, 20, 20]);
    expect(copied.criteria[0]!.id).not.toBe(first.criteria[0]!.id);
    expect(
      await addClassFromLibrary(db, { eventId: second.eventId, templateId: template.id, actorId: staff.id, now: NOW }),
    ).toEqual({ ok: false, field: "templateId", message: "This event has a class with this name already" });
  });
});

describe("judges", () => {
  it("adds a member by email, says so when no account has it or they judge already, and removes them", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 1 });
    const staff = await testAccount(db, "organizer");
    const judge = await testAccount(db, "member", "Jo Judge");
    const base = { eventId: show.eventId, classId: show.classId, actorId: staff.id, now: NOW };
    expect(await addJudge(db, { ...base, email: "nobody@club.example" })).toEqual({
      ok: false,
      field: "email",
      message: "No account has this email: ask them to sign up first",
    });
    expect(await addJudge(db, { ...base, email: judge.email.toUpperCase() })).toMatchObject({ ok: true });
    expect(await addJudge(db, { ...base, email: judge.email })).toMatchObject({
      ok: false,
      message: "Jo Judge judges Modified JDM already",
    });
    expect((await classesOf(db, show.eventId))[0]!.judges).toMatchObject([{ userId: judge.id, name: "Jo Judge" }]);
    expect(await removeJudge(db, { ...base, userId: judge.id })).toMatchObject({ ok: true });
    expect(await removeJudge(db, { ...base, userId: judge.id })).toMatchObject({ ok: false });
    expect((await classesOf(db, show.eventId))[0]!.judges).toEqual([]);
  });
});

describe("entries and show numbers", () => {
  it("places a car, refuses a number another car has, and numbers the rest with the next free numbers", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 3 });
    const staff = await testAccount(db, "organizer");
    // Two cars without numbers: one with no entry at all, one with only a suggestion.
    await db.delete(showEntries).where(eq(showEntries.applicationId, show.entries[1]!.applicationId));
    await db
      .update(showEntries)
      .set({ showNumber: null })
      .where(eq(showEntries.applicationId, show.entries[2]!.applicationId));
    await suggestClass(db, {
      eventId: show.eventId,
      applicationId: show.entries[1]!.applicationId,
      classId: show.classId,
      now: NOW,
    });
    const suggested = (await showEntriesOf(db, show.eventId)).find(
      (row) => row.applicationId === show.entries[1]!.applicationId,
    )!;
    expect(suggested).toMatchObject({ suggestedClassId: show.classId, classId: null, showNumber: null });
    expect(suggested.voteKey).toMatch(/^[A-Za-z0-9_-]{16}$/);

    expect(
      await placeEntry(db, {
        eventId: show.eventId,
        applicationId: show.entries[1]!.applicationId,
        classId: show.classId,
        showNumber: 1,
        actorId: staff.id,
        now: NOW,
      }),
    ).toEqual({ ok: false, field: "showNumber", message: "Number 1 is taken by another car" });
    expect(
      await placeEntry(db, {
        eventId: show.eventId,
        applicationId: show.entries[1]!.applicationId,
        classId: show.classId,
        showNumber: 7,
        actorId: staff.id,
        now: NOW,
      }),
    ).toMatchObject({ ok: true });

    expect(await numberCars(db, { eventId: show.eventId, actorId: staff.id, now: NOW })).toEqual({
      ok: true,
      message: "1 car is numbered.",
    });
    const numbers = (await showEntriesOf(db, show.eventId)).map((row) => row.showNumber);
    expect(numbers).toEqual([1, 2, 7]);
    expect(await numberCars(db, { eventId: show.eventId, actorId: staff.id, now: NOW })).toMatchObject({ ok: false });
  });

  it("numbers a car with no entry yet, making its entry with a vote key; a car not in the show is refused", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 2 });
    const staff = await testAccount(db, "organizer");
    await db.delete(showEntries).where(eq(showEntries.applicationId, show.entries[1]!.applicationId));
    await numberCars(db, { eventId: show.eventId, actorId: staff.id, now: NOW });
    const [row] = await db
      .select()
      .from(showEntries)
      .where(eq(showEntries.applicationId, show.entries[1]!.applicationId));
    expect(row).toMatchObject({ showNumber: 2, classId: null });
    expect(row!.voteKey).toHaveLength(16);

    await db
      .update(showCarApplications)
      .set({ status: "withdrawn" })
      .where(eq(showCarApplications.id, show.entries[0]!.applicationId));
    expect(
      await placeEntry(db, {
        eventId: show.eventId,
        applicationId: show.entries[0]!.applicationId,
        classId: null,
        showNumber: 5,
        actorId: staff.id,
        now: NOW,
      }),
    ).toEqual({ ok: false, field: "", message: "This car is not in the show" });
    expect((await showEntriesOf(db, show.eventId)).map((entry) => entry.applicationId)).toEqual([
      show.entries[1]!.applicationId,
    ]);
  });
});

describe("People's Choice settings", () => {
  it("adds categories with slugs from their names, refuses one twice, removes one without votes", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 1 });
    const staff = await testAccount(db, "organizer");
    expect(await addCategory(db, { eventId: show.eventId, name: "People’s choice", actorId: staff.id })).toEqual({
      ok: false,
      field: "name",
      message: "This show has a category with this name already",
    });
    expect(
      await addCategory(db, { eventId: show.eventId, name: "Best paint & body!", actorId: staff.id }),
    ).toMatchObject({ ok: true });
    const settings = await votingSettingsOf(db, show.eventId);
    expect(settings.categories.map((category) => category.slug)).toEqual(["peoples-choice", "best-paint-and-body"]);
    expect(await addCategory(db, { eventId: show.eventId, name: "!!!", actorId: staff.id })).toMatchObject({
      ok: false,
      field: "name",
    });
    expect(
      await removeCategory(db, { eventId: show.eventId, categoryId: settings.categories[1]!.id, actorId: staff.id }),
    ).toMatchObject({ ok: true });
  });

  it("closes voting now, publishes and unpublishes the results", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 1 });
    const staff = await testAccount(db, "organizer");
    const later = new Date(NOW.getTime() + 60_000);
    await closeVotingNow(db, { eventId: show.eventId, actorId: staff.id, now: later });
    await setResultsPublished(db, { eventId: show.eventId, published: true, actorId: staff.id, now: later });
    expect(await votingSettingsOf(db, show.eventId)).toMatchObject({
      votingClosesAt: later,
      resultsPublishedAt: later,
    });
    await setResultsPublished(db, { eventId: show.eventId, published: false, actorId: staff.id, now: later });
    const [row] = await db.select().from(showSettings).where(eq(showSettings.eventId, show.eventId));
    expect(row!.resultsPublishedAt).toBeNull();
  });
});

describe("the applicant's suggested class", () => {
  it("keeps the class an applicant suggests on their car's new entry, with a vote key", async () => {
    const { db } = database();
    const show = await createShow(db, { cars: 1 });
    const [applicant] = await createMembersWithCars(db, 1);
    const applied = await applyWithCar(db, {
      userId: applicant!.id,
      eventId: show.eventId,
      carId: applicant!.carId,
      note: "",
      suggestedClassId: show.classId,
      now: NOW,
    });
    expect(applied).toMatchObject({ ok: true });
    const [entry] = await db
      .select()
      .from(showEntries)
      .where(eq(showEntries.applicationId, applied.ok ? applied.applicationId : ""));
    expect(entry).toMatchObject({ suggestedClassId: show.classId, classId: null, showNumber: null });
    expect(entry!.voteKey).toHaveLength(16);
  });
});
