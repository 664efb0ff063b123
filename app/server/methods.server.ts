/**
 * Addresses that only take forms. A route with an action and no page would otherwise answer a
 * GET with React Router's 400 "Unexpected Server Error"; instead every method it does not take
 * answers 405 with `Allow`, before anything else is looked at (a GET is never handled, so who is
 * asking does not matter). Such a route uses both halves:
 *
 * ```ts
 * export { postOnly as loader } from "~/server/methods.server";
 * export async function action({ request }: Route.ActionArgs) {
 *   requireMethod(request, "POST");
 *   …
 * }
 * ```
 *
 * The loader answers GET, HEAD and OPTIONS (React Router sends those to the loader); the check in
 * the action answers PUT, PATCH and DELETE (which it sends to the action). A route whose action
 * also takes, say, DELETE exports `onlyMethods("POST", "DELETE")` as its loader and checks the
 * same list. `app/routes/action-only.test.ts` walks the route map and holds every such route to it.
 */

export type FormMethod = "POST" | "PUT" | "PATCH" | "DELETE";

/** The 405 answer: the methods the address takes in `Allow`, and a short plain message. */
export function methodNotAllowed(allowed: readonly FormMethod[]): Response {
  const list = allowed.join(", ");
  return new Response(`Method not allowed: this address takes ${list} only.\n`, {
    status: 405,
    headers: { Allow: list, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** The loader of a route that has only an action taking `allowed`: whatever reaches it is refused. */
export function onlyMethods(...allowed: FormMethod[]): () => Response {
  return () => methodNotAllowed(allowed);
}

/** The loader of a route that only takes form posts. */
export const postOnly = onlyMethods("POST");

/** The first line of such a route's action: refuses (throws the 405) any method not in `allowed`. */
export function requireMethod(request: Request, ...allowed: FormMethod[]): void {
  if (!(allowed as readonly string[]).includes(request.method.toUpperCase())) throw methodNotAllowed(allowed);
}
