/**
 * How ticket codes are written (docs/gate.md, "Signed codes"), with no server code, so the gate's
 * device reads codes exactly as the server does: 26 characters of Crockford base32 (no I, L, O or
 * U), and in a QR the code, a dot and its signature in the same alphabet — 103 characters of
 * Ed25519, or 26 of the HMAC codes carried before those.
 */

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** Characters in a ticket code. */
export const TICKET_CODE_LENGTH = 26;
export const CODE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;
/** Characters of an HMAC signature (codes shown before Ed25519) and of an Ed25519 one. */
export const HMAC_SIGNATURE_LENGTH = 26;
const SIGNED_PATTERN = /^([0-9A-HJKMNP-TV-Z]{26})\.([0-9A-HJKMNP-TV-Z]{26}|[0-9A-HJKMNP-TV-Z]{103})$/;

/** Bytes in Crockford base32, most significant bit first; the last character is padded with zeros. */
export function base32(bytes: Uint8Array) {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** The bytes of a base32 string (whole bytes only; a trailing partial byte is dropped). */
export function fromBase32(text: string) {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text) {
    value = ((value << 5) | ALPHABET.indexOf(char)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return new Uint8Array(bytes);
}

/** A scanned QR's code and signature (any case, a trailing newline forgiven); null when it is not one. */
export function splitSignedCode(scanned: string): { code: string; signature: string } | null {
  const match = SIGNED_PATTERN.exec(scanned.trim().toUpperCase());
  return match ? { code: match[1]!, signature: match[2]! } : null;
}

/**
 * A code typed by hand at the gate: case, spaces and dashes do not matter, and the letters that
 * look like digits (O, I, L) are read as the digits, as Crockford base32 intends.
 */
export function normaliseTicketCode(typed: string): string | null {
  const cleaned = typed.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  return CODE_PATTERN.test(cleaned) ? cleaned : null;
}

/** The code in groups of four for printing under the QR: "7KQ2 M9XD …". */
export function formatTicketCode(code: string) {
  return (code.match(/.{1,4}/g) ?? []).join(" ");
}
