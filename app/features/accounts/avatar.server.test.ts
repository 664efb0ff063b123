import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { localStorage } from "~/server/storage/storage.server";
import { users } from "../../../db/schema";
import { prepareAvatar, removeAvatar, saveAvatar, sniffImage } from "./avatar.server";

const database = freshDatabasePerFile();
const storage = localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-avatars-")));

async function createMember(email: string) {
  const id = email.split("@")[0]!;
  await database().db.insert(users).values({ id, name: "Photo Member", email });
  return { id };
}

function photo(format: "jpeg" | "png" | "webp", width = 640, height = 480, background = "#d94f1e") {
  return sharp({ create: { width, height, channels: 3, background } })
    .toFormat(format)
    .toBuffer();
}

/** The EXIF GPS pointer tag (0x8825), in either byte order. */
function hasGpsTag(exif: Buffer | undefined) {
  return Boolean(exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]))));
}

/**
 * A PNG that says it is 15000 × 15000 pixels: a small real image whose header is rewritten, as a
 * "decompression bomb" would be (a few bytes on disk, 675 MB once decoded).
 */
async function hugePng() {
  const png = Buffer.from(await photo("png", 64, 64));
  // IHDR: length (4) "IHDR" (4) width (4) height (4) … CRC over type and data.
  png.writeUInt32BE(15_000, 16);
  png.writeUInt32BE(15_000, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

describe("sniffImage", () => {
  it("tells JPEG, PNG, WebP and HEIC apart by their first bytes", async () => {
    expect(sniffImage(await photo("jpeg"))).toBe("jpeg");
    expect(sniffImage(await photo("png"))).toBe("png");
    expect(sniffImage(await photo("webp"))).toBe("webp");
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypheic"), Buffer.alloc(16)]);
    expect(sniffImage(heic)).toBe("heic");
    expect(sniffImage(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffImage(Buffer.from("GIF89a"))).toBeNull();
  });
});

describe("prepareAvatar", () => {
  it("makes a 256 × 256 WebP and AVIF", async () => {
    const avatar = await prepareAvatar(await photo("png", 800, 500));
    if (!avatar.ok) throw new Error(avatar.message);
    for (const [bytes, format] of [
      [avatar.webp, "webp"],
      [avatar.avif, "heif"],
    ] as const) {
      const meta = await sharp(bytes).metadata();
      expect(meta).toMatchObject({ format, width: 256, height: 256 });
    }
    expect(avatar.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("strips EXIF, including the GPS location, from the stored files", async () => {
    const withLocation = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#223344" } })
      .withExif({
        IFD0: { Make: "PhoneCam", Model: "P1" },
        IFD3: {
          GPSLatitudeRef: "N",
          GPSLatitude: "51/1 30/1 1234/100",
          GPSLongitudeRef: "W",
          GPSLongitude: "0/1 7/1 39/1",
        },
      })
      .jpeg()
      .toBuffer();
    expect(hasGpsTag((await sharp(withLocation).metadata()).exif)).toBe(true);

    const avatar = await prepareAvatar(withLocation);
    if (!avatar.ok) throw new Error(avatar.message);
    for (const bytes of [avatar.webp, avatar.avif]) {
      const meta = await sharp(bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(bytes.includes(Buffer.from("PhoneCam"))).toBe(false);
    }
  });

  it("refuses a file that is not an image, whatever it is called", async () => {
    const text = new TextEncoder().encode("just some text pretending to be holiday.png");
    expect(await prepareAvatar(text)).toEqual({ ok: false, message: "Choose a JPEG, PNG, WebP or HEIC photo." });
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(await prepareAvatar(svg)).toMatchObject({ ok: false });
  });

  it("refuses a damaged image with a message, not an error", async () => {
    const truncated = (await photo("jpeg")).subarray(0, 200);
    expect(await prepareAvatar(truncated)).toEqual({
      ok: false,
      message: "This photo could not be read. It may be damaged: try another one.",
    });
  });

  it("refuses a 15000 × 15000 image before decoding it", async () => {
    const started = Date.now();
    const outcome = await prepareAvatar(await hugePng());
    expect(outcome).toEqual({
      ok: false,
      message: "This photo is too large (15000 × 15000 pixels). Choose one of at most 8000 × 8000 pixels.",
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("explains a HEIC photo it cannot decode", async () => {
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypheic"), Buffer.alloc(64)]);
    expect(await prepareAvatar(heic)).toEqual({
      ok: false,
      message: "This HEIC photo could not be read. Save it as a JPEG and choose it again.",
    });
  });
});

describe("saveAvatar and removeAvatar", () => {
  it("stores content-addressed files, replaces the previous photo and removes it", async () => {
    const { db } = database();
    const member = await createMember("avery@example.com");
    const imageOf = async () =>
      (await db.select({ image: users.image }).from(users).where(eq(users.id, member.id)))[0]?.image;

    const first = await prepareAvatar(await photo("jpeg"));
    if (!first.ok) throw new Error(first.message);
    const firstUrl = await saveAvatar(db, storage, member.id, first);
    expect(firstUrl).toBe(`/media/avatars/${first.hash}.webp`);
    expect(await imageOf()).toBe(firstUrl);
    expect(await storage.get(`avatars/${first.hash}.webp`)).toMatchObject({ contentType: "image/webp" });
    expect(await storage.get(`avatars/${first.hash}.avif`)).toMatchObject({ contentType: "image/avif" });

    const second = await prepareAvatar(await photo("png", 300, 300, "#1e6ad9"));
    if (!second.ok) throw new Error(second.message);
    await saveAvatar(db, storage, member.id, second);
    expect(await storage.get(`avatars/${first.hash}.webp`)).toBeNull();
    expect(await storage.get(`avatars/${first.hash}.avif`)).toBeNull();

    await removeAvatar(db, storage, member.id);
    expect(await imageOf()).toBeNull();
    expect(await storage.get(`avatars/${second.hash}.webp`)).toBeNull();
  });

  it("keeps files another member uses for the same picture", async () => {
    const { db } = database();
    const one = await createMember("same1@example.com");
    const two = await createMember("same2@example.com");
    const avatar = await prepareAvatar(await photo("webp"));
    if (!avatar.ok) throw new Error(avatar.message);
    await saveAvatar(db, storage, one.id, avatar);
    await saveAvatar(db, storage, two.id, avatar);

    await removeAvatar(db, storage, one.id);
    expect(await storage.get(`avatars/${avatar.hash}.webp`)).not.toBeNull();
  });
});
