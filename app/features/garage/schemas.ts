import { z } from "zod";
import { tooLong } from "~/features/forms/fields";
import {
  type BlurRegion,
  CAR_VISIBILITIES,
  type CarVisibility,
  DRIVETRAINS,
  type Drivetrain,
  GEARBOXES,
  type Gearbox,
} from "../../../db/schema/garage";

// The garage's forms: one schema per form, run in the browser for quick feedback and again on
// the server, which decides.

export const CAR_LIMITS = {
  make: 60,
  model: 80,
  variant: 80,
  colour: 60,
  engine: 80,
  modifications: 40,
  modification: 120,
  story: 10_000,
  plate: 12,
  alt: 200,
  blurRegions: 12,
  firstYear: 1885,
} as const;

export const VISIBILITY_LABELS = {
  public: "Public: anyone can see it in the community",
  members: "Members: only signed-in members can see it",
  private: "Private: only you",
} as const satisfies Record<CarVisibility, string>;

export const VISIBILITY_NAMES = {
  public: "Public",
  members: "Members only",
  private: "Private",
} as const satisfies Record<CarVisibility, string>;

export const DRIVETRAIN_LABELS = {
  fwd: "Front-wheel drive",
  rwd: "Rear-wheel drive",
  awd: "All-wheel drive",
  "4wd": "Four-wheel drive",
} as const satisfies Record<Drivetrain, string>;

export const GEARBOX_LABELS = {
  manual: "Manual",
  automatic: "Automatic",
  dct: "Dual-clutch",
  sequential: "Sequential",
  cvt: "CVT",
} as const satisfies Record<Gearbox, string>;

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, tooLong(max))
    .optional()
    .transform((value) => value ?? "");

const required = (max: number, message: string) =>
  z.string({ error: message }).trim().min(1, message).max(max, tooLong(max));

/** A UK-style plate, or any country's: letters, digits and spaces, kept in capitals. */
const plate = z
  .string()
  .trim()
  .max(CAR_LIMITS.plate, `A number plate has at most ${CAR_LIMITS.plate} characters.`)
  .regex(/^[A-Za-z0-9 -]*$/, "A number plate has only letters, digits and spaces.")
  .optional()
  .transform((value) => (value ? value.toUpperCase().replace(/\s+/g, " ") : null));

/** An empty field is a field not filled in (Conform does the same in the browser). */
const blankAsMissing = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

/** The car form of /members/newGarage and a car's edit page. */
export function carSchema(now = new Date()) {
  const lastYear = now.getUTCFullYear() + 1;
  return z.object({
    make: required(CAR_LIMITS.make, "Enter the make, like Mazda."),
    model: required(CAR_LIMITS.model, "Enter the model, like MX-5."),
    year: z.preprocess(
      blankAsMissing,
      z.coerce
        .number({ error: "Enter the year it was made, like 1991." })
        .int("Enter the year as four digits, like 1991.")
        .min(CAR_LIMITS.firstYear, `Enter a year from ${CAR_LIMITS.firstYear}.`)
        .max(lastYear, `Enter a year up to ${lastYear}.`),
    ),
    variant: text(CAR_LIMITS.variant),
    colour: text(CAR_LIMITS.colour),
    engine: text(CAR_LIMITS.engine),
    powerBhp: z.preprocess(
      blankAsMissing,
      z.coerce
        .number({ error: "Enter the power as a whole number of bhp." })
        .int("Enter the power as a whole number of bhp.")
        .min(1, "Enter a power of at least 1 bhp.")
        .max(5000, "Enter a power of at most 5000 bhp.")
        .optional(),
    ),
    drivetrain: z.preprocess(
      blankAsMissing,
      z.enum(DRIVETRAINS, { error: "Choose a drivetrain from the list." }).optional(),
    ),
    gearbox: z.preprocess(blankAsMissing, z.enum(GEARBOXES, { error: "Choose a gearbox from the list." }).optional()),
    modifications: z
      .string()
      .max(CAR_LIMITS.modifications * (CAR_LIMITS.modification + 1), "The list of modifications is too long.")
      .optional()
      .transform((value, ctx) => {
        const lines = (value ?? "")
          .split(/\r?\n/)
          .map((line) => line.trim().replace(/^[-*•]\s*/, ""))
          .filter(Boolean);
        if (lines.length > CAR_LIMITS.modifications) {
          ctx.addIssue({ code: "custom", message: `List at most ${CAR_LIMITS.modifications} modifications.` });
        }
        if (lines.some((line) => line.length > CAR_LIMITS.modification)) {
          ctx.addIssue({
            code: "custom",
            message: `Each modification: ${tooLong(CAR_LIMITS.modification).toLowerCase()}`,
          });
        }
        return lines;
      }),
    story: text(CAR_LIMITS.story),
    plate,
    platePublic: z
      .literal("on")
      .optional()
      .transform((value) => value === "on"),
    visibility: z.enum(CAR_VISIBILITIES, { error: "Choose who can see the car." }),
  });
}

