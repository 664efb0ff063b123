import { createContext, RouterContextProvider } from "react-router";
import type { SessionUser } from "./auth/session-user";
import type { Runtime } from "./runtime.server";

export type RequestInfo = {
  /** CSP nonce for this response's inline scripts. */
  nonce: string;
  requestId: string;
  ip: string;
};

export type { SessionUser } from "./auth/session-user";

export const runtimeContext = createContext<Runtime>();
export const requestContext = createContext<RequestInfo>();
/** Filled by the `auth` middleware: the signed-in member, or null. */
export const userContext = createContext<SessionUser | null>(null);

export function createLoadContext(runtime: Runtime, info: RequestInfo) {
  const context = new RouterContextProvider();
  context.set(runtimeContext, runtime);
  context.set(requestContext, info);
  return context;
}
