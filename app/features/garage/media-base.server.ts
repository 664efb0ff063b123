import type { Storage } from "~/server/storage/storage.server";

const PROBE = "cars/probe.webp";

/** The address car photos are served from ("/media/" locally, the bucket's address with S3). */
export function mediaBaseOf(storage: Storage) {
  const url = storage.url(PROBE);
  return url.slice(0, url.length - PROBE.length);
}
