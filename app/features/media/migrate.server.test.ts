import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3Server } from "~/server/storage/s3rver.test-support";
import { localStorage } from "~/server/storage/storage.server";
import { storeCarPhoto } from "./car-photos.server";
import { storedKeys } from "./media-stores.test-support";
import { migrateMedia } from "./migrate.server";
import { carPicture } from "./test-images.test-support";

describe("migrateMedia", () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(() => s3.stop());

  it("copies every local file to the bucket, private originals included, and skips them the second time", async () => {
    const local = localStorage(path.join(mkdtempSync(path.join(tmpdir(), "pitlane-migrate-")), "media"));
    const stored = await storeCarPhoto(local, await carPicture(800, 600).jpeg().toBuffer());
    if (!stored.ok) throw new Error(stored.message);
    await local.put("avatars/0f3a.webp", new Uint8Array([1, 2, 3]), "image/webp");
    const keys = await storedKeys(local);
    expect(keys).toContain(stored.photo.sourceKey);

    const first = await migrateMedia(local, s3.storage);
    expect(first).toEqual({ copied: keys.length, skipped: 0, failed: [] });
    expect(await storedKeys(s3.storage)).toEqual(keys);
    const copied = await s3.storage.get("avatars/0f3a.webp");
    expect([...copied!.bytes]).toEqual([1, 2, 3]);
    // Public files are at the bucket's public address; the original is not.
    expect((await fetch(s3.storage.url("avatars/0f3a.webp"))).status).toBe(200);
    expect(s3.storage.publicBase).toMatch(/\/media\/$/);

    await local.put("avatars/1b2c.webp", new Uint8Array([4]), "image/webp");
    const second = await migrateMedia(local, s3.storage);
    expect(second).toEqual({ copied: 1, skipped: keys.length, failed: [] });
  });
});
