import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  formatTicketCode,
  newTicketCode,
  normaliseTicketCode,
  signTicketCode,
  TICKET_CODE_LENGTH,
  ticketPublicKeyPem,
  verifySignedTicketCode,
} from "./ticket-codes.server";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** Base32 decoding written out again here, so the test does not lean on the code under test. */
function decodeBase32(text: string) {
  let bits = "";
  for (const char of text) bits += CROCKFORD.indexOf(char).toString(2).padStart(5, "0");
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => Number.parseInt(byte, 2)));
}

/** A QR as codes were signed before Ed25519: the code and 128 bits of an HMAC, in base32. */
function hmacSigned(code: string, secret: string) {
  const key = createHmac("sha256", secret).update("pitlane ticket codes v1").digest();
  const mac = createHmac("sha256", key).update(code).digest().subarray(0, 16);
  let bits = "";
  for (const byte of mac) bits += byte.toString(2).padStart(8, "0");
  bits = bits.padEnd(130, "0");
  return `${code}.${(bits.match(/.{5}/g) ?? []).map((chunk) => CROCKFORD[Number.parseInt(chunk, 2)]).join("")}`;
}

const secret = "test-secret-test-secret-test-secret-0123";

describe("ticket codes", () => {
  it("are 26 Crockford base32 characters carrying 128 random bits", () => {
    const codes = new Set(Array.from({ length: 2000 }, () => newTicketCode()));
    expect(codes.size).toBe(2000);
    for (const code of codes) {
      expect(code).toHaveLength(TICKET_CODE_LENGTH);
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]+$/);
    }
    // Every character position varies (the last one carries 3 bits, so 8 values).
    const firstChars = new Set([...codes].map((code) => code[0]));
    const lastChars = new Set([...codes].map((code) => code[TICKET_CODE_LENGTH - 1]));
    expect(firstChars.size).toBeGreaterThan(25);
    expect(lastChars.size).toBe(8);
  });

  it("signs a code so the scanner gets it back", () => {
    const code = newTicketCode();
    const signed = signTicketCode(code, secret);
    expect(signed).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}\.[0-9A-HJKMNP-TV-Z]{103}$/);
    expect(verifySignedTicketCode(signed, secret)).toBe(code);
    // Scanners may hand the text back in lower case or with a trailing newline.
    expect(verifySignedTicketCode(`${signed.toLowerCase()}\n`, secret)).toBe(code);
  });

  it("refuses a QR whose code or signature was changed, or that was signed with another secret", () => {
    const code = newTicketCode();
    const signed = signTicketCode(code, secret);
    const [, signature] = signed.split(".") as [string, string];
    const otherCode = code.slice(0, -2) + (code.endsWith("00") ? "44" : "00");
    expect(verifySignedTicketCode(`${otherCode}.${signature}`, secret)).toBeNull();
    const flipped = signature[0] === "A" ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    expect(verifySignedTicketCode(`${code}.${flipped}`, secret)).toBeNull();
    expect(verifySignedTicketCode(signTicketCode(code, "another-secret-another-secret-0123456"), secret)).toBeNull();
    expect(verifySignedTicketCode(code, secret)).toBeNull();
    expect(verifySignedTicketCode(`${code}.`, secret)).toBeNull();
    expect(verifySignedTicketCode(`${code}.${signature}X`, secret)).toBeNull();
    expect(verifySignedTicketCode("", secret)).toBeNull();
    expect(verifySignedTicketCode("https://evil.example/?t=1", secret)).toBeNull();
  });

  it("signs with Ed25519, which OpenSSL verifies with the public key alone", () => {
    const code = newTicketCode();
    const [, signature] = signTicketCode(code, secret).split(".") as [string, string];
    const dir = mkdtempSync(path.join(tmpdir(), "ticket-code-"));
    const file = (name: string, content: string | Buffer) => {
      writeFileSync(path.join(dir, name), content);
      return path.join(dir, name);
    };
    const publicKey = file("public.pem", ticketPublicKeyPem(secret));
    expect(execFileSync("openssl", ["pkey", "-pubin", "-in", publicKey, "-noout", "-text"]).toString()).toMatch(
      /ED25519 Public-Key/,
    );
    const opensslVerify = (message: string, sig: Buffer) =>
      execFileSync(
        "openssl",
        [
          "pkeyutl",
          "-verify",
          "-pubin",
          "-inkey",
          publicKey,
          "-rawin",
          "-in",
          file("msg", message),
          "-sigfile",
          file("sig", sig),
        ],
        { stdio: ["ignore", "pipe", "ignore"] },
      ).toString();
    expect(opensslVerify(code, decodeBase32(signature))).toMatch(/Signature Verified Successfully/);
    expect(() => opensslVerify(newTicketCode(), decodeBase32(signature))).toThrow();
    // The public key is the same for the same secret, and differs for another.
    expect(ticketPublicKeyPem(secret)).toBe(ticketPublicKeyPem(secret));
    expect(ticketPublicKeyPem("another-secret-another-secret-0123456")).not.toBe(ticketPublicKeyPem(secret));
  });

  it("still admits codes shown before Ed25519, signed with the HMAC key", () => {
    const code = newTicketCode();
    const old = hmacSigned(code, secret);
    expect(old).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}\.[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(verifySignedTicketCode(old, secret)).toBe(code);
    expect(verifySignedTicketCode(hmacSigned(code, "another-secret-another-secret-0123456"), secret)).toBeNull();
  });

  it("refuses a signature spelled other than its one canonical way", () => {
    const code = newTicketCode();
    const signed = signTicketCode(code, secret);
    // The last character carries 2 bits of the signature and 3 of padding: changing only padding
    // would decode to the same bytes, and must still be refused.
    const last = signed.at(-1)!;
    const index = CROCKFORD.indexOf(last);
    const padded = `${signed.slice(0, -1)}${CROCKFORD[index ^ 1]}`;
    expect(decodeBase32(padded.split(".")[1]!)).toEqual(decodeBase32(signed.split(".")[1]!));
    expect(verifySignedTicketCode(padded, secret)).toBeNull();
  });

  it("refuses to sign something that is not a ticket code", () => {
    expect(() => signTicketCode("not a code", secret)).toThrow();
  });

  it("reads a code typed by hand, forgiving case, spaces and look-alike letters", () => {
    const code = "7KQ2M9XD0A1BCDEFGHJKMNPQR0";
    expect(normaliseTicketCode(formatTicketCode(code))).toBe(code);
    expect(normaliseTicketCode("7kq2-m9xd-oaib-cdef-ghjk-mnpq-rO")).toBe(code);
    expect(normaliseTicketCode("7kq2 m9xd")).toBeNull();
    expect(normaliseTicketCode(`${code}U`)).toBeNull();
    expect(formatTicketCode(code)).toBe("7KQ2 M9XD 0A1B CDEF GHJK MNPQ R0");
  });
});
