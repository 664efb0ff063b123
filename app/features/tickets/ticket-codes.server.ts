import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
  sign,
  timingSafeEqual,
  verify,
} from "node:crypto";
import { base32, CODE_PATTERN, fromBase32, HMAC_SIGNATURE_LENGTH, splitSignedCode } from "./code-format";

export { formatTicketCode, normaliseTicketCode, TICKET_CODE_LENGTH } from "./code-format";

/**
 * Ticket codes (each ticket's QR carries a signed code that check-in
 * verifies). A code is 128 random bits in Crockford base32: 26 characters from an alphabet with
 * no I, L, O or U, so it survives being read aloud or typed at the gate. The QR carries the code
 * and an Ed25519 signature of it, so a scanner refuses a made-up or altered QR before it looks
 * anything up, and a device holding only the public key can do the same with no server
 * (docs/gate.md, "Signed codes"). Codes shown before signatures were Ed25519 carry an HMAC of the
 * code instead, which the server still accepts. Upper-case letters, digits and "." keep the QR
 * in its compact alphanumeric mode.
 */

/** A new ticket code: 128 bits from the system's secure random source. */
export function newTicketCode() {
  return base32(randomBytes(16));
}

/**
 * The HMAC key of the codes issued before Ed25519, derived from AUTH_SECRET, so a value signed for
 * one purpose (a session cookie) can never pass as another (a ticket).
 */
function ticketKey(secret: string) {
  return createHmac("sha256", secret).update("pitlane ticket codes v1").digest();
}

function hmacSignatureOf(code: string, secret: string) {
  return base32(createHmac("sha256", ticketKey(secret)).update(code).digest().subarray(0, 16));
}

/** An Ed25519 private key in PKCS #8 DER is this prefix and its 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

const keyPairs = new Map<string, { privateKey: KeyObject; publicKey: KeyObject }>();

/**
 * The Ed25519 key pair codes are signed with, derived from AUTH_SECRET by HKDF with a label of its
 * own: every server of a site signs alike with nothing more to configure, and the public half can
 * go to the scanners. Derived once per secret.
 */
function codeKeyPair(secret: string) {
  let pair = keyPairs.get(secret);
  if (!pair) {
    const seed = Buffer.from(hkdfSync("sha256", secret, "pitlane", "ticket codes ed25519 v1", 32));
    const privateKey = createPrivateKey({
      key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
      format: "der",
      type: "pkcs8",
    });
    pair = { privateKey, publicKey: createPublicKey(privateKey) };
    keyPairs.set(secret, pair);
  }
  return pair;
}

/** The public key scanners check codes with, as SPKI PEM (for OpenSSL and WebCrypto alike). */
export function ticketPublicKeyPem(secret: string) {
  return codeKeyPair(secret).publicKey.export({ type: "spki", format: "pem" }).toString();
}

/** What the ticket's QR code holds: "<code>.<Ed25519 signature of the code, in base32>". */
export function signTicketCode(code: string, secret: string) {
  if (!CODE_PATTERN.test(code)) throw new Error("Not a ticket code");
  return `${code}.${base32(sign(null, Buffer.from(code), codeKeyPair(secret).privateKey))}`;
}

/**
 * The code inside a scanned QR when its signature is right, else null: an Ed25519 signature, or
 * the HMAC of a code shown before those. An HMAC is compared in the same time however many
 * characters match, so timing reveals nothing about it; a signature must be in its one canonical
 * spelling, so an altered QR never passes as the same one.
 */
export function verifySignedTicketCode(scanned: string, secret: string): string | null {
  const signed = splitSignedCode(scanned);
  if (!signed) return null;
  const { code, signature } = signed;
  if (signature.length === HMAC_SIGNATURE_LENGTH) {
    const expected = Buffer.from(hmacSignatureOf(code, secret));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given) ? code : null;
  }
  const bytes = Buffer.from(fromBase32(signature));
  if (bytes.length !== 64 || base32(bytes) !== signature) return null;
  return verify(null, Buffer.from(code), codeKeyPair(secret).publicKey, bytes) ? code : null;
}
