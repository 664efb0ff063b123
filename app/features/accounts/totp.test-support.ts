import { createHmac } from "node:crypto";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32Bytes(text: string) {
  let bits = "";
  for (const char of text.replace(/=+$/, "").toUpperCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, "0");
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => Number.parseInt(byte, 2)));
}

/**
 * The code an authenticator app shows for an `otpauth://` address or its base32 key (RFC 6238:
 * HMAC-SHA1, 30-second steps, six digits), as a phone would compute it, for tests.
 */
export function authenticatorCode(uriOrKey: string, at = Date.now()) {
  const key = uriOrKey.startsWith("otpauth:") ? (new URL(uriOrKey).searchParams.get("secret") ?? "") : uriOrKey;
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const digest = createHmac("sha1", base32Bytes(key.replace(/\s/g, "")))
    .update(counter)
    .digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const value = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 1_000_000).padStart(6, "0");
}
