import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect } from "react-router";
import { AuthCard } from "~/features/accounts/auth-card";
import { formConstraint } from "~/features/accounts/constraints.server";
import { CurrentPasswordField } from "~/features/accounts/password-fields";
import { ProviderButtons } from "~/features/accounts/provider-buttons";
import { SignInSchema } from "~/features/accounts/schemas";
import { sendMagicLink, signInWithPassword } from "~/features/accounts/sign-in.server";
import { configuredProviders } from "~/server/auth/auth.server";
import { redirectIfSignedIn, safeRedirect } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Field, FormErrors, Notice, SubmitButton } from "~/ui/form";
import { useLightForm } from "~/ui/light-form";
import { accountCall, withinAttemptLimits } from "~/web/account-call.server";
import type { Route } from "./+types/login";

export function loader({ context, url }: Route.LoaderArgs) {
  const { env } = context.get(runtimeContext);
  redirectIfSignedIn({ context, url }, env.SITE_URL);
  // A magic link or a social sign-in starts no session for an account with two-factor sign-in.
  const needsPassword = url.searchParams
    .getAll("error")
    .some((error) => error === "failed_to_create_session" || error === "unable_to_create_session");
  return {
    constraint: formConstraint(SignInSchema),
    providers: Object.keys(configuredProviders(env)),
    redirectTo: safeRedirect(url.searchParams.get("redirectTo"), env.SITE_URL, ""),
    needsPassword,
    codeExpired: url.searchParams.get("code") === "expired",
    linkExpired: !needsPassword && (url.searchParams.has("link") || url.searchParams.has("error")),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: SignInSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }), sentTo: null }, { status: 400 });
  }
  const call = accountCall(request, context);
  const { env } = context.get(runtimeContext);
  const { value } = submission;
  const redirectTo = safeRedirect(value.redirectTo, env.SITE_URL, "/members");

  if (value.intent === "magic-link") {
    await withinAttemptLimits(sendMagicLink(call, { email: value.email, redirectTo }));
    return { result: submission.reply({ resetForm: true }), sentTo: value.email };
  }

  const outcome = await withinAttemptLimits(signInWithPassword(call, value));
  if (outcome.ok && outcome.needsCode) {
    throw redirect(`/login/code?redirectTo=${encodeURIComponent(redirectTo)}`, { headers: outcome.headers });
  }
  if (outcome.ok) throw redirect(redirectTo, { headers: outcome.headers });
  const message = {
    invalid: "The email or password is not right. Check them and try again.",
    unverified: "Please confirm your email address first: we have just sent you a new link.",
    banned: "This account has been suspended. Contact the club if you think this is a mistake.",
  }[outcome.reason];
  return data(
    { result: submission.reply({ formErrors: [message], hideFields: ["password"] }), sentTo: null },
    {
      status: 400,
    },
  );
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useLightForm<{ intent: string; email: string; password: string; redirectTo: string }>({
    lastResult: actionData?.result,
    constraint: loaderData.constraint,
  });
  const back = loaderData.redirectTo ? `?redirectTo=${encodeURIComponent(loaderData.redirectTo)}` : "";
  return (
    <AuthCard
      title="Sign in"
      intro={
        <>
          New here?{" "}
          <Link to={`/signUp${back}`} className="font-semibold text-link underline">
            Create an account
          </Link>
        </>
      }
    >
      {loaderData.linkExpired ? (
        <Notice kind="error">
          <p>That link has expired or was already used. Sign in below, or ask for a new link.</p>
        </Notice>
      ) : null}
      {loaderData.codeExpired ? (
        <Notice kind="error">
          <p>Signing in took too long, or too many codes were wrong. Enter your password again for a new try.</p>
        </Notice>
      ) : null}
      {loaderData.needsPassword ? (
        <Notice kind="error">
          <p>This account uses two-factor sign-in: sign in with your password, then the code from your app.</p>
        </Notice>
      ) : null}
      {actionData?.sentTo ? (
        <Notice kind="success">
          <p>
            If <strong>{actionData.sentTo}</strong> can be used here, a sign-in link is on its way. It works once, for
            10 minutes.
          </p>
        </Notice>
      ) : null}
      <ProviderButtons providers={loaderData.providers} redirectTo={loaderData.redirectTo} />
      <Form method="post" {...form.props} className="space-y-4">
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field meta={fields.email} label="Email" type="email" inputProps={{ autoComplete: "email" }} />
        <CurrentPasswordField meta={fields.password} label="Password" />
        <p className="text-right text-sm">
          <Link to="/forgotPassword" className="font-semibold text-link underline">
            Forgot your password?
          </Link>
        </p>
        <SubmitButton name="intent" value="password" pendingLabel="Signing in…">
          Sign in
        </SubmitButton>
        <div className="relative py-1 text-center text-sm text-muted before:absolute before:inset-x-0 before:top-1/2 before:border-t before:border-line">
          <span className="relative bg-surface px-3">or</span>
        </div>
        <SubmitButton name="intent" value="magic-link" variant="secondary" pendingLabel="Sending…" formNoValidate>
          Email me a link instead
        </SubmitButton>
      </Form>
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Sign in" },
  { name: "description", content: "Sign in to your tickets, prize draw entries and garage." },
];
