import { redirect } from "react-router";
import { signOut } from "~/features/accounts/sign-in.server";
import { authHeaders } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import type { Route } from "./+types/logout";

export async function action({ request, context }: Route.ActionArgs) {
  const { auth } = context.get(runtimeContext);
  const headers = await signOut({ auth, headers: authHeaders(request, context) });
  return redirectWithFlash("/", { kind: "info", message: "You are signed out." }, { headers });
}

export function loader() {
  throw redirect("/");
}
