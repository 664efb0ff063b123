import { describe, expect, it } from "vitest";
import {
  formatTicketCode,
  newTicketCode,
  normaliseTicketCode,
  signTicketCode,
  TICKET_CODE_LENGTH,
  verifySignedTicketCode,
} from "./ticket-codes.server";

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
    expect(signed).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}\.[0-9A-HJKMNP-TV-Z]{26}$/);
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
