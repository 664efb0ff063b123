import { authHeaders } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/auth";

/**
 * The Better Auth endpoints a browser opens directly: links in emails (email confirmation,
 * sign-in links) and the federated providers' callbacks. Everything else (sign-up, sign-in,
 * resets) goes through the site's own forms, which add the password list, attempt limits and
 * field messages; those endpoints are not exposed.
 */
const OPEN_ENDPOINTS: Record<string, RegExp> = {
  GET: /^\/api\/auth\/(verify-email|magic-link\/verify|callback\/[a-z]+|error)$/,
  POST: /^\/api\/auth\/callback\/[a-z]+$/,
};

async function handle({ request, context, url }: Route.LoaderArgs | Route.ActionArgs) {
  if (!OPEN_ENDPOINTS[request.method]?.test(url.pathname)) notFound();
  const { auth } = context.get(runtimeContext);
  const forwarded = new Request(request.url, {
    method: request.method,
    headers: authHeaders(request, context),
    body: request.method === "POST" ? await request.arrayBuffer() : undefined,
  });
  return auth.handler(forwarded);
}

export const loader = handle;
export const action = handle;
