import { missingCoverRendition } from "~/features/events/cover.server";
import { runtimeContext } from "~/server/context.server";
import type { Route } from "./+types/media";

/** Uploaded files (avatars, photos). Keys are content hashes, so a file never changes: cache it for a year. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { storage } = context.get(runtimeContext);
  const key = params["*"] ?? "";
  const file = (await storage.get(key)) ?? (await missingCoverRendition(storage, key));
  if (!file) {
    return new Response("Not found", {
      status: 404,
      headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" },
    });
  }
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.bytes.byteLength),
      "Cache-Control": "public, max-age=31536000, immutable",
    },
  });
}
