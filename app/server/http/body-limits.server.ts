import type { NextFunction, Request, Response } from "express";
import { SAFE_METHODS } from "./safe-methods.server";

// How large a request's body may be, checked on its declared length before the app reads a
// byte: `BODY_LIMIT` for forms, a larger limit for the forms that send files. Without it anyone
// could make the server read gigabytes.

/** `BODY_LIMIT` as bytes: `512kb`, `1mb`, `2048` (bytes); 1 MB when it cannot be read. */
export function parseSize(size: string) {
  const match = /^(\d+)(b|kb|mb)?$/i.exec(size.trim());
  if (!match) return 1024 * 1024;
  const unit = (match[2] ?? "b").toLowerCase();
  return Number(match[1]) * (unit === "mb" ? 1024 * 1024 : unit === "kb" ? 1024 : 1);
}

/**
 * Forms that send files, and the larger limit they get: an avatar (5 MB), an event cover (15 MB),
 * a members' CSV to import (1 MB), each checked again by its page.
 */
const UPLOAD_PATHS = new Set(["/settings", "/newProfile", "/admin/membership/import"]);
const UPLOAD_PATTERNS = [
  /^\/admin\/events\/[^/]+\/cover$/,
  /^\/admin\/articles\/[^/]+$/,
  /^\/admin\/draws\/[^/]+\/images$/,
  /^\/admin\/shop\/[^/]+\/images$/,
  /^\/members\/garage\/[^/]+\/photos$/,
];
export const UPLOAD_LIMIT = 16 * 1024 * 1024;
/**
 * A refused body up to this size is read to its end before the refusal goes out, so the visitor
 * sees the 413 page; a larger one is cut off, so nobody can make the server read gigabytes.
 */
export const DRAIN_LIMIT = 2 * UPLOAD_LIMIT;

function isUploadPath(path: string) {
  return UPLOAD_PATHS.has(path) || UPLOAD_PATTERNS.some((pattern) => pattern.test(path));
}

/** Refuses bodies over the limit before the app reads them. Upload routes set their own, larger limit. */
export function bodyLimit(limit: string, uploadLimit: number) {
  const defaultMax = parseSize(limit);
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    // A page's form posts to the page, or to its `.data` twin when sent by the router.
    const max = isUploadPath(req.path.replace(/\.data$/, "")) ? Math.max(uploadLimit, defaultMax) : defaultMax;
    const declared = req.headers["content-length"];
    if (declared === undefined) {
      if (req.headers["transfer-encoding"]) return void res.status(411).type("text/plain").send("Length required");
      return next();
    }
    if (Number(declared) > max) {
      // Sent once the body has been read (answerAfterBody): the connection can then close cleanly.
      res.setHeader("Connection", "close");
      return void res.status(413).type("text/plain").send("Payload too large");
    }
    next();
  };
}
