import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../env.server";
import { guardLegacyCarPhotos, PUBLIC_PREFIX, s3SettingsOf } from "./s3.server";
import { startS3Server } from "./s3rver.test-support";
import { isValidKey, localStorage, MEDIA_PATH, type Storage, storageFor } from "./storage.server";

type Store = { storage: Storage; stop(): Promise<void> };

// The same checks on both adapters: the local disk, and a real S3-compatible server.
const stores: [string, () => Promise<Store>][] = [
  [
    "local disk",
    async () => ({
      storage: localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-storage-"))),
      stop: async () => {},
    }),
  ],
  ["S3-compatible bucket", () => startS3Server()],
];

describe.each(stores)("%s", (_name, start) => {
  let store: Store;
  beforeAll(async () => {
    store = await start();
  });
  afterAll(() => store.stop());

  it("stores, serves and deletes a file by its key", async () => {
    const { storage } = store;
    const bytes = new Uint8Array([1, 2, 3]);
    await storage.put("avatars/abc123.webp", bytes, "image/webp");
    expect(storage.url("avatars/abc123.webp")).toBe(`${storage.publicBase}avatars/abc123.webp`);
    const stored = await storage.get("avatars/abc123.webp");
    expect(stored && { bytes: [...stored.bytes], contentType: stored.contentType }).toEqual({
      bytes: [1, 2, 3],
      contentType: "image/webp",
    });
    expect(await storage.exists("avatars/abc123.webp")).toBe(true);
    await storage.delete("avatars/abc123.webp");
    expect(await storage.get("avatars/abc123.webp")).toBeNull();
    expect(await storage.exists("avatars/abc123.webp")).toBe(false);
    // Deleting a missing file is not an error.
    await storage.delete("avatars/abc123.webp");
  });

  it("refuses a content type that does not match the key", async () => {
    await expect(store.storage.put("avatars/x.webp", new Uint8Array([1]), "text/html")).rejects.toThrow();
  });

  it("accepts only plain keys: no parent directories, absolute paths or unknown types", async () => {
    for (const key of ["../secret.webp", "/etc/passwd", "avatars/../../x.webp", "a/b.html", "A/B.webp", ".webp"]) {
      expect(isValidKey(key), key).toBe(false);
      expect(await store.storage.get(key)).toBeNull();
    }
    expect(isValidKey("avatars/0f3a.avif")).toBe(true);
  });

  it("keeps private files apart: stored and read back, but with no address", async () => {
    const { storage } = store;
    await storage.put("private/cars/0f3a.webp", new Uint8Array([9]), "image/webp");
    expect(await storage.get("private/cars/0f3a.webp")).toMatchObject({ contentType: "image/webp" });
    expect(() => storage.url("private/cars/0f3a.webp")).toThrow(/private/);
    await storage.put("cars/0f3a-160.webp", new Uint8Array([8]), "image/webp");
    const listed: string[] = [];
    for await (const key of storage.list()) listed.push(key);
    expect(listed.sort()).toEqual(["cars/0f3a-160.webp", "private/cars/0f3a.webp"]);
    const privateOnly: string[] = [];
    for await (const key of storage.list("private/")) privateOnly.push(key);
    expect(privateOnly).toEqual(["private/cars/0f3a.webp"]);
  });
});

