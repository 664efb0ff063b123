import { data, redirect } from "react-router";
import { z } from "zod";
import { forwardCookies } from "~/features/accounts/sign-in.server";
import { configuredProviders } from "~/server/auth/auth.server";
import { authHeaders, safeRedirect } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import type { Route } from "./+types/social";

const SocialSchema = z.object({ provider: z.enum(["google", "facebook", "apple"]), redirectTo: z.string().optional() });

/** Starts a federated sign-in with a configured provider and sends the browser there. */
export async function action({ request, context }: Route.ActionArgs) {
  const { auth, env } = context.get(runtimeContext);
  const parsed = SocialSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success || !(parsed.data.provider in configuredProviders(env))) {
    throw data("This sign-in method is not available", { status: 400 });
  }
  const result = await auth.api.signInSocial({
    body: {
      provider: parsed.data.provider,
      callbackURL: safeRedirect(parsed.data.redirectTo, env.SITE_URL, "/members"),
      newUserCallbackURL: "/newProfile",
      errorCallbackURL: "/login?error=provider",
    },
    headers: authHeaders(request, context),
    returnHeaders: true,
  });
  const url = result.response.url;
  if (!url) throw data("The sign-in provider did not answer. Please try again.", { status: 502 });
  throw redirect(url, { headers: forwardCookies(result.headers) });
}

export function loader() {
  throw redirect("/login");
}
