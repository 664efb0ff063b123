import { crc32, deflateSync } from "node:zlib";
import QRCode from "qrcode";

/**
 * Ticket QR codes. Error correction M survives a scuffed print or a
 * cracked phone screen while keeping the code small; the four-module quiet zone is what scanners
 * need to find it; dark modules on white in every theme, because many scanners cannot read an
 * inverted code. The payload is only ever a signed ticket code (base32 and a dot), never text a
 * person typed, so the markup the library draws from it is safe to put in a page.
 * `QR_ERROR_CORRECTION` is exported for the QR benchmark, which draws codes as emails do.
 */
export const QR_ERROR_CORRECTION = "M";

const OPTIONS = {
  errorCorrectionLevel: QR_ERROR_CORRECTION,
  margin: 4,
  color: { dark: "#000000ff", light: "#ffffffff" },
} as const;

/** An SVG element for pages: scales to any size and stays sharp when printed. */
export async function qrSvg(payload: string): Promise<string> {
  const svg = await QRCode.toString(payload, { ...OPTIONS, type: "svg" });
  // The library draws no size; the page sizes it through CSS, and it is a picture, not text.
  return svg.replace("<svg ", '<svg width="100%" height="100%" aria-hidden="true" focusable="false" ');
}

/**
 * A PNG for emails, where SVG is not shown by most mail clients: black and white at one bit a
 * pixel, `width` pixels square (the code's modules scaled as the library scales them for its own
 * pictures, quiet zone included), compressed by zlib. About 1 kB, and a small fraction of the CPU
 * of the library's PNG renderer, which draws RGBA pixels and filters them in JavaScript. The
 * confirmation email draws one per ticket while a rush of orders is being paid.
 */
export function qrPng(payload: string, width = 264): Buffer {
  const { modules } = QRCode.create(payload, { errorCorrectionLevel: OPTIONS.errorCorrectionLevel });
  const size = modules.size;
  const span = size + OPTIONS.margin * 2;
  // As the library does: a width too small for one pixel a module falls back to its scale of 4.
  const scale = width >= span ? width / span : 4;
  const side = Math.floor(span * scale);
  const margin = OPTIONS.margin * scale;
  const rowBytes = 1 + Math.ceil(side / 8);
  // The module under each pixel column (-1 in the quiet zone), and each row drawn once per module row.
  const columns = Array.from({ length: side }, (_, x) =>
    x >= margin && x < side - margin ? Math.floor((x - margin) / scale) : -1,
  );
  const blank = Buffer.alloc(rowBytes, 0xff);
  blank[0] = 0; // filter byte: none
  const pixels = Buffer.alloc(rowBytes * side);
  let drawn = -1;
  let line = blank;
  for (let y = 0; y < side; y++) {
    const moduleRow = y >= margin && y < side - margin ? Math.floor((y - margin) / scale) : -1;
    if (moduleRow !== drawn) {
      drawn = moduleRow;
      line = Buffer.from(blank);
      // Pixels are one bit each, most significant first, 1 for white: dark modules clear theirs.
      if (moduleRow >= 0) {
        for (let x = 0; x < side; x++) {
          const column = columns[x]!;
          if (column >= 0 && modules.data[moduleRow * size + column]) line[1 + (x >> 3)]! &= ~(0x80 >> (x & 7));
        }
      }
    }
    line.copy(pixels, y * rowBytes);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, filter method 0, no interlace
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(pixels, { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer) {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, "ascii");
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}

/** Tickets with the SVG of their QR code, for pages; a ticket that admits no one gets none. */
export function withQrSvgs<T extends { qrPayload: string | null }>(tickets: T[]) {
  return Promise.all(
    tickets.map(async (ticket) => ({ ...ticket, qrSvg: ticket.qrPayload ? await qrSvg(ticket.qrPayload) : null })),
  );
}