describe("where files are", () => {
  it("keeps private files outside the served folder on the local disk", async () => {
    const root = path.join(mkdtempSync(path.join(tmpdir(), "pitlane-storage-")), "media");
    const storage = localStorage(root);
    await storage.put("private/cars/ab.webp", new Uint8Array([1]), "image/webp");
    expect(existsSync(path.join(root, "private"))).toBe(false);
    expect(existsSync(path.join(`${root}-private`, "cars", "ab.webp"))).toBe(true);
  });

  it("puts public objects under media/ in the bucket and links to the bucket's public address", async () => {
    const s3 = await startS3Server();
    try {
      await s3.storage.put("events/ab-480.webp", new Uint8Array([1]), "image/webp");
      await s3.storage.put("private/cars/ab.webp", new Uint8Array([2]), "image/webp");
      const publicUrl = s3.storage.url("events/ab-480.webp");
      expect(publicUrl).toBe(`${s3.env.S3_ENDPOINT}/pitlane-test/${PUBLIC_PREFIX}events/ab-480.webp`);
      const served = await fetch(publicUrl);
      expect(served.status).toBe(200);
      expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(served.headers.get("content-type")).toBe("image/webp");
      // A car photo can be hidden, blurred again or made private: it is kept outside the public
      // prefix and the site serves it after asking who may see it.
      await s3.storage.put("cars/ab-320.webp", new Uint8Array([3]), "image/webp");
      expect(s3.storage.url("cars/ab-320.webp")).toBe(`${MEDIA_PATH}cars/ab-320.webp`);
      expect((await fetch(`${s3.storage.publicBase}cars/ab-320.webp`)).status).toBe(404);
      expect((await s3.storage.get("cars/ab-320.webp"))?.bytes).toEqual(new Uint8Array([3]));
      // The original is not under the public prefix: no public address reaches it.
      expect((await fetch(`${s3.env.S3_ENDPOINT}/pitlane-test/${PUBLIC_PREFIX}private/cars/ab.webp`)).status).toBe(404);
    } finally {
      await s3.stop();
    }
  });

  it("moves car photos stored at their old public place out of reach, and finds them meanwhile", async () => {
    const s3 = await startS3Server();
    try {
      const settings = s3SettingsOf(s3.env)!;
      const client = new S3Client({
        region: settings.region,
        endpoint: settings.endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
      });
      const put = (Key: string, bytes: number[]) =>
        client.send(
          new PutObjectCommand({
            Bucket: settings.bucket,
            Key,
            Body: new Uint8Array(bytes),
            ContentType: "image/webp",
          }),
        );
      await put(`${PUBLIC_PREFIX}cars/old-320.webp`, [7]);
      await put(`${PUBLIC_PREFIX}events/ab-480.webp`, [8]);
      const legacyAddress = `${s3.storage.publicBase}cars/old-320.webp`;
      expect((await fetch(legacyAddress)).status).toBe(200);
      expect((await s3.storage.get("cars/old-320.webp"))?.bytes).toEqual(new Uint8Array([7]));
      expect(await s3.storage.exists("cars/old-320.webp")).toBe(true);

      expect(await guardLegacyCarPhotos(settings)).toBe(1);
      expect((await fetch(legacyAddress)).status).toBe(404);
      expect((await fetch(`${s3.storage.publicBase}events/ab-480.webp`)).status).toBe(200);
      expect((await s3.storage.get("cars/old-320.webp"))?.bytes).toEqual(new Uint8Array([7]));
      const listed: string[] = [];
      for await (const key of s3.storage.list("cars/")) listed.push(key);
      expect(listed).toEqual(["cars/old-320.webp"]);
      expect(await guardLegacyCarPhotos(settings)).toBe(0);
      await s3.storage.delete("cars/old-320.webp");
      expect(await s3.storage.exists("cars/old-320.webp")).toBe(false);
    } finally {
      await s3.stop();
    }
  });

  it("picks the bucket when S3_BUCKET is set, the disk otherwise", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "pitlane-storage-"));
    expect(storageFor({ DATA_DIR: dataDir }).publicBase).toBe(MEDIA_PATH);
    const env = parseEnv({
      DATA_DIR: dataDir,
      S3_BUCKET: "club-media",
      S3_REGION: "eu-west-2",
      S3_PUBLIC_URL: "https://media.club.example/",
    });
    expect(storageFor(env).publicBase).toBe("https://media.club.example/media/");
    expect(s3SettingsOf({ S3_BUCKET: "club-media", S3_REGION: "eu-west-2" })?.publicUrl).toBe(
      "https://club-media.s3.eu-west-2.amazonaws.com",
    );
    expect(
      s3SettingsOf({ S3_BUCKET: "club-media", S3_ENDPOINT: "http://127.0.0.1:9000/", S3_FORCE_PATH_STYLE: true })
        ?.publicUrl,
    ).toBe("http://127.0.0.1:9000/club-media");
  });
});
