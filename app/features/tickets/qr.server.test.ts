import jsQR from "jsqr";
import QRCode from "qrcode";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { qrPng } from "./qr.server";

async function pixelsOf(png: Buffer) {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

describe("the QR code PNG for emails", () => {
  const payloads = ["A", "T1ABCDEFGHJKMNPQRSTV.WXYZ234567ABCDEFGHJKMN", "x".repeat(120)];

  it("draws the same pixels as the library's own renderer, at the email's size and others", async () => {
    for (const payload of payloads) {
      for (const width of [264, 100, 20]) {
        const ours = await pixelsOf(qrPng(payload, width));
        const library = await pixelsOf(
          await QRCode.toBuffer(payload, { errorCorrectionLevel: "M", margin: 4, width, type: "png" }),
        );
        expect([ours.width, ours.height]).toEqual([library.width, library.height]);
        expect(ours.data.equals(library.data)).toBe(true);
      }
    }
  });

  it("scans back to its payload, is one bit a pixel and stays about a kilobyte", async () => {
    const payload = payloads[1]!;
    const png = qrPng(payload);
    expect(png.subarray(1, 4).toString("ascii")).toBe("PNG");
    const meta = await sharp(png).metadata();
    expect(meta).toMatchObject({ width: 264, height: 264, format: "png", channels: 1 });
    expect(png.length).toBeLessThan(1500);
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const read = jsQR(new Uint8ClampedArray(data), info.width, info.height);
    expect(read?.data).toBe(payload);
  });
});
