import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isValidKey, localStorage } from "./storage.server";

describe("localStorage", () => {
  const storage = localStorage(mkdtempSync(path.join(tmpdir(), "pitlane-storage-")));

  it("stores, serves and deletes a file by its key", async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    await storage.put("avatars/abc123.webp", bytes, "image/webp");
    expect(storage.url("avatars/abc123.webp")).toBe("/media/avatars/abc123.webp");
    expect(await storage.get("avatars/abc123.webp")).toEqual({ bytes: Buffer.from(bytes), contentType: "image/webp" });
    await storage.delete("avatars/abc123.webp");
    expect(await storage.get("avatars/abc123.webp")).toBeNull();
    // Deleting a missing file is not an error.
    await storage.delete("avatars/abc123.webp");
  });

  it("refuses a content type that does not match the key", async () => {
    await expect(storage.put("avatars/x.webp", new Uint8Array([1]), "text/html")).rejects.toThrow();
  });

  it("accepts only plain keys: no parent directories, absolute paths or unknown types", async () => {
    for (const key of ["../secret.webp", "/etc/passwd", "avatars/../../x.webp", "a/b.html", "A/B.webp", ".webp"]) {
      expect(isValidKey(key), key).toBe(false);
      expect(await storage.get(key)).toBeNull();
    }
    expect(isValidKey("avatars/0f3a.avif")).toBe(true);
  });
});
