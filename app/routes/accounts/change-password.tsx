import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import type { z } from "zod";
import { AuthCard } from "~/features/accounts/auth-card";
import { formConstraint } from "~/features/accounts/constraints.server";
import { passwordChangedNotice } from "~/features/accounts/emails.server";
import { CurrentPasswordField, NewPasswordField } from "~/features/accounts/password-fields";
import { ChangePasswordSchema, ResetPasswordSchema } from "~/features/accounts/schemas";
import { changePassword, resetPassword } from "~/features/accounts/sign-in.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { FormErrors, SubmitButton } from "~/ui/form";
import { useLightForm } from "~/ui/light-form";
import { accountCall, withinAttemptLimits } from "~/web/account-call.server";
import type { Route } from "./+types/change-password";

/** With `?token=` (from a reset email) anyone may set a new password; otherwise sign-in is needed. */
export function loader({ context, url }: Route.LoaderArgs) {
  const token = url.searchParams.get("token");
  if (token) return { token: token.slice(0, 500), constraint: formConstraint(ResetPasswordSchema) };
  requireUser({ context, url });
  return { token: null, constraint: formConstraint(ChangePasswordSchema) };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const formData = await request.formData();
  const { auth, env, outbox } = context.get(runtimeContext);
  const hide = { hideFields: ["password", "confirm", "currentPassword"] };

  if (formData.has("token")) {
    const submission = parseWithZod(formData, { schema: ResetPasswordSchema });
    if (submission.status !== "success") return data({ result: submission.reply(hide) }, { status: 400 });
    const outcome = await resetPassword({ auth }, submission.value);
    if (!outcome.ok) {
      const errors = outcome.field
        ? { fieldErrors: { [outcome.field]: [outcome.message] } }
        : { formErrors: [outcome.message] };
      return data({ result: submission.reply({ ...errors, ...hide }) }, { status: 400 });
    }
    return redirectWithFlash("/login", {
      kind: "success",
      message: "Your password has been changed. Sign in with it now.",
    });
  }

  const user = requireUser({ context, url });
  const submission = parseWithZod(formData, { schema: ChangePasswordSchema });
  if (submission.status !== "success") return data({ result: submission.reply(hide) }, { status: 400 });
  const call = accountCall(request, context);
  const outcome = await withinAttemptLimits(changePassword(call, { userId: user.id, ...submission.value }));
  if (!outcome.ok) {
    return data(
      { result: submission.reply({ fieldErrors: { [outcome.field]: [outcome.message] }, ...hide }) },
      { status: 400 },
    );
  }
  await outbox.sendEmail(
    passwordChangedNotice({ siteName: env.SITE_NAME, siteUrl: env.SITE_URL }, user.email, user.name),
  );
  return redirectWithFlash(
    "/settings",
    { kind: "success", message: "Your password has been changed, and your other devices were signed out." },
    { headers: outcome.headers },
  );
}

export default function ChangePassword({ loaderData, actionData }: Route.ComponentProps) {
  // One form for both modes; the current password is asked only when signed in.
  const [form, fields] = useLightForm<
    z.input<typeof ResetPasswordSchema> & Partial<z.input<typeof ChangePasswordSchema>>
  >({
    lastResult: actionData?.result,
    constraint: loaderData.constraint,
  });
  return (
    <AuthCard
      title={loaderData.token ? "Choose a new password" : "Change your password"}
      intro={loaderData.token ? undefined : "Your other devices will be signed out."}
    >
      <Form method="post" {...form.props} className="space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        {loaderData.token ? (
          <input type="hidden" name="token" value={loaderData.token} />
        ) : (
          <CurrentPasswordField meta={fields.currentPassword} label="Current password" />
        )}
        <NewPasswordField meta={fields.password} label="New password" hint="10 to 128 characters." formId={form.id} />
        <NewPasswordField meta={fields.confirm} label="Repeat the new password" />
        <SubmitButton pendingLabel="Saving…">Save the new password</SubmitButton>
      </Form>
      {loaderData.token ? (
        <p className="text-center text-sm">
          <Link to="/forgotPassword" className="font-semibold text-link underline">
            Ask for a new link
          </Link>
        </p>
      ) : null}
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Change your password" },
  { name: "robots", content: "noindex" },
];
