import { data, type MiddlewareFunction } from "react-router";
import { cartStep } from "~/features/cart/cart-step.server";
import { authStep } from "./auth/session.server";

/**
 * Route middleware declared by name (the seed's route-change steps). `auth` runs for every
 * route through the root; a route adds others with `export const middleware = steps("…")`.
 */
const registry: Record<string, MiddlewareFunction<Response>> = {
  auth: authStep,
  cart: cartStep,
};

export function registerStep(name: string, step: MiddlewareFunction<Response>) {
  registry[name] = step;
}

/** An unknown name is a programming error that must surface as the seed's 500, not be skipped. */
export function steps(...names: string[]): MiddlewareFunction<Response>[] {
  return names.map((name) => async (args, next) => {
    const step = registry[name];
    if (!step) throw data("Unknown middleware", { status: 500 });
    return step(args, next);
  });
}
