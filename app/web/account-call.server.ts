import { data, type RouterContextProvider } from "react-router";
import { TooManyAttempts } from "~/features/accounts/attempts.server";
import type { AuthCall } from "~/features/accounts/sign-in.server";
import { authHeaders } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";

// The account pages' shared request glue: what the accounts rules need from a request, and the
// page that answers a rule's "too many attempts".

/** Better Auth, the database, the browser's headers (its session) and the client's address. */
export function accountCall(request: Request, context: Readonly<RouterContextProvider>): AuthCall {
  const { auth, db } = context.get(runtimeContext);
  return { auth, db, headers: authHeaders(request, context), ip: context.get(requestContext).ip };
}

/**
 * Runs an account rule and answers its `TooManyAttempts` with the 429 page, which says
 * how long to wait (and a Retry-After header).
 */
export async function withinAttemptLimits<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof TooManyAttempts)) throw error;
    throw data(error.message, {
      status: 429,
      headers: { "Retry-After": String(error.retryAfterSeconds) },
    });
  }
}
