import { data } from "react-router";
import { runtimeContext } from "./context.server";
import type { RouteStep } from "./runtime.server";

/**
 * Route middleware declared by name (route steps: what runs before a route's loader or action).
 * `auth` and `cart` run for every route through the root; a route adds others with
 * `export const middleware = steps("…")`. The steps themselves are registered by the composition
 * root (app/app.server.ts) and found in the runtime the request carries.
 */
export function steps(...names: string[]): RouteStep[] {
  return names.map((name) => async (args, next) => {
    const step = args.context.get(runtimeContext).steps[name];
    // An unknown name is a programming error that must surface as a 500 error page, not be skipped.
    if (!step) throw data("Unknown middleware", { status: 500 });
    return step(args, next);
  });
}
