import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { storeCarPhoto } from "~/features/media/car-photos.server";
import type { Db } from "~/server/db/client.server";
import type { Storage } from "~/server/storage/storage.server";
import { carPhotos, cars, users } from "../../../db/schema";

/**
 * For end-to-end tests: a member of its own (who cannot sign in) with a public car, a private
 * number plate and one real stored photo, so the community pages have something to show.
 */
export async function communityFixtureCar(db: Db, storage: Storage) {
  const tag = randomBytes(4).toString("hex");
  const owner = { id: randomUUID(), handle: `fixture_${tag}` };
  await db.insert(users).values({
    ...owner,
    email: `${owner.handle}@club.example`,
    name: `Fixture Owner ${tag}`,
    role: "member",
    emailVerified: true,
    town: "Testbury",
    onboardedAt: new Date(),
    termsAcceptedAt: new Date(),
  });
  const image = await sharp({
    create: { width: 1200, height: 900, channels: 3, background: { r: 200, g: 90, b: 20 } },
  })
    .composite([
      {
        input: Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900"><rect x="200" y="450" width="800" height="200" rx="90" fill="#111"/><circle cx="350" cy="660" r="80" fill="#222"/><circle cx="850" cy="660" r="80" fill="#222"/></svg>`,
        ),
      },
    ])
    .jpeg()
    .toBuffer();
  const stored = await storeCarPhoto(storage, image);
  if (!stored.ok) throw new Error(stored.message);
  const [car] = await db
    .insert(cars)
    .values({
      ownerId: owner.id,
      make: "Fixturemobile",
      model: `Roadster ${tag}`,
      year: 1994,
      variant: "Test Edition",
      colour: "Orange",
      engine: "1.8 straight-four",
      powerBhp: 140,
      drivetrain: "rwd",
      gearbox: "manual",
      modifications: ["Bucket seats", "Roll bar"],
      story: "Built for the tests.\n\nDriven every day anyway.",
      plate: "FX94 PLT",
      platePublic: false,
      visibility: "public",
    })
    .returning({ id: cars.id });
  const [photo] = await db
    .insert(carPhotos)
    .values({ carId: car!.id, ...stored.photo, position: 0 })
    .returning({ id: carPhotos.id });
  await db.update(cars).set({ coverPhotoId: photo!.id }).where(eq(cars.id, car!.id));
  return { carId: car!.id, handle: owner.handle, model: `Roadster ${tag}` };
}
