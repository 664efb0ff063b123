import { readFileSync } from "node:fs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareAvatar } from "~/features/accounts/avatar.server";
import { prepareCover, storeCover } from "~/features/events/cover.server";
import type { Storage } from "~/server/storage/storage.server";
import { CAR_PHOTO_WIDTHS, carPhotoKey } from "./car-photo-urls";
import {
  CAR_PHOTO_MAX_BYTES,
  carPhotoFileKeys,
  deleteCarPhotoFiles,
  reblurCarPhoto,
  storeCarPhoto,
} from "./car-photos.server";
import { type MediaStore, mediaStore, storedKeys } from "./media-stores.test-support";
import { carPicture, hugePng, PLATE, photoWithGps, zipArchive } from "./test-images.test-support";

// The upload checks of docs/media.md, on the store the run is configured with: the local disk,
// or (S3_BUCKET set, as in the S3 run of .ci/run) a real S3-compatible server.

let store: MediaStore;
beforeAll(async () => {
  store = await mediaStore();
});
afterAll(() => store.stop());

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

/** What a browser gets for a stored public file: over HTTP from the bucket, or from the store. */
async function served(storage: Storage, key: string) {
  const url = storage.url(key);
  if (url.startsWith("http")) {
    const response = await fetch(url);
    expect(response.status, url).toBe(200);
    return new Uint8Array(await response.arrayBuffer());
  }
  const file = await storage.get(key);
  expect(file, key).not.toBeNull();
  return new Uint8Array(file!.bytes);
}

async function expectRefused(bytes: Uint8Array, message: string | RegExp) {
  const before = await storedKeys(store.storage);
  const outcome = await storeCarPhoto(store.storage, bytes);
  expect(outcome.ok).toBe(false);
  if (!outcome.ok) expect(outcome.message).toMatch(message);
  expect(await storedKeys(store.storage)).toEqual(before);
}

