import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { s3SettingsOf } from "../storage/s3.server";

/**
 * The headers every answer carries, so a browser runs only this site's own scripts and never
 * frames it: CSP with a fresh nonce per response (React Router's inline scripts carry it),
 * framing forbidden, HSTS when served over HTTPS, and the usual hardening headers. Google's map
 * hosts are allowed only when a Maps key is configured (Places autocomplete on the event forms,
 * maps on event pages); the API's own scripts load through 'strict-dynamic' from the nonced bundle.
 */
export function securityHeaders(https: boolean, maps: boolean, media: string | null) {
  const mapsHosts = (...hosts: string[]) => (maps ? ` ${hosts.join(" ")}` : "");
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.nonce = nonce;
    const csp = [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${mapsHosts("https://maps.googleapis.com")}`,
      `style-src 'self' 'nonce-${nonce}'${mapsHosts("https://fonts.googleapis.com")}`,
      "style-src-attr 'unsafe-inline'",
      `img-src 'self' data: blob:${media ? ` ${media}` : ""}${mapsHosts("https://*.googleapis.com", "https://*.gstatic.com", "https://*.google.com", "https://*.googleusercontent.com")}`,
      `font-src 'self'${mapsHosts("https://fonts.gstatic.com")}`,
      `connect-src 'self'${mapsHosts("https://*.googleapis.com", "https://*.google.com", "https://*.gstatic.com")}`,
      // Event pages embed Google's map only when a Maps key is configured.
      `frame-src 'self'${mapsHosts("https://www.google.com")} https://checkout.stripe.com`,
      "worker-src 'self'",
      "manifest-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self' https://checkout.stripe.com",
      "frame-ancestors 'none'",
      ...(https ? ["upgrade-insecure-requests"] : []),
    ].join("; ");
    res.setHeader("Content-Security-Policy", csp);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader(
      "Permissions-Policy",
      "camera=(self), geolocation=(self), microphone=(), payment=(self), usb=(), interest-cohort=()",
    );
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
    if (https) res.setHeader("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
    next();
  };
}

/** With media in an S3 bucket, pages load images from its public address (docs/media.md). */
export function mediaOrigin(env: Parameters<typeof s3SettingsOf>[0]) {
  const s3 = s3SettingsOf(env);
  return s3 ? new URL(s3.publicUrl).origin : null;
}
