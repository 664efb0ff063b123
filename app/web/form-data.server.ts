import { data } from "react-router";

/**
 * Reading a form's body, the same way on every route. A body that is not a form at all (or a
 * broken multipart one) is the sender's mistake: a 400 with a plain message, never a 500.
 */
export async function readForm(request: Request) {
  try {
    return await request.formData();
  } catch {
    throw data("The form could not be read. Reload the page and try again.", { status: 400 });
  }
}

/** Which of a page's forms was sent: its `intent` field, or "" (each route's schema says what is allowed). */
export function intentOf(formData: FormData) {
  const intent = formData.get("intent");
  return typeof intent === "string" ? intent.slice(0, 40) : "";
}
