import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { storeCarPhoto } from "~/features/media/car-photos.server";
import type { Db } from "~/server/db/client.server";
import type { Storage } from "~/server/storage/storage.server";
import { carPhotos, cars, events, ticketTypes } from "../../../db/schema";

/**
 * For end-to-end tests: a published event of its own taking show-car applications (a £15 fee,
 * five spots, a week to apply), and a car with a cover photo in the signed-in member's garage to
 * apply with (the gate shows the photo).
 */
export async function applicationFixture(db: Db, storage: Storage, input: { userId: string; now: Date }) {
  const tag = randomBytes(4).toString("hex");
  const day = 24 * 3600_000;
  const startsAt = new Date(input.now.getTime() + 30 * day);
  const [event] = await db
    .insert(events)
    .values({
      slug: `show-and-shine-${tag}`,
      title: `Show and Shine ${tag}`,
      type: "show",
      status: "published",
      startsAt,
      endsAt: new Date(startsAt.getTime() + 8 * 3600_000),
      timeZone: "Europe/London",
      venue: "Fixture Park",
      town: "Testbury",
      publishedAt: input.now,
      applicationsOpen: true,
      applicationsDeadline: new Date(input.now.getTime() + 7 * day),
      applicationSpots: 5,
      applicationFee: 1500,
      applicationCriteria: "Clean, road-legal cars with a story.",
    })
    .returning({ id: events.id, slug: events.slug });
  await db.insert(ticketTypes).values({ eventId: event!.id, name: "Day ticket", price: 1000, capacity: 100 });
  const [car] = await db
    .insert(cars)
    .values({ ownerId: input.userId, make: "Lotus", model: `Elan ${tag}`, year: 1967, visibility: "public" })
    .returning({ id: cars.id, year: cars.year, make: cars.make, model: cars.model });
  const image = await sharp({
    create: { width: 800, height: 600, channels: 3, background: { r: 20, g: 90, b: 160 } },
  })
    .jpeg()
    .toBuffer();
  const stored = await storeCarPhoto(storage, image);
  if (!stored.ok) throw new Error(stored.message);
  const [photo] = await db
    .insert(carPhotos)
    .values({ carId: car!.id, ...stored.photo, position: 0 })
    .returning({ id: carPhotos.id });
  await db.update(cars).set({ coverPhotoId: photo!.id }).where(eq(cars.id, car!.id));
  return { eventId: event!.id, slug: event!.slug, carLabel: `${car!.year} ${car!.make} ${car!.model}` };
}
