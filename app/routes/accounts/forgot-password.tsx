import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import type { z } from "zod";
import { AuthCard } from "~/features/accounts/auth-card";
import { formConstraint } from "~/features/accounts/constraints.server";
import { EmailLinkSchema } from "~/features/accounts/schemas";
import { sendPasswordReset } from "~/features/accounts/sign-in.server";
import { Field, Notice, SubmitButton } from "~/ui/form";
import { useLightForm } from "~/ui/light-form";
import { accountCall, withinAttemptLimits } from "~/web/account-call.server";
import type { Route } from "./+types/forgot-password";

export function loader() {
  return { constraint: formConstraint(EmailLinkSchema) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: EmailLinkSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), sentTo: null }, { status: 400 });
  const call = accountCall(request, context);
  await withinAttemptLimits(sendPasswordReset(call, { email: submission.value.email }));
  return { result: submission.reply({ resetForm: true }), sentTo: submission.value.email };
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useLightForm<z.input<typeof EmailLinkSchema>>({
    lastResult: actionData?.result,
    constraint: loaderData.constraint,
  });
  return (
    <AuthCard title="Forgot your password?" intro="Enter your email and we will send you a link to choose a new one.">
      {actionData?.sentTo ? (
        <Notice kind="success">
          <p>
            If an account uses <strong>{actionData.sentTo}</strong>, a link to reset its password is on its way. It
            works once, for one hour.
          </p>
        </Notice>
      ) : null}
      <Form method="post" {...form.props} className="space-y-4">
        <Field meta={fields.email} label="Email" type="email" inputProps={{ autoComplete: "email" }} />
        <SubmitButton pendingLabel="Sending…">Send me a reset link</SubmitButton>
      </Form>
      <p className="text-center text-sm">
        <Link to="/login" className="font-semibold text-link underline">
          Back to sign in
        </Link>
      </p>
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Forgot your password?" },
  { name: "description", content: "Get a link to choose a new password for your account." },
];