describe("refused uploads leave nothing in storage", () => {
  it("refuses a JPEG with a ZIP archive appended (a polyglot)", async () => {
    const jpeg = await carPicture(800, 600).jpeg().toBuffer();
    await expectRefused(Buffer.concat([jpeg, zipArchive()]), /carries something else inside it/);
  });

  it("refuses a JPEG with a web page appended or hidden in a comment", async () => {
    const jpeg = await carPicture(800, 600).jpeg().toBuffer();
    const page = Buffer.from("<html><body><script>alert(document.cookie)</script></body></html>");
    await expectRefused(Buffer.concat([jpeg, page]), /carries something else inside it/);
    // A comment segment (0xFFFE) right after the start of image.
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0, page.length + 2]), page]);
    await expectRefused(Buffer.concat([jpeg.subarray(0, 2), comment, jpeg.subarray(2)]), /carries something else/);
  });

  it("refuses a PNG with a ZIP archive after its end", async () => {
    const png = await carPicture(800, 600).png().toBuffer();
    await expectRefused(Buffer.concat([png, zipArchive()]), /carries something else inside it/);
  });

  it("refuses an HTML file named .jpg: the content decides, not the name", async () => {
    await expectRefused(
      Buffer.from("<!doctype html><title>car.jpg</title><script>alert(1)</script>"),
      "Choose a JPEG, PNG, WebP or HEIC photo.",
    );
  });

  it("refuses a 14000 × 14000 PNG from its header, before decoding a pixel", async () => {
    const started = Date.now();
    await expectRefused(
      hugePng(14000),
      "This photo is too large (14000 × 14000 pixels). Choose one of at most 10000 × 10000 pixels.",
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("refuses truncated JPEG, PNG and WebP files", async () => {
    const damaged = "This photo could not be read. It may be damaged: try another one.";
    for (const format of ["jpeg", "png", "webp"] as const) {
      const whole = await carPicture(800, 600).toFormat(format).toBuffer();
      for (const share of [0.3, 0.9]) {
        await expectRefused(whole.subarray(0, Math.floor(whole.length * share)), damaged);
      }
    }
  });

  it("refuses a file over 15 MB and one too small to show", async () => {
    const heavy = Buffer.alloc(CAR_PHOTO_MAX_BYTES + 1);
    heavy.set([0xff, 0xd8, 0xff]);
    await expectRefused(heavy, "Choose a photo of at most 15 MB.");
    await expectRefused(
      await carPicture(300, 200).png().toBuffer(),
      "This photo is too small (300 × 200 pixels). Choose one at least 320 pixels on each side.",
    );
  });

  it("takes back what it wrote when the store fails halfway, and says to try again", async () => {
    const before = await storedKeys(store.storage);
    let writes = 0;
    const failing: Storage = {
      ...store.storage,
      async put(key, bytes, contentType) {
        writes += 1;
        if (writes === 4) throw new Error("storage unavailable");
        await store.storage.put(key, bytes, contentType);
      },
    };
    const outcome = await storeCarPhoto(failing, await carPicture(900, 700).jpeg().toBuffer());
    expect(outcome).toEqual({ ok: false, message: "The photo could not be saved just now. Try again in a moment." });
    expect(await storedKeys(store.storage)).toEqual(before);
  });
});

describe("storeCarPhoto", () => {
  it("takes an iPhone HEIC photo: decoded, cleaned and stored like any other; a cut-short one is refused", async () => {
    const heic = new Uint8Array(readFileSync(new URL("./fixtures/photo.heic", import.meta.url)));
    expect(latin1(heic.subarray(4, 12))).toBe("ftypheic");
    const outcome = await storeCarPhoto(store.storage, heic);
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.photo).toMatchObject({ width: 640, height: 480 });
    const webp = await served(store.storage, carPhotoKey(outcome.photo.hash, 640, "webp"));
    const meta = await sharp(webp).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 640, height: 480 });
    expect(meta.exif).toBeUndefined();
    // The picture survives the trip: a red frame around a blue box.
    const { data } = await sharp(webp)
      .resize(4, 3, { fit: "fill" })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(150);

    await expectRefused(heic.subarray(0, Math.floor(heic.length / 2)), /This HEIC photo could not be read/);
  });

  it("cleans a JPEG with GPS: no EXIF, GPS or camera in any served rendition or the original", async () => {
    const upload = await photoWithGps();
    expect(latin1(upload)).toContain("PhoneCo");
    expect((await sharp(upload).metadata()).exif).toBeDefined();

    const outcome = await storeCarPhoto(store.storage, upload);
    if (!outcome.ok) throw new Error(outcome.message);
    const { photo } = outcome;
    expect(photo).toMatchObject({ width: 1600, height: 1200 });
    expect(photo.hash).toMatch(/^[0-9a-f]{32}$/);
    expect(photo.color).toMatch(/^#[0-9a-f]{6}$/);
    expect(photo.sourceKey).toMatch(/^private\/cars\/[0-9a-f]{32}\.webp$/);

    for (const width of CAR_PHOTO_WIDTHS) {
      for (const format of ["avif", "webp"] as const) {
        const key = carPhotoKey(photo.hash, width, format);
        const bytes = await served(store.storage, key);
        const meta = await sharp(bytes).metadata();
        expect(meta.format, key).toBe(format === "avif" ? "heif" : "webp");
        expect(meta.width, key).toBe(width);
        expect(meta.exif, key).toBeUndefined();
        expect(meta.xmp, key).toBeUndefined();
        expect(latin1(bytes), key).not.toMatch(/PhoneCo|Snap 9|GPS/);
      }
    }
    const original = await store.storage.get(photo.sourceKey);
    const meta = await sharp(original!.bytes).metadata();
    expect([meta.width, meta.height, meta.exif, meta.xmp]).toEqual([1600, 1200, undefined, undefined]);
    expect(latin1(original!.bytes)).not.toMatch(/PhoneCo|Snap 9|GPS/);
    // The original has no public address at all.
    expect(() => store.storage.url(photo.sourceKey)).toThrow();

    await deleteCarPhotoFiles(store.storage, photo);
    for (const key of carPhotoFileKeys(photo)) expect(await store.storage.exists(key), key).toBe(false);
  });

  it("turns a sideways camera photo upright", async () => {
    const sideways = await carPicture(1200, 900).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const outcome = await storeCarPhoto(store.storage, sideways);
    if (!outcome.ok) throw new Error(outcome.message);
    expect([outcome.photo.width, outcome.photo.height]).toEqual([900, 1200]);
    const meta = await sharp((await store.storage.get(carPhotoKey(outcome.photo.hash, 640, "webp")))!.bytes).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([640, 853, undefined]);
    await deleteCarPhotoFiles(store.storage, outcome.photo);
  });

  it("blurs the marked areas in every size, and a new blur replaces the renditions from the original", async () => {
    const upload = await carPicture(1600, 1200).png().toBuffer();
    const plain = await storeCarPhoto(store.storage, upload);
    const blurred = await storeCarPhoto(store.storage, upload, { blur: [PLATE] });
    if (!plain.ok || !blurred.ok) throw new Error("not stored");
    expect(blurred.photo.hash).not.toBe(plain.photo.hash);
    // The same original: a blur changes only the public renditions.
    expect(blurred.photo.sourceKey).toBe(plain.photo.sourceKey);

    for (const width of CAR_PHOTO_WIDTHS) {
      const sharpPlate = await plateDetail(carPhotoKey(plain.photo.hash, width, "webp"));
      const hidden = await plateDetail(carPhotoKey(blurred.photo.hash, width, "webp"));
      expect(hidden, `${width}`).toBeLessThan(sharpPlate / 4);
    }

    const reblurred = await reblurCarPhoto(store.storage, plain.photo, [PLATE]);
    expect(reblurred.hash).toBe(blurred.photo.hash);
    expect(reblurred.sourceKey).toBe(plain.photo.sourceKey);
    // The unblurred renditions are gone: nothing public shows the plate any more.
    for (const width of CAR_PHOTO_WIDTHS) {
      expect(await store.storage.exists(carPhotoKey(plain.photo.hash, width, "webp"))).toBe(false);
      expect(await store.storage.exists(carPhotoKey(plain.photo.hash, width, "avif"))).toBe(false);
    }
    const cleared = await reblurCarPhoto(store.storage, reblurred, []);
    expect(cleared.hash).toBe(plain.photo.hash);
    await deleteCarPhotoFiles(store.storage, cleared, { original: true });
    await deleteCarPhotoFiles(store.storage, blurred.photo);
  });
});

