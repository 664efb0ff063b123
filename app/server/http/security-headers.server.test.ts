import { describe, expect, it } from "vitest";
import { securityHeaders } from "./security-headers.server";

/** The Content-Security-Policy a response gets, with or without a Maps key configured. */
function policy(maps: boolean) {
  const headers = new Map<string, string>();
  const res = { locals: {}, setHeader: (name: string, value: string) => headers.set(name, value) };
  securityHeaders(false, maps, null)({} as never, res as never, () => undefined);
  return headers.get("Content-Security-Policy")!;
}

const directive = (csp: string, name: string) => csp.split("; ").find((part) => part.startsWith(`${name} `)) ?? "";

describe("the cart's Places autocomplete and the Content-Security-Policy", () => {
  it("lets Google's Maps script and its requests through only when a Maps key is set", () => {
    const without = policy(false);
    expect(without).not.toContain("googleapis.com");
    expect(directive(without, "script-src")).not.toContain("maps.googleapis.com");

    const withKey = policy(true);
    expect(directive(withKey, "script-src")).toContain("https://maps.googleapis.com");
    expect(directive(withKey, "connect-src")).toContain("https://*.googleapis.com");
    // Everything else stays as strict: no inline script without the nonce.
    expect(directive(withKey, "script-src")).not.toContain("'unsafe-inline'");
  });
});
