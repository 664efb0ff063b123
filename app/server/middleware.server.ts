import { data } from "react-router";
import { runtimeContext } from "./context.server";
import type { RouteStep } from "./runtime.server";

/**
 * Route middleware declared by name (the seed's route-change steps). `auth` runs for every
 * route through the root; a route adds others with `export const middleware = steps("…")`. The
 * steps themselves are registered by the composition root (app/app.server.ts) and found in the
 * runtime the request carries.
 */
export function steps(...names: string[]): RouteStep[] {
  return names.map((name) => async (args, next) => {
    const step = args.context.get(runtimeContext).steps[name];
    // An unknown name is a programming error that must surface as the seed's 500, not be skipped.
    if (!step) throw data("Unknown middleware", { status: 500 });
    return step(args, next);
  });
}
