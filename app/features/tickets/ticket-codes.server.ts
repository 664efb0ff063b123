import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Ticket codes (each ticket's QR carries a signed code that check-in
 * verifies). A code is 128 random bits in Crockford base32: 26 characters from an alphabet with
 * no I, L, O or U, so it survives being read aloud or typed at the gate. The QR carries the code
 * and an HMAC of it, so a scanner refuses a made-up or altered QR before it looks anything up.
 * Upper-case letters, digits and "." keep the QR in its compact alphanumeric mode.
 */

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** Characters in a ticket code. */
export const TICKET_CODE_LENGTH = 26;
const CODE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const SIGNED_PATTERN = /^([0-9A-HJKMNP-TV-Z]{26})\.([0-9A-HJKMNP-TV-Z]{26})$/;

function base32(bytes: Uint8Array) {
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

/** A new ticket code: 128 bits from the system's secure random source. */
export function newTicketCode() {
  return base32(randomBytes(16));
}

/**
 * Ticket signatures use their own key derived from AUTH_SECRET, so a value signed for one purpose
 * (a session cookie) can never pass as another (a ticket).
 */
function ticketKey(secret: string) {
  return createHmac("sha256", secret).update("pitlane ticket codes v1").digest();
}

function signatureOf(code: string, secret: string) {
  return base32(createHmac("sha256", ticketKey(secret)).update(code).digest().subarray(0, 16));
}

/** What the ticket's QR code holds: "<code>.<signature>". */
export function signTicketCode(code: string, secret: string) {
  if (!CODE_PATTERN.test(code)) throw new Error("Not a ticket code");
  return `${code}.${signatureOf(code, secret)}`;
}

/**
 * The code inside a scanned QR when its signature is right, else null. Comparison takes the
 * same time however many characters match, so timing reveals nothing about the signature.
 */
export function verifySignedTicketCode(scanned: string, secret: string): string | null {
  const match = SIGNED_PATTERN.exec(scanned.trim().toUpperCase());
  if (!match) return null;
  const [, code, signature] = match as unknown as [string, string, string];
  const expected = Buffer.from(signatureOf(code, secret));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? code : null;
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
