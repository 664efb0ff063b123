import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { EmailLinkSchema } from "~/features/accounts/schemas";
import { sendPasswordReset } from "~/features/accounts/sign-in.server";
import { authHeaders } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { AuthCard } from "~/ui/auth-card";
import { Field, Notice, SubmitButton } from "~/ui/form";
import type { Route } from "./+types/forgot-password";

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: EmailLinkSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), sentTo: null }, { status: 400 });
  const { auth, db } = context.get(runtimeContext);
  const call = { auth, db, headers: authHeaders(request, context), ip: context.get(requestContext).ip };
  await sendPasswordReset(call, { email: submission.value.email });
  return { result: submission.reply({ resetForm: true }), sentTo: submission.value.email };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint: getZodConstraint(EmailLinkSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EmailLinkSchema }),
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
      <Form method="post" {...getFormProps(form)} className="space-y-4">
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

export const meta: Route.MetaFunction = () => [{ title: "Forgot your password?" }];
