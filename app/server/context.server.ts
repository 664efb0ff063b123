import { createContext, RouterContextProvider } from "react-router";
import type { Runtime } from "./runtime.server";

export type RequestInfo = {
  /** CSP nonce for this response's inline scripts. */
  nonce: string;
  requestId: string;
  ip: string;
};

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  role: "member" | "organizer" | "admin";
  emailVerified: boolean;
  handle: string | null;
  image: string | null;
  /** Finished /newProfile. */
  onboarded: boolean;
  phoneNumber: string | null;
  phoneVerified: boolean;
  twoFactorEnabled: boolean;
  /** This browser's session, and when it began (a sign-in within minutes stands in for the password). */
  sessionId: string;
  signedInAt: Date;
};

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
