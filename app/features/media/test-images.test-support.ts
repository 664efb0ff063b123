import { deflateSync } from "node:zlib";
import sharp from "sharp";

/**
 * A photo-like picture: a gradient with a light "number plate" holding dark characters in its
 * lower middle (x 0.35–0.65, y 0.7–0.8), so blur and orientation can be checked on the pixels.
 */
export function carPicture(width = 1600, height = 1200) {
  const plate = { x: width * 0.35, y: height * 0.7, w: width * 0.3, h: height * 0.1 };
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#2a5bd7"/><stop offset="1" stop-color="#17191c"/></linearGradient></defs><rect width="${width}" height="${height}" fill="url(#g)"/><rect x="${plate.x}" y="${plate.y}" width="${plate.w}" height="${plate.h}" fill="#f5d90a"/><text x="${plate.x + plate.w / 2}" y="${plate.y + plate.h * 0.78}" font-size="${plate.h * 0.8}" font-family="sans-serif" font-weight="bold" text-anchor="middle" fill="#000">AB12 CDE</text></svg>`;
  return sharp(Buffer.from(svg));
}

/** Where carPicture's plate is, as a blur region. */
export const PLATE = { x: 0.35, y: 0.7, w: 0.3, h: 0.1 };

/** A phone photo as it comes off the camera: EXIF with the camera, the time and where it was taken. */
export const photoWithGps = (width = 1600, height = 1200) =>
  carPicture(width, height)
    .jpeg({ quality: 85 })
    .withExif({
      IFD0: { Make: "PhoneCo", Model: "Snap 9", Software: "Camera 4.2" },
      IFD2: { DateTimeOriginal: "2027:06:12 09:41:00" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "52/1 4/1 2388/100",
        GPSLongitudeRef: "W",
        GPSLongitude: "1/1 0/1 5292/100",
      },
    })
    .toBuffer();

function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * A real, valid PNG of `side` × `side` black pixels (1 bit each): a few hundred kilobytes on
 * disk, billions of bytes once decoded — a "decompression bomb".
 */
export function hugePng(side = 14000) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([1, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc(side * (1 + Math.ceil(side / 8)));
  return Buffer.concat([
    Buffer.from("\x89PNG\r\n\x1a\n", "latin1"),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(rows, { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A minimal ZIP archive holding one small file: what a polyglot hides after a picture. */
export function zipArchive() {
  const name = Buffer.from("payload.html", "latin1");
  const content = Buffer.from("<p>hello</p>", "latin1");
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc32(content), 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(name.length, 26);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  return Buffer.concat([local, name, content, end]);
}
