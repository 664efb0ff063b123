import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { carPicture, photoWithGps } from "~/features/media/test-images.test-support";
import { localStorage } from "~/server/storage/storage.server";
import { COVER_MAX_BYTES, missingCoverRendition, prepareCover, storeCover } from "./cover.server";
import { COVER_WIDTHS, coverKey } from "./cover-urls";

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  Buffer.from(bytes.subarray(start, end)).toString("latin1");

describe("prepareCover", () => {
  it("stores every width in AVIF and WebP at 16:9, with the camera's EXIF and GPS left out", async () => {
    const upload = await photoWithGps(2000, 1500);
    const exif = (await sharp(upload).metadata()).exif;
    expect(exif && ascii(exif, 0, exif.length)).toContain("PhoneCo");

    const cover = await prepareCover(upload);
    if (!cover.ok) throw new Error(cover.message);
    expect(cover.hash).toMatch(/^[0-9a-f]{32}$/);
    expect(cover.color).toMatch(/^#[0-9a-f]{6}$/);
    expect(cover.files.map((file) => file.key).sort()).toEqual(
      COVER_WIDTHS.flatMap((width) => [
        coverKey(cover.hash, width, "avif"),
        coverKey(cover.hash, width, "webp"),
      ]).sort(),
    );

    for (const file of cover.files) {
      const meta = await sharp(file.bytes).metadata();
      const width = Number(/-(\d+)\./.exec(file.key)![1]);
      expect([meta.width, meta.height], file.key).toEqual([width, Math.round((width * 9) / 16)]);
      expect(meta.exif, file.key).toBeUndefined();
      expect(meta.xmp, file.key).toBeUndefined();
      expect(ascii(file.bytes, 0, file.bytes.length), file.key).not.toMatch(/PhoneCo|GPS|Snap 9/);
      if (file.key.endsWith(".avif")) {
        expect(file.contentType).toBe("image/avif");
        expect(ascii(file.bytes, 4, 12)).toBe("ftypavif");
      } else {
        expect(file.contentType).toBe("image/webp");
        expect([ascii(file.bytes, 0, 4), ascii(file.bytes, 8, 12)]).toEqual(["RIFF", "WEBP"]);
      }
    }
  });

  it("turns a camera's sideways photo upright, then crops it to 16:9", async () => {
    // Stored 1600 × 900 with "rotate 90° clockwise": a portrait photo once upright, whose top
    // (white here) becomes its right-hand side.
    const sideways = await sharp({ create: { width: 1600, height: 900, channels: 3, background: "#000" } })
      .composite([
        { input: { create: { width: 1600, height: 450, channels: 3, background: "#fff" } }, top: 0, left: 0 },
      ])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const cover = await prepareCover(sideways);
    if (!cover.ok) throw new Error(cover.message);
    const file = cover.files.find((f) => f.key.endsWith("-480.webp"))!;
    const { data, info } = await sharp(file.bytes).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([480, 270]);
    const red = (x: number, y: number) => data[(y * info.width + x) * info.channels]!;
    expect(red(440, 60)).toBeGreaterThan(200);
    expect(red(440, 210)).toBeGreaterThan(200);
    expect(red(40, 210)).toBeLessThan(60);
  });

  it.each([
    ["a text file named .png", Buffer.from("Just some notes, saved as cover.png\n")],
    [
      "an SVG",
      Buffer.from(
        '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900"><script>alert(1)</script></svg>',
      ),
    ],
    ["a PDF", Buffer.from("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n")],
    ["an empty file", Buffer.alloc(0)],
  ])("refuses %s with a message", async (_name, bytes) => {
    expect(await prepareCover(bytes)).toEqual({ ok: false, message: "Choose a JPEG, PNG, WebP or HEIC image." });
  });

  it("refuses a GIF, which is not a format covers accept", async () => {
    const gif = await carPicture(1600, 900).gif().toBuffer();
    expect(await prepareCover(gif)).toEqual({ ok: false, message: "Choose a JPEG, PNG, WebP or HEIC image." });
  });

  it("refuses a file over 15 MB before looking inside it", async () => {
    const bytes = Buffer.alloc(COVER_MAX_BYTES + 1);
    bytes.set([0xff, 0xd8, 0xff]);
    expect(await prepareCover(bytes)).toEqual({ ok: false, message: "Choose an image of at most 15 MB." });
  });

  it("refuses a 14000 × 14000 image from its header, without decoding it", async () => {
    const huge = await sharp({ create: { width: 14000, height: 14000, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    const message = "This image is too large (14000 × 14000 pixels). Choose one of at most 10000 × 10000 pixels.";
    expect(await prepareCover(huge)).toEqual({ ok: false, message });
    // Only the header survives here: the same answer proves no pixel was read.
    expect(await prepareCover(huge.subarray(0, 64))).toEqual({ ok: false, message });
  }, 60_000);

  it("refuses a tiny image as too small", async () => {
    const tiny = await carPicture(100, 100).png().toBuffer();
    expect(await prepareCover(tiny)).toEqual({
      ok: false,
      message: "This image is too small (100 × 100 pixels). Choose one at least 640 × 360 pixels.",
    });
  });

  it("judges size by the 16:9 crop that is kept, so a tall or thin image is not stretched", async () => {
    for (const [width, height] of [
      [300, 700],
      [2000, 200],
    ] as const) {
      const image = await carPicture(width, height).png().toBuffer();
      expect(await prepareCover(image)).toEqual({
        ok: false,
        message: `This image is too small (${width} × ${height} pixels). Choose one at least 640 × 360 pixels.`,
      });
    }
    expect((await prepareCover(await carPicture(640, 360).png().toBuffer())).ok).toBe(true);
  });

  it("answers a damaged JPEG with a message, never an error", async () => {
    const whole = await carPicture(1600, 900).jpeg({ quality: 90 }).toBuffer();
    const message = "This image could not be read. It may be damaged: try another one.";
    for (const share of [0.05, 0.5, 0.95]) {
      const truncated = whole.subarray(0, Math.floor(whole.length * share));
      await expect(prepareCover(truncated), `cut at ${share}`).resolves.toEqual({ ok: false, message });
    }
    const header = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]);
    await expect(prepareCover(header)).resolves.toEqual({ ok: false, message });
  });
});

describe("storeCover", () => {
  it("puts every rendition in storage under its content-addressed key", async () => {
    const storage = localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-cover-")));
    const cover = await prepareCover(await carPicture(1920, 1080).webp().toBuffer());
    if (!cover.ok) throw new Error(cover.message);
    expect(await storeCover(storage, cover)).toEqual({ coverHash: cover.hash, coverColor: cover.color });
    for (const width of COVER_WIDTHS) {
      expect((await storage.get(coverKey(cover.hash, width, "avif")))?.contentType).toBe("image/avif");
      expect((await storage.get(coverKey(cover.hash, width, "webp")))?.contentType).toBe("image/webp");
    }
  });
});

describe("missingCoverRendition", () => {
  it("makes a width a cover was stored without from its largest WebP, once", async () => {
    const storage = localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-cover-")));
    const cover = await prepareCover(await carPicture(1920, 1080).webp().toBuffer());
    if (!cover.ok) throw new Error(cover.message);
    // As stored before 768 joined the widths.
    await storeCover(storage, { ...cover, files: cover.files.filter((file) => !file.key.includes("-768.")) });
    const key = coverKey(cover.hash, 768, "avif");
    expect(await storage.get(key)).toBeNull();

    const made = await missingCoverRendition(storage, key);
    expect(made?.contentType).toBe("image/avif");
    const meta = await sharp(made!.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["heif", 768, 432]);
    expect(Buffer.from((await storage.get(key))!.bytes).equals(Buffer.from(made!.bytes))).toBe(true);
  });

  it("makes nothing for a width covers do not have, another file or an unknown cover", async () => {
    const storage = localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-cover-")));
    const hash = "0123456789abcdef0123456789abcdef";
    expect(await missingCoverRendition(storage, coverKey(hash, 768, "webp"))).toBeNull();
    expect(await missingCoverRendition(storage, coverKey(hash, 700, "webp"))).toBeNull();
    expect(await missingCoverRendition(storage, `avatars/${hash}.webp`)).toBeNull();
  });
});
