import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect } from "react-router";
import type { z } from "zod";
import { AuthCard } from "~/features/accounts/auth-card";
import { formConstraint } from "~/features/accounts/constraints.server";
import { SignInCodeSchema } from "~/features/accounts/schemas";
import { verifySignInCode } from "~/features/accounts/two-factor.server";
import { redirectIfSignedIn, safeRedirect } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Checkbox, Field, FormErrors, SubmitButton } from "~/ui/form";
import { useLightForm } from "~/ui/light-form";
import { accountCall, withinAttemptLimits } from "~/web/account-call.server";
import type { Route } from "./+types/login-code";

/** The challenge cookie the password step set; without it there is nothing to finish here. */
function hasChallenge(request: Request) {
  return /(?:^|;\s*)(?:__Secure-)?pitlane\.two_factor=/.test(request.headers.get("cookie") ?? "");
}

function backToLogin(redirectTo: string, expired: boolean) {
  const query = new URLSearchParams();
  if (redirectTo) query.set("redirectTo", redirectTo);
  if (expired) query.set("code", "expired");
  const search = query.toString();
  return redirect(`/login${search ? `?${search}` : ""}`);
}

export function loader({ request, context, url }: Route.LoaderArgs) {
  const { env } = context.get(runtimeContext);
  redirectIfSignedIn({ context, url }, env.SITE_URL);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"), env.SITE_URL, "");
  if (!hasChallenge(request)) throw backToLogin(redirectTo, false);
  return { constraint: formConstraint(SignInCodeSchema), redirectTo };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  redirectIfSignedIn({ context, url }, context.get(runtimeContext).env.SITE_URL);
  const submission = parseWithZod(await request.formData(), { schema: SignInCodeSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["code"] }) }, { status: 400 });
  }
  const { env } = context.get(runtimeContext);
  const { value } = submission;
  const redirectTo = safeRedirect(value.redirectTo, env.SITE_URL, "/members");
  const outcome = await withinAttemptLimits(verifySignInCode(accountCall(request, context), value));
  if (outcome.ok) throw redirect(redirectTo, { headers: outcome.headers });
  if (outcome.reason === "expired") throw backToLogin(value.redirectTo ?? "", true);
  const message =
    outcome.reason === "locked"
      ? "Too many wrong codes: two-factor sign-in is paused for this account for 15 minutes."
      : "That code is not right. Try the newest code from your app, or a recovery code.";
  return data(
    { result: submission.reply({ fieldErrors: { code: [message] }, hideFields: ["code"] }) },
    { status: 400 },
  );
}

export default function LoginCode({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useLightForm<z.input<typeof SignInCodeSchema>>({
    lastResult: actionData?.result,
    constraint: loaderData.constraint,
  });
  return (
    <AuthCard title="Enter your code" intro="Open your authenticator app and type the 6-digit code it shows for us.">
      <Form method="post" {...form.props} className="space-y-4">
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          meta={fields.code}
          label="Code"
          hint="No phone to hand? Type one of your recovery codes instead; each works once."
          inputProps={{ autoComplete: "one-time-code", autoFocus: true, spellCheck: false, autoCapitalize: "off" }}
        />
        <Checkbox meta={fields.trustDevice}>Trust this device for 30 days (not on a shared computer)</Checkbox>
        <SubmitButton pendingLabel="Checking…">Sign in</SubmitButton>
      </Form>
      <p className="text-center text-sm">
        <Link to="/login" className="font-semibold text-link underline">
          Back to sign in
        </Link>
      </p>
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Enter your code" }, { name: "robots", content: "noindex" }];
