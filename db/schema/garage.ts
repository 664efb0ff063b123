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

/** Who may see a car: everyone, signed-in members, or only its owner (and staff moderating it). */
export const CAR_VISIBILITIES = ["public", "members", "private"] as const;
export type CarVisibility = (typeof CAR_VISIBILITIES)[number];

export const DRIVETRAINS = ["fwd", "rwd", "awd", "4wd"] as const;
export type Drivetrain = (typeof DRIVETRAINS)[number];

export const GEARBOXES = ["manual", "automatic", "dct", "sequential", "cvt"] as const;
export type Gearbox = (typeof GEARBOXES)[number];

/** An area of a photo to blur (a number plate, a face), as fractions of its width and height. */
export type BlurRegion = { x: number; y: number; w: number; h: number };

/**
 * A member's car in their garage. `visibility` is enforced by every query that shows a car; the
 * plate is shown to others only when `plate_public` is set. `like_count` is kept in the same
 * transaction as `car_likes` changes, for "most liked". A car hidden by moderation
 * (`hidden_at`) is shown to nobody but its owner and staff.
 */
export const cars = pgTable(
  "cars",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    make: text("make").notNull(),
    model: text("model").notNull(),
    year: integer("year").notNull(),
    variant: text("variant").notNull().default(""),
    colour: text("colour").notNull().default(""),
    engine: text("engine").notNull().default(""),
    powerBhp: integer("power_bhp"),
    drivetrain: text("drivetrain", { enum: DRIVETRAINS }),
    gearbox: text("gearbox", { enum: GEARBOXES }),
    modifications: text("modifications").array().notNull().default(sql`'{}'::text[]`),
    /** Plain text with paragraphs; never rendered as HTML. */
    story: text("story").notNull().default(""),
    plate: text("plate"),
    platePublic: boolean("plate_public").notNull().default(false),
    visibility: text("visibility", { enum: CAR_VISIBILITIES }).notNull().default("private"),
    coverPhotoId: uuid("cover_photo_id"),
    likeCount: integer("like_count").notNull().default(0),
    /** Staff picked it for the home page's featured cars. */
    featuredAt: timestamp("featured_at", { withTimezone: true }),
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    hiddenReason: text("hidden_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("cars_owner_idx").on(table.ownerId, table.createdAt),
    index("cars_public_newest_idx").on(table.visibility, table.createdAt),
    index("cars_public_liked_idx").on(table.visibility, table.likeCount),
    index("cars_make_idx").on(sql`lower(${table.make})`),
    index("cars_featured_idx").on(table.featuredAt).where(sql`${table.featuredAt} is not null`),
    check("cars_year_range", sql`${table.year} between 1885 and 2100`),
    check("cars_power_range", sql`${table.powerBhp} is null or ${table.powerBhp} between 1 and 5000`),
    check("cars_like_count_non_negative", sql`${table.likeCount} >= 0`),
  ],
);

/**
 * A car's photo. `hash` names the public renditions (AVIF and WebP at the layout's widths, blur
 * applied, metadata stripped) in the media store; `source_key` the private, metadata-free
 * original they are made from, kept so a new blur can be applied to every size.
 */
export const carPhotos = pgTable(
  "car_photos",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    carId: uuid("car_id")
      .notNull()
      .references(() => cars.id, { onDelete: "cascade" }),
    hash: text("hash").notNull(),
    sourceKey: text("source_key").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    /** The photo's average colour, shown while it loads. */
    color: text("color").notNull(),
    alt: text("alt").notNull().default(""),
    position: integer("position").notNull(),
    blur: jsonb("blur").$type<BlurRegion[]>().notNull().default([]),
    /**
     * What its files take in storage (the private original and every rendition), so staff can
     * see what each member stores; null for a photo stored before it was counted.
     */
    bytes: integer("bytes"),
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("car_photos_car_idx").on(table.carId, table.position),
    // /media/cars/… looks a photo up by its hash on every request; removals count files by both.
    index("car_photos_hash_idx").on(table.hash),
    index("car_photos_source_key_idx").on(table.sourceKey),
    check("car_photos_size_positive", sql`${table.width} > 0 and ${table.height} > 0`),
  ],
);

/** One like per member per car. */
export const carLikes = pgTable(
  "car_likes",
  {
    carId: uuid("car_id")
      .notNull()
      .references(() => cars.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.carId, table.userId] }), index("car_likes_user_idx").on(table.userId)],
);

export const REPORT_REASONS = ["plate", "offensive", "spam", "not_theirs", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** open → hidden (car or photo hidden) → restored or removed; or open → dismissed. */
export const REPORT_STATUSES = ["open", "hidden", "restored", "removed", "dismissed"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** A member's report of a car or one of its photos, and the moderator's decision. */
export const carReports = pgTable(
  "car_reports",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    carId: uuid("car_id")
      .notNull()
      .references(() => cars.id, { onDelete: "cascade" }),
    photoId: uuid("photo_id").references(() => carPhotos.id, { onDelete: "cascade" }),
    reporterId: text("reporter_id").references(() => users.id, { onDelete: "set null" }),
    reason: text("reason", { enum: REPORT_REASONS }).notNull(),
    note: text("note").notNull().default(""),
    status: text("status", { enum: REPORT_STATUSES }).notNull().default("open"),
    decidedBy: text("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** Sent to the owner with the decision. */
    decisionNote: text("decision_note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("car_reports_status_idx").on(table.status, table.createdAt),
    index("car_reports_car_idx").on(table.carId),
    // One open report per member per car (or photo): a second click changes nothing.
    uniqueIndex("car_reports_open_key")
      .on(table.carId, table.reporterId, sql`coalesce(${table.photoId}::text, '')`)
      .where(sql`${table.status} = 'open'`),
  ],
);
