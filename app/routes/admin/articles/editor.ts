import { requireRole } from "~/server/auth/session.server";
import { requireMethod } from "~/server/methods.server";
import { readForm } from "~/web/form-data.server";
import type { Route } from "./+types/editor";
import { bodyImageAction, editorCall, previewAction } from "./article-forms.server";

// No page here: GET and HEAD answer 405 with `Allow: POST`, and so does any method but POST.
export { postOnly as loader } from "~/server/methods.server";

/**
 * The editor's helpers, called by the article form with `fetch` (so the page's data is not
 * reloaded on every keystroke): `intent=preview` renders the body with the blog's own renderer;
 * `intent=image` stores an image for the body and answers its Markdown. Answers are JSON.
 */
export async function action({ request, context, url }: Route.ActionArgs) {
  requireMethod(request, "POST");
  const user = requireRole({ context, url }, "organizer");
  const formData = await readForm(request);
  const call = editorCall(context, user.id);
  const answer =
    formData.get("intent") === "image" ? await bodyImageAction(call, formData) : previewAction(call, formData);
  const { body, status } =
    "init" in answer && "data" in answer
      ? { body: answer.data, status: answer.init?.status ?? 400 }
      : { body: answer, status: 200 };
  return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
}
