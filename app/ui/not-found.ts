import { data } from "react-router";

/**
 * Ends a loader or action with a 404. The error page words every 404 the same way; the message
 * is what a resource route (a calendar file, a CSV) answers in its body.
 */
export function notFound(message = "This page could not be found"): never {
  throw data(message, { status: 404 });
}
