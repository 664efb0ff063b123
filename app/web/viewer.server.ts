import type { RouterContextProvider } from "react-router";
import type { Viewer } from "~/features/community/visibility.server";
import { userContext } from "~/server/context.server";
import type { Storage } from "~/server/storage/storage.server";

/** Who is looking, for the community's visibility rules: nobody, or the signed-in member and their role. */
export function viewerFrom(context: Readonly<RouterContextProvider>): Viewer {
  const user = context.get(userContext);
  return user ? { id: user.id, role: user.role } : null;
}

const PROBE = "cars/probe.webp";

/** Where car photos are served from: "/media/" locally, the bucket's public address with S3. */
export function mediaBaseOf(storage: Pick<Storage, "url">) {
  const url = storage.url(PROBE);
  return url.slice(0, url.length - PROBE.length);
}
