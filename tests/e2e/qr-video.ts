import { writeFileSync } from "node:fs";
import QRCode from "qrcode";

/**
 * A video file that shows `text` as a QR code, for Chromium's fake camera
 * (`--use-file-for-fake-video-capture`): YUV4MPEG2, 640×480, a few identical frames of dark
 * modules on white with the quiet zone around them, as a ticket held up to a phone would look.
 */
export function writeQrVideo(text: string, file: string) {
  const width = 640;
  const height = 480;
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const scale = Math.floor((height - 80) / (modules.size + 8));
  const side = modules.size * scale;
  const left = Math.floor((width - side) / 2);
  const top = Math.floor((height - side) / 2);
  const luma = Buffer.alloc(width * height, 235);
  for (let row = 0; row < modules.size; row++) {
    for (let column = 0; column < modules.size; column++) {
      if (!modules.get(row, column)) continue;
      for (let y = 0; y < scale; y++) {
        luma.fill(
          16,
          (top + row * scale + y) * width + left + column * scale,
          (top + row * scale + y) * width + left + (column + 1) * scale,
        );
      }
    }
  }
  // Grey has no colour: both chroma planes (a quarter of the pixels each, for 4:2:0) sit at 128.
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), luma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(file, Buffer.concat([header, ...Array.from({ length: 5 }, () => frame)]));
  return file;
}
