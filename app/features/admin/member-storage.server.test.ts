import { beforeAll, describe, expect, it } from "vitest";
import { insertAccount, type StaffMember } from "~/features/accounts/staff.server";
import { statementsSent } from "~/server/db/statements-sent.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { carPhotos, cars } from "../../../db/schema";
import { listMembers } from "./members.server";

// What each member's car photos take in storage, on the admin's members list (docs/media.md,
// "Storage per member"): read with the page, never one query per member.

const database = freshDatabasePerFile();
let heavy: StaffMember;
let light: StaffMember;
let none: StaffMember;

/** A car of `ownerId` with photos whose files take these many bytes (null: stored before sizes were kept). */
async function carWithPhotos(ownerId: string, sizes: (number | null)[]) {
  const { db } = database();
  const [car] = await db
    .insert(cars)
    .values({ ownerId, make: "Mazda", model: "MX-5", year: 1991 })
    .returning({ id: cars.id });
  await db.insert(carPhotos).values(
    sizes.map((bytes, position) => ({
      carId: car!.id,
      hash: `${position}`.padStart(32, "0"),
      sourceKey: `private/cars/${position}.webp`,
      width: 1600,
      height: 1200,
      color: "#000000",
      position,
      bytes,
    })),
  );
}

beforeAll(async () => {
  const { db } = database();
  const account = (name: string) =>
    insertAccount(db, { email: `${name.toLowerCase()}@club.example`, name, role: "member", passwordHash: "x" });
  heavy = await account("Heavy");
  light = await account("Light");
  none = await account("None");
  await carWithPhotos(heavy.id, [4_000_000, 3_000_000, null]);
  await carWithPhotos(heavy.id, [2_500_000]);
  await carWithPhotos(light.id, [800_000]);
});

describe("the members list's storage per member", () => {
  it("gives each member their car photos and the bytes they take, counting apart those never measured", async () => {
    const page = await listMembers(database().db, { query: "", role: "all", page: 1 });
    const storage = Object.fromEntries(page.members.map((member) => [member.name, member.storage]));
    expect(storage).toEqual({
      Heavy: { photos: 4, bytes: 9_500_000, unmeasured: 1 },
      Light: { photos: 1, bytes: 800_000, unmeasured: 0 },
      None: { photos: 0, bytes: 0, unmeasured: 0 },
    });
  });

  it("puts the members storing the most first when asked", async () => {
    const page = await listMembers(database().db, { query: "", role: "all", page: 1, sort: "storage" });
    expect(page.members.map((member) => member.id)).toEqual([heavy.id, light.id, none.id]);
  });

  it("reads the page in the same two statements however many members have photos", async () => {
    const handle = database();
    const before = await statementsSent(handle, () => listMembers(handle.db, { query: "", role: "all", page: 1 }));
    for (let index = 0; index < 5; index++) {
      const member = await insertAccount(handle.db, {
        email: `more${index}@club.example`,
        name: `More ${index}`,
        role: "member",
        passwordHash: "x",
      });
      await carWithPhotos(member.id, [1000, 2000]);
    }
    const after = await statementsSent(handle, () => listMembers(handle.db, { query: "", role: "all", page: 1 }));
    expect(after.result.members).toHaveLength(8);
    expect(after.statements).toHaveLength(2);
    expect(before.statements).toHaveLength(2);
  });
});
