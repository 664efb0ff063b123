import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { showCarApplications } from "./applications";
import { tickets } from "./commerce";
import { events } from "./events";
import { cars } from "./garage";

// A car show's judging and People's Choice (docs/car-shows.md). The rules themselves are pure
// functions in app/features/judging; these tables keep what staff, judges and voters decided.

/** How a class is marked: weighted criteria out of 10 each, or deductions from a perfect 100. */
export const JUDGING_SCHEMES = ["weighted", "deduction"] as const;
export type JudgingScheme = (typeof JUDGING_SCHEMES)[number];

/** A criterion of a class: `id` is fixed when it is made, so marks follow it through renames. */
export type ClassCriterion = { id: string; name: string; weight: number };

/** Classes kept for reuse across events: an event's class starts as a copy of one. */
export const classTemplates = pgTable(
  "class_templates",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    name: text("name").notNull(),
    scheme: text("scheme", { enum: JUDGING_SCHEMES }).notNull(),
    criteria: jsonb("criteria").$type<ClassCriterion[]>().notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [uniqueIndex("class_templates_name_key").on(sql`lower(${table.name})`)],
);

/**
 * A class at one event ("Modified JDM"). `closedAt` locks its marks: judges can no longer change
 * them, and its awards can be given.
 */
export const showClasses = pgTable(
  "show_classes",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    scheme: text("scheme", { enum: JUDGING_SCHEMES }).notNull(),
    criteria: jsonb("criteria").$type<ClassCriterion[]>().notNull(),
    position: integer("position").notNull().default(0),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex("show_classes_event_name_key").on(table.eventId, sql`lower(${table.name})`),
    index("show_classes_event_idx").on(table.eventId, table.position),
  ],
);

/** The judges of a class: a judge sees and marks only their own classes. */
export const showClassJudges = pgTable(
  "show_class_judges",
  {
    classId: uuid("class_id")
      .notNull()
      .references(() => showClasses.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    addedBy: text("added_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.classId, table.userId] }),
    index("show_class_judges_user_idx").on(table.userId),
  ],
);

/**
 * A car's place in the show, one per application: the class the applicant suggested, the class
 * staff put it in, and its show number, printed on its windscreen card. Numbers are unique per event.
 */
export const showEntries = pgTable(
  "show_entries",
  {
    applicationId: uuid("application_id")
      .primaryKey()
      .references(() => showCarApplications.id, { onDelete: "cascade" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    suggestedClassId: uuid("suggested_class_id").references(() => showClasses.id, { onDelete: "set null" }),
    classId: uuid("class_id").references(() => showClasses.id, { onDelete: "set null" }),
    showNumber: integer("show_number"),
    /** The unguessable part of the car's vote address, printed as the windscreen QR. */
    voteKey: text("vote_key").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex("show_entries_number_key").on(table.eventId, table.showNumber),
    uniqueIndex("show_entries_vote_key").on(table.voteKey),
    index("show_entries_class_idx").on(table.classId),
    check("show_entries_number_range", sql`${table.showNumber} between 1 and 9999`),
  ],
);

/**
 * One judge's mark for one car on one criterion, in halves (15 is 7.5), so sums stay exact. A
 * judge saving again replaces their mark; `savedAt` is when the judge made it (on their phone,
 * perhaps offline), so an older sync never overwrites a newer mark.
 */
export const showMarks = pgTable(
  "show_marks",
  {
    applicationId: uuid("application_id")
      .notNull()
      .references(() => showCarApplications.id, { onDelete: "cascade" }),
    classId: uuid("class_id")
      .notNull()
      .references(() => showClasses.id, { onDelete: "cascade" }),
    judgeId: text("judge_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    criterionId: text("criterion_id").notNull(),
    halves: integer("halves").notNull(),
    savedAt: timestamp("saved_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.applicationId, table.judgeId, table.criterionId] }),
    index("show_marks_class_idx").on(table.classId),
    check("show_marks_halves_range", sql`${table.halves} between 0 and 200`),
  ],
);

/**
 * An award given to a car: Best in Class (with its class), Best in Show, or a named trophy. A title
 * is given once per class (or once per show, without a class).
 */
export const showAwards = pgTable(
  "show_awards",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    classId: uuid("class_id").references(() => showClasses.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => showCarApplications.id, { onDelete: "cascade" }),
    givenBy: text("given_by").references(() => users.id, { onDelete: "set null" }),
    givenAt: timestamp("given_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex("show_awards_title_key").on(
      table.eventId,
      sql`coalesce(${table.classId}::text, '')`,
      sql`lower(${table.title})`,
    ),
    index("show_awards_application_idx").on(table.applicationId),
  ],
);

/**
 * An event's show settings: when People's Choice voting opens and closes, and, once it has closed,
 * the ballot list fixed at that moment with its SHA-256 (the commitment anyone can check), and
 * when staff published the results.
 */
export const showSettings = pgTable("show_settings", {
  eventId: uuid("event_id")
    .primaryKey()
    .references(() => events.id, { onDelete: "cascade" }),
  votingOpensAt: timestamp("voting_opens_at", { withTimezone: true }),
  votingClosesAt: timestamp("voting_closes_at", { withTimezone: true }),
  ballotList: text("ballot_list"),
  commitment: text("commitment"),
  talliedAt: timestamp("tallied_at", { withTimezone: true }),
  resultsPublishedAt: timestamp("results_published_at", { withTimezone: true }),
  /** Whether the results page shows each car's score, or only places and awards. */
  showScores: boolean("show_scores").notNull().default(false),
});

/** A People's Choice category ("People's Choice", "Best paint"). `slug` is how the tally names it. */
export const voteCategories = pgTable(
  "vote_categories",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    position: integer("position").notNull().default(0),
  },
  (table) => [uniqueIndex("vote_categories_event_slug_key").on(table.eventId, table.slug)],
);

/**
 * A People's Choice ballot: one per admitted ticket and category, which its holder may point at
 * another car until voting closes. `id` is 32 random hex characters, the only name the published
 * list gives it.
 */
export const ballots = pgTable(
  "ballots",
  {
    id: text("id").primaryKey(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    categoryId: uuid("category_id")
      .notNull()
      .references(() => voteCategories.id, { onDelete: "cascade" }),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    voterId: text("voter_id").references(() => users.id, { onDelete: "set null" }),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => showCarApplications.id, { onDelete: "cascade" }),
    castAt: timestamp("cast_at", { withTimezone: true }).notNull(),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex("ballots_ticket_category_key").on(table.ticketId, table.categoryId),
    index("ballots_event_idx").on(table.eventId, table.categoryId),
    index("ballots_voter_idx").on(table.voterId),
  ],
);

/**
 * What a car's owner chose for an item of its show history: hide it, or (for a score, hidden
 * unless chosen) show it. `item` names the entry, like "award:<id>" or "score:<application id>".
 */
export const carHistoryChoices = pgTable(
  "car_history_choices",
  {
    carId: uuid("car_id")
      .notNull()
      .references(() => cars.id, { onDelete: "cascade" }),
    item: text("item").notNull(),
    shown: boolean("shown").notNull(),
  },
  (table) => [primaryKey({ columns: [table.carId, table.item] })],
);
