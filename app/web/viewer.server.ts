import type { RouterContextProvider } from "react-router";
import type { Viewer } from "~/features/community/visibility.server";
import { userContext } from "~/server/context.server";

/** Who is looking, for the community's visibility rules: nobody, or the signed-in member and their role. */
export function viewerFrom(context: Readonly<RouterContextProvider>): Viewer {
  const user = context.get(userContext);
  return user ? { id: user.id, role: user.role } : null;
}