/** How sharp the plate area is: the mean step between neighbouring pixels (characters have edges, a blur has none). */
async function plateDetail(key: string) {
  const { data, info } = await sharp((await store.storage.get(key))!.bytes)
    .extract(await plateArea(key))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let steps = 0;
  for (let y = 0; y < info.height; y++) {
    for (let x = 1; x < info.width; x++) {
      const at = (y * info.width + x) * info.channels;
      steps += Math.abs(data[at]! - data[at - info.channels]!);
    }
  }
  return steps / (info.height * Math.max(1, info.width - 1));
}

async function plateArea(key: string) {
  const { width = 0, height = 0 } = await sharp((await store.storage.get(key))!.bytes).metadata();
  // The inner part of the plate, away from its edges, where the characters are.
  return {
    left: Math.round(width * (PLATE.x + 0.03)),
    top: Math.round(height * (PLATE.y + 0.015)),
    width: Math.max(1, Math.round(width * (PLATE.w - 0.06))),
    height: Math.max(1, Math.round(height * (PLATE.h - 0.03))),
  };
}

describe("the other uploads share the pipeline and its checks", () => {
  it("stores an event cover or prize photo on this store, cleaned of GPS", async () => {
    const cover = await prepareCover(await photoWithGps());
    if (!cover.ok) throw new Error(cover.message);
    await storeCover(store.storage, cover);
    const bytes = await served(store.storage, cover.files[0]!.key);
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    expect(latin1(bytes)).not.toMatch(/PhoneCo|GPS/);
    await Promise.all(cover.files.map((file) => store.storage.delete(file.key)));
  });

  it("refuses polyglots as avatars and covers too", async () => {
    const jpeg = await carPicture(800, 600).jpeg().toBuffer();
    const polyglot = Buffer.concat([jpeg, zipArchive()]);
    expect(await prepareAvatar(polyglot)).toMatchObject({ ok: false, message: expect.stringMatching(/photo carries/) });
    expect(
      await prepareCover(Buffer.concat([await carPicture(1600, 900).jpeg().toBuffer(), zipArchive()])),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/image carries/) });
  });
});
