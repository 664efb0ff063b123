import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { type CarVisibility, carPhotos, cars, users } from "../../../db/schema";

// Rows for tests and the end-to-end fixture: members with handles, and cars with photos whose
// files are made up (the pages only need the hash).

export type TestMember = {
  id: string;
  email: string;
  name: string;
  handle: string;
  role: "member" | "organizer" | "admin";
};

export async function insertMember(
  db: Db,
  input: { handle: string; role?: TestMember["role"]; name?: string; town?: string | null; image?: string | null },
): Promise<TestMember> {
  const member = {
    id: randomUUID(),
    email: `${input.handle.toLowerCase()}@club.example`,
    name: input.name ?? `Member ${input.handle}`,
    handle: input.handle,
    role: input.role ?? "member",
  };
  await db.insert(users).values({
    ...member,
    emailVerified: true,
    town: input.town ?? null,
    image: input.image ?? null,
    onboardedAt: new Date(),
    termsAcceptedAt: new Date(),
  });
  return member;
}

export type TestCar = {
  make?: string;
  model?: string;
  year?: number;
  variant?: string;
  visibility?: CarVisibility;
  plate?: string | null;
  platePublic?: boolean;
  hidden?: boolean;
  photos?: number;
  createdAt?: Date;
  story?: string;
  modifications?: string[];
};

/** A car with `photos` made-up photos (the first one the cover). */
export async function insertCar(db: Db, ownerId: string, input: TestCar = {}) {
  const [car] = await db
    .insert(cars)
    .values({
      ownerId,
      make: input.make ?? "Honda",
      model: input.model ?? "S2000",
      year: input.year ?? 2004,
      variant: input.variant ?? "",
      colour: "Silverstone Silver",
      engine: "2.0 F20C",
      powerBhp: 237,
      drivetrain: "rwd",
      gearbox: "manual",
      modifications: input.modifications ?? ["Coilovers", "Hardtop"],
      story: input.story ?? "Bought it in 2015.\n\nTrack days since.",
      plate: input.plate === undefined ? "AB12 CDE" : input.plate,
      platePublic: input.platePublic ?? false,
      visibility: input.visibility ?? "public",
      hiddenAt: input.hidden ? new Date() : null,
      hiddenReason: input.hidden ? "Reported" : null,
      createdAt: input.createdAt ?? new Date(),
    })
    .returning({ id: cars.id });
  const photoIds: string[] = [];
  for (let position = 0; position < (input.photos ?? 1); position++) {
    const [photo] = await db
      .insert(carPhotos)
      .values({
        carId: car!.id,
        hash: randomBytes(16).toString("hex"),
        sourceKey: `cars/sources/${randomBytes(16).toString("hex")}.webp`,
        width: 1600,
        height: 1200,
        color: "#445566",
        position,
      })
      .returning({ id: carPhotos.id });
    photoIds.push(photo!.id);
  }
  if (photoIds[0]) await db.update(cars).set({ coverPhotoId: photoIds[0] }).where(eq(cars.id, car!.id));
  return { id: car!.id, photoIds };
}
