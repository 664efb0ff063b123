import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addTestCar, createMembers } from "~/features/garage/garage.test-support";
import { carPhotoKey } from "~/features/media/car-photo-urls";
import { storeCarPhoto } from "~/features/media/car-photos.server";
import { carPicture } from "~/features/media/test-images.test-support";
import { requestContext, runtimeContext, type SessionUser, userContext } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { Runtime } from "~/server/runtime.server";

import { startS3Server } from "~/server/storage/s3rver.test-support";
import { localStorage, type Storage } from "~/server/storage/storage.server";
import { carPhotos } from "../../../db/schema";
import * as mediaRoute from "./media";

// /media/* for every role: the same public files for all, never a private original. What is
// hidden, private or removed is media-visibility.test.ts.
const ROLES = [null, "member", "organizer", "admin"] as const;
const database = freshDatabasePerFile();

function get(storage: Storage, key: string, role: (typeof ROLES)[number]) {
  const context = new RouterContextProvider();
  context.set(runtimeContext, { storage, db: database().db } as unknown as Runtime);
  context.set(requestContext, { ip: "192.0.2.40", nonce: "n", requestId: "r" });
  context.set(userContext, role ? ({ id: `u-${role}`, role } as unknown as SessionUser) : null);
  const url = new URL(`http://localhost/media/${key}`);
  return mediaRoute.loader({ request: new Request(url), url, params: { "*": key }, context } as never);
}

describe("/media/* on the local disk", () => {
  const storage = localStorage(path.join(mkdtempSync(path.join(tmpdir(), "pitlane-media-route-")), "media"));
  let photo: { hash: string; sourceKey: string };
  beforeAll(async () => {
    const stored = await storeCarPhoto(storage, await carPicture(800, 600).jpeg().toBuffer());
    if (!stored.ok) throw new Error(stored.message);
    photo = stored.photo;
    const { db } = database();
    const [owner] = await createMembers(db, 1);
    const carId = await addTestCar(db, owner!.id, { visibility: "public" });
    await db.insert(carPhotos).values({ carId, ...stored.photo, position: 0 });
    await storage.put("avatars/0f3a.webp", await carPicture(256, 256).webp().toBuffer(), "image/webp");
  });

  it.each(ROLES)("serves a public car photo's rendition to %s, kept five minutes and revalidated", async (role) => {
    const response = await get(storage, carPhotoKey(photo.hash, 320, "webp"), role);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/webp");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=300, must-revalidate");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it.each(ROLES)("serves a file whose audience never changes (an avatar) for a year to %s", async (role) => {
    const response = await get(storage, "avatars/0f3a.webp", role);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
  });

  it.each(ROLES)("never serves a private original to %s", async (role) => {
    expect(await storage.exists(photo.sourceKey)).toBe(true);
    const response = await get(storage, photo.sourceKey, role);
    expect(response.status).toBe(404);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  it("answers 404 for an unknown or malformed key", async () => {
    for (const key of ["cars/ffff-320.webp", "../auth-secret", "cars/x.html", ""]) {
      expect((await get(storage, key, null)).status, key).toBe(404);
    }
  });
});

describe("/media/* with media in an S3 bucket", () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(() => s3.stop());

  it.each(ROLES)("sends %s to the bucket for an older /media/ address, never for an original", async (role) => {
    const key = "avatars/0f3a.webp";
    const response = await get(s3.storage, key, role);
    expect(response.status).toBe(301);
    expect(response.headers.get("Location")).toBe(`${s3.storage.publicBase}${key}`);
    expect((await get(s3.storage, "private/cars/0f3a.webp", role)).status).toBe(404);
  });
});
