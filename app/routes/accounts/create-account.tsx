import { parseWithZod } from "@conform-to/zod/v4";
import { MailCheck } from "lucide-react";
import { data, Form, Link } from "react-router";
import type { z } from "zod";
import { AuthCard } from "~/features/accounts/auth-card";
import { formConstraint } from "~/features/accounts/constraints.server";
import { NewPasswordField } from "~/features/accounts/password-fields";
import { TermsCheckbox } from "~/features/accounts/profile-fields";
import { CreateAccountSchema } from "~/features/accounts/schemas";
import { signUpWithPassword } from "~/features/accounts/sign-in.server";
import { redirectIfSignedIn, safeRedirect } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Field, FormErrors, SubmitButton } from "~/ui/form";
import { useLightForm } from "~/ui/light-form";
import { accountCall, withinAttemptLimits } from "~/web/account-call.server";
import type { Route } from "./+types/create-account";

export function loader({ context, url }: Route.LoaderArgs) {
  const { env } = context.get(runtimeContext);
  redirectIfSignedIn({ context, url }, env.SITE_URL);
  return {
    redirectTo: safeRedirect(url.searchParams.get("redirectTo"), env.SITE_URL, ""),
    constraint: formConstraint(CreateAccountSchema),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: CreateAccountSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }), sentTo: null }, { status: 400 });
  }
  const call = accountCall(request, context);
  const { env } = context.get(runtimeContext);
  const redirectTo = safeRedirect(submission.value.redirectTo, env.SITE_URL, "");
  const outcome = await withinAttemptLimits(signUpWithPassword(call, { ...submission.value, redirectTo }));
  if (!outcome.ok) {
    return data(
      {
        result: submission.reply({ fieldErrors: { [outcome.field]: [outcome.message] }, hideFields: ["password"] }),
        sentTo: null,
      },
      { status: 400 },
    );
  }
  // The browser that signed up is the one whose confirmation link keeps the password.
  return data(
    { result: submission.reply({ resetForm: true }), sentTo: submission.value.email },
    { headers: outcome.headers },
  );
}

export default function CreateAccount({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useLightForm<z.input<typeof CreateAccountSchema>>({
    lastResult: actionData?.result,
    constraint: loaderData.constraint,
  });
  if (actionData?.sentTo) {
    return (
      <AuthCard title="Check your email">
        <MailCheck aria-hidden className="size-12 text-accent-ink" />
        <p>
          We have sent a link to <strong>{actionData.sentTo}</strong>. Open it to confirm your address and finish your
          profile.
        </p>
        <p className="text-sm text-muted">
          Nothing there after a few minutes? Check your spam folder, or{" "}
          <Link to="/login" className="font-semibold text-link underline">
            sign in
          </Link>{" "}
          to have it sent again.
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Create an account"
      intro={
        <>
          Already a member?{" "}
          <Link to="/login" className="font-semibold text-link underline">
            Sign in
          </Link>
        </>
      }
    >
      <Form method="post" {...form.props} className="space-y-4">
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field meta={fields.name} label="Your name" inputProps={{ autoComplete: "name" }} />
        <Field meta={fields.email} label="Email" type="email" inputProps={{ autoComplete: "email" }} />
        <NewPasswordField
          meta={fields.password}
          label="Password"
          hint="10 to 128 characters. A few unrelated words make a strong one."
          formId={form.id}
        />
        <TermsCheckbox meta={fields.terms} />
        <SubmitButton pendingLabel="Creating your account…">Create my account</SubmitButton>
      </Form>
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Create an account" },
  { name: "description", content: "Join the club: buy tickets, enter prize draws and show your cars." },
];
