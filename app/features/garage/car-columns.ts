import { cars } from "../../../db/schema";

/**
 * A car's details as its owner set them, with its likes and moderation state: what the garage,
 * the community pages and the data export all read.
 */
export const carDetailColumns = {
  id: cars.id,
  make: cars.make,
  model: cars.model,
  year: cars.year,
  variant: cars.variant,
  colour: cars.colour,
  engine: cars.engine,
  powerBhp: cars.powerBhp,
  drivetrain: cars.drivetrain,
  gearbox: cars.gearbox,
  modifications: cars.modifications,
  story: cars.story,
  plate: cars.plate,
  platePublic: cars.platePublic,
  visibility: cars.visibility,
  likeCount: cars.likeCount,
  hiddenAt: cars.hiddenAt,
};
