import { describe, expect, it } from "vitest";
import { documentCacheControl, PUBLIC_PAGE_CACHE } from "./cache.server";

describe("documentCacheControl", () => {
  it("keeps a public page's HTML, which carries its own CSP nonce, out of shared caches", () => {
    expect(documentCacheControl(PUBLIC_PAGE_CACHE)).toBe("private, no-cache");
    expect(documentCacheControl("public, max-age=3600")).toBe("private, no-cache");
    expect(documentCacheControl(null)).toBe("private, no-cache");
  });

  it("leaves a page that is already private or never stored as it is", () => {
    expect(documentCacheControl("private, no-store")).toBe("private, no-store");
    expect(documentCacheControl("no-store")).toBe("no-store");
  });
});