export type CarInput = z.output<ReturnType<typeof carSchema>>;

/** The car form's fields as strings, as the form shows them. */
export type CarFormDefaults = Partial<Record<keyof CarInput, string>>;

export function carFormDefaults(car: CarInput): CarFormDefaults {
  return {
    make: car.make,
    model: car.model,
    year: String(car.year),
    variant: car.variant,
    colour: car.colour,
    engine: car.engine,
    powerBhp: car.powerBhp ? String(car.powerBhp) : "",
    drivetrain: car.drivetrain ?? "",
    gearbox: car.gearbox ?? "",
    modifications: car.modifications.join("\n"),
    story: car.story,
    plate: car.plate ?? "",
    platePublic: car.platePublic ? "on" : "",
    visibility: car.visibility,
  };
}

/** The forms of the garage's list, told apart by their `intent`: delete a car, change who sees it. */
export const GarageListIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("delete"), carId: z.string().max(64) }),
  z.object({
    intent: z.literal("visibility"),
    carId: z.string().max(64),
    visibility: z.enum(CAR_VISIBILITIES, { error: "Choose who can see the car." }),
  }),
]);

const photoId = z.uuid("Choose one of this car's photos.");

/** The photo forms of a car's edit page, told apart by their `intent`. */
export const PhotoIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("cover"), photoId }),
  z.object({ intent: z.literal("remove"), photoId }),
  z.object({ intent: z.literal("move"), photoId, direction: z.enum(["up", "down"]) }),
  z.object({ intent: z.literal("alt"), photoId, alt: text(CAR_LIMITS.alt) }),
  z.object({
    intent: z.literal("order"),
    order: z
      .string()
      .transform((value) => value.split(",").filter(Boolean))
      .pipe(z.array(z.uuid()).max(50)),
  }),
]);

const fraction = z.number().finite().min(0).max(1);
const BlurRegionSchema = z
  .object({ x: fraction, y: fraction, w: fraction.min(0.005), h: fraction.min(0.005) })
  .transform((region) => ({
    x: region.x,
    y: region.y,
    w: Math.min(region.w, 1 - region.x),
    h: Math.min(region.h, 1 - region.y),
  }));

/**
 * The blur areas as sent by the form: JSON of `{x, y, w, h}` fractions of the photo. Anything
 * else is refused with a message rather than guessed at.
 */
export function parseBlurRegions(
  value: string | undefined,
): { ok: true; regions: BlurRegion[] } | { ok: false; message: string } {
  if (!value?.trim()) return { ok: true, regions: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return { ok: false, message: "The blur areas could not be read. Mark them again." };
  }
  const result = z.array(BlurRegionSchema).max(CAR_LIMITS.blurRegions).safeParse(parsed);
  if (!result.success) {
    return { ok: false, message: `Mark up to ${CAR_LIMITS.blurRegions} areas, each inside the photo.` };
  }
  return { ok: true, regions: result.data };
}

const percent = (label: string) =>
  z.coerce
    .number({ error: `Enter the ${label} as a number from 0 to 100.` })
    .min(0, `Enter the ${label} as a number from 0 to 100.`)
    .max(100, `Enter the ${label} as a number from 0 to 100.`);

/** The blur forms of a photo: add one area (in per cent of the photo), remove one, clear, or set all. */
export const BlurFormSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("blur-add"),
    photoId,
    left: percent("distance from the left"),
    top: percent("distance from the top"),
    width: percent("width").min(1, "Make the area at least 1% wide."),
    height: percent("height").min(1, "Make the area at least 1% high."),
  }),
  z.object({ intent: z.literal("blur-remove"), photoId, index: z.coerce.number().int().min(0).max(50) }),
  z.object({ intent: z.literal("blur-clear"), photoId }),
  z.object({ intent: z.literal("blur-set"), photoId, regions: z.string().max(4000).optional() }),
]);

/** An area typed in per cent of the photo, as a fraction, kept inside the photo. */
export function regionFromPercent(area: { left: number; top: number; width: number; height: number }): BlurRegion {
  return {
    x: area.left / 100,
    y: area.top / 100,
    w: Math.min(area.width, 100 - area.left) / 100,
    h: Math.min(area.height, 100 - area.top) / 100,
  };
}

/** A preset area for the keyboard: where a rear or front plate usually is in a side-on shot. */
export const PLATE_PRESET: BlurRegion = { x: 0.38, y: 0.72, w: 0.24, h: 0.1 };
