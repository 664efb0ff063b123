import { missingCoverRendition } from "~/features/events/cover.server";
import { runtimeContext } from "~/server/context.server";
import { isPrivateKey, isValidKey, MEDIA_PATH } from "~/server/storage/storage.server";
import type { Route } from "./+types/media";

const notFound = () =>
  new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });

/**
 * Uploaded files (avatars, covers, photos). Keys are content hashes, so a file never changes:
 * cache it for a year. Private originals are never served. With S3 the pages link to the bucket;
 * an older /media/ address (an avatar saved before the move, a link in an email) is sent there.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { storage } = context.get(runtimeContext);
  const key = params["*"] ?? "";
  if (!isValidKey(key) || isPrivateKey(key)) return notFound();
  if (storage.publicBase !== MEDIA_PATH) {
    return new Response(null, {
      status: 301,
      headers: { Location: storage.url(key), "Cache-Control": "public, max-age=86400" },
    });
  }
  const file = (await storage.get(key)) ?? (await missingCoverRendition(storage, key));
  if (!file) return notFound();
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.bytes.byteLength),
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
