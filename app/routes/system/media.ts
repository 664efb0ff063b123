import { carPhotoAudience } from "~/features/community/photo-audience.server";
import { missingCoverRendition } from "~/features/events/cover.server";
import { carPhotoHashOf } from "~/features/media/car-photo-urls";
import { runtimeContext, userContext } from "~/server/context.server";
import { cacheControlOf, isPrivateKey, isValidKey, MEDIA_PATH } from "~/server/storage/storage.server";
import type { Route } from "./+types/media";

const notFound = () =>
  new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });

/**
 * Uploaded files (avatars, covers, photos). Keys are content hashes, so a file never changes:
 * most are cached for a year. A car photo is served only to those who may see it now (hidden,
 * private, blurred again or removed: 404), kept five minutes and revalidated by its ETag, and
 * never by a shared cache when only this viewer may see it. Private originals are never served.
 * With S3 the pages link to the bucket, and an older /media/ address (an avatar saved before the
 * move, a link in an email) is sent there; car photos are kept outside the bucket's public part
 * and always served from here, so hiding one leaves no address that still shows it.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const runtime = context.get(runtimeContext);
  const { storage } = runtime;
  const key = params["*"] ?? "";
  if (!isValidKey(key) || isPrivateKey(key)) return notFound();
  let cacheControl = cacheControlOf(key);
  let etag: string | null = null;
  const photoHash = carPhotoHashOf(key);
  if (photoHash) {
    const user = context.get(userContext);
    const audience = await carPhotoAudience(runtime.db, user && { id: user.id, role: user.role }, photoHash);
    if (!audience) return notFound();
    if (audience === "viewer") cacheControl = "private, no-cache";
    etag = `"${key.slice(key.indexOf("/") + 1)}"`;
  }
  if (storage.publicBase !== MEDIA_PATH && !photoHash) {
    return new Response(null, {
      status: 301,
      headers: { Location: storage.url(key), "Cache-Control": "public, max-age=86400" },
    });
  }
  const headers: Record<string, string> = { "Cache-Control": cacheControl, "X-Content-Type-Options": "nosniff" };
  if (etag) {
    headers.ETag = etag;
    if (
      request.headers
        .get("If-None-Match")
        ?.split(",")
        .some((tag) => tag.trim() === etag)
    ) {
      return new Response(null, { status: 304, headers });
    }
  }
  const file = (await storage.get(key)) ?? (await missingCoverRendition(storage, key));
  if (!file) return notFound();
  return new Response(new Uint8Array(file.bytes), {
    headers: { ...headers, "Content-Type": file.contentType, "Content-Length": String(file.bytes.byteLength) },
  });
}
