// What an uploaded file really is, read from its bytes, never from its name or the type the
// browser claims.

export type ImageKind = "jpeg" | "png" | "webp" | "heic";

// HEIF brands written by phones and cameras.
const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]);

const ascii = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));

/** The image kind the bytes really are, whatever name or type the browser gave the file. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes.length >= 8 && ascii(bytes, 0, 8) === "\x89PNG\r\n\x1a\n") return "png";
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return "webp";
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === "ftyp" && HEIF_BRANDS.has(ascii(bytes, 8, 12))) return "heic";
  return null;
}

/** Where the picture's own data ends, or "truncated" when the file stops before it does. */
function imageEnd(bytes: Uint8Array, kind: ImageKind): number | "truncated" {
  const n = bytes.length;
  if (kind === "jpeg") {
    let i = 2;
    while (i + 1 < n) {
      if (bytes[i] !== 0xff) return "truncated";
      const marker = bytes[i + 1]!;
      if (marker === 0xff) {
        i += 1;
        continue;
      }
      if (marker === 0xd9) return i + 2;
      if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        i += 2;
        continue;
      }
      if (i + 3 >= n) return "truncated";
      const length = (bytes[i + 2]! << 8) | bytes[i + 3]!;
      if (length < 2) return "truncated";
      i += 2 + length;
      if (marker === 0xda) {
        // Entropy-coded data: a 0xFF in it is followed by 0x00 or a restart marker.
        while (i + 1 < n) {
          const next = bytes[i + 1]!;
          if (bytes[i] === 0xff && next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) break;
          i += 1;
        }
        if (i + 1 >= n) return "truncated";
      }
    }
    return "truncated";
  }
  if (kind === "png") {
    let i = 8;
    while (i + 12 <= n) {
      const length = ((bytes[i]! << 24) >>> 0) + (bytes[i + 1]! << 16) + (bytes[i + 2]! << 8) + bytes[i + 3]!;
      const type = ascii(bytes, i + 4, i + 8);
      i += 12 + length;
      if (i > n) return "truncated";
      if (type === "IEND") return i;
    }
    return "truncated";
  }
  if (kind === "webp") {
    const size = bytes[4]! + (bytes[5]! << 8) + (bytes[6]! << 16) + ((bytes[7]! << 24) >>> 0);
    const end = 8 + size + (size % 2);
    return end > n ? "truncated" : end;
  }
  // HEIF: boxes to the end of the file; the decoder notices a file cut short.
  return n;
}

// Markup a browser would run, and archive or program headers: none belongs in a photo.
const MARKUP = [
  "<script",
  "<html",
  "<!doctype html",
  "<?php",
  "<body",
  "<iframe",
  "<svg",
  "<object",
  "<embed",
  "javascript:",
];
const TRAILING = [
  "PK\x03\x04",
  "PK\x01\x02",
  "PK\x05\x06",
  "Rar!\x1a\x07",
  "7z\xbc\xaf\x27\x1c",
  "%PDF-",
  "\x7fELF",
  "MZ\x90\x00",
];

export type Structure = "ok" | "truncated" | "hidden";

/**
 * Whether the file is one whole picture and nothing else: not cut short, and carrying no web
 * page, script or archive (a "polyglot" that is a picture to one program and something else to
 * another). Extra bytes a camera writes after the picture (a second, smaller JPEG) are allowed,
 * and left out of what is stored anyway.
 */
export function checkImageStructure(bytes: Uint8Array, kind: ImageKind): Structure {
  const end = imageEnd(bytes, kind);
  if (end === "truncated") return "truncated";
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const lower = text.toLowerCase();
  if (MARKUP.some((needle) => lower.includes(needle))) return "hidden";
  if (end < bytes.length) {
    const trailing = text.slice(end);
    if (TRAILING.some((needle) => trailing.includes(needle))) return "hidden";
  }
  return "ok";
}
