import { authHeaders } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import type { Route } from "./+types/auth";

// Better Auth's own endpoints: email verification and magic links (GET from emails) and the
// federated sign-in callbacks. The site's forms call Better Auth on the server instead.
async function handle({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const { auth } = context.get(runtimeContext);
  const headers = authHeaders(request, context);
  const forwarded = new Request(request.url, {
    method: request.method,
    headers,
    body: request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer(),
  });
  return auth.handler(forwarded);
}

export const loader = handle;
export const action = handle;
