import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { AuthCard } from "~/features/accounts/auth-card";
import { defaultCountryFromRequest, formatPhone, phoneNumberOf, verifyPhoneSchema } from "~/features/accounts/phone";
import { confirmPhoneCode, PHONE_CODE_MESSAGES, pendingCode, sendPhoneCode } from "~/features/accounts/phone.server";
import { PhoneInput } from "~/features/accounts/phone-input";
import { ResendCodeButton } from "~/features/accounts/resend-code-button";
import { requireUser, safeRedirect } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { Field, FormErrors, Notice, SubmitButton } from "~/ui/form";
import { accountCall, withinAttemptLimits } from "~/web/account-call.server";
import type { Route } from "./+types/verify-phone";

export function loader({ request, context, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { env } = context.get(runtimeContext);
  return {
    defaultCountry: defaultCountryFromRequest(request.headers.get("accept-language"), env.DEFAULT_COUNTRY),
    siteCountry: env.DEFAULT_COUNTRY,
    redirectTo: safeRedirect(url.searchParams.get("redirectTo"), env.SITE_URL, "/settings"),
    verifiedNumber: user.phoneVerified && user.phoneNumber ? formatPhone(user.phoneNumber) : null,
  };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireUser({ context, url });
  const { db, env } = context.get(runtimeContext);
  const submission = parseWithZod(await request.formData(), { schema: verifyPhoneSchema(env.DEFAULT_COUNTRY) });
  // The pending number comes back from the page: it only ever names the number to verify.
  const pending = (phoneNumber = submission.payload.phoneNumber) => pendingCode(db, user.id, phoneNumber);
  if (submission.status !== "success") {
    return data({ result: submission.reply(), pending: await pending() }, { status: 400 });
  }
  const call = accountCall(request, context);
  const { value } = submission;

  if (value.intent === "confirm") {
    const outcome = await confirmPhoneCode(call, { userId: user.id, ...value });
    if (outcome.ok) {
      const message = "Your phone number is verified.";
      const to = safeRedirect(value.redirectTo, env.SITE_URL, "/settings");
      return redirectWithFlash(to, { kind: "success", message }, { headers: outcome.headers });
    }
    if (outcome.reason === "taken" || outcome.reason === "yours") {
      const result = submission.reply({ formErrors: [PHONE_CODE_MESSAGES[outcome.reason]] });
      return data({ result, pending: null }, { status: 400 });
    }
    const message =
      outcome.reason === "wrong" ? PHONE_CODE_MESSAGES.wrong(outcome.triesLeft) : PHONE_CODE_MESSAGES[outcome.reason];
    const result = submission.reply({ fieldErrors: { code: [message] } });
    return data({ result, pending: await pending() }, { status: 400 });
  }

  const { phoneNumber } = value.intent === "send" ? phoneNumberOf(value, env.DEFAULT_COUNTRY) : value;
  const policy = { countries: env.SMS_COUNTRIES, dailyLimit: env.SMS_DAILY_LIMIT };
  const outcome = await withinAttemptLimits(sendPhoneCode(call, { userId: user.id, phoneNumber, policy }));
  if (outcome.ok) return { result: submission.reply(), pending: await pending(phoneNumber) };
  if (outcome.reason === "wait") {
    const result = submission.reply({ formErrors: [PHONE_CODE_MESSAGES.wait(outcome.retryAfterSeconds)] });
    const step = value.intent === "resend" ? await pending(phoneNumber) : null;
    return data(
      { result, pending: step },
      { status: 429, headers: { "Retry-After": String(outcome.retryAfterSeconds) } },
    );
  }
  const message =
    outcome.reason === "country"
      ? PHONE_CODE_MESSAGES.country(outcome.country, env.SMS_COUNTRIES)
      : PHONE_CODE_MESSAGES[outcome.reason];
  const errors = value.intent === "send" ? { fieldErrors: { phone: [message] } } : { formErrors: [message] };
  return data({ result: submission.reply(errors), pending: null }, { status: 400 });
}

export default function VerifyPhone({ loaderData, actionData }: Route.ComponentProps) {
  const schema = verifyPhoneSchema(loaderData.siteCountry);
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const pending = actionData?.pending ?? null;
  const back = loaderData.redirectTo === "/settings" ? "" : `?redirectTo=${encodeURIComponent(loaderData.redirectTo)}`;

  if (!pending) {
    return (
      <AuthCard title="Verify your phone number" intro="We will text you a 6-digit code to check the number is yours.">
        {loaderData.verifiedNumber ? (
          <Notice kind="info">
            <p>
              Your verified number is <strong>{loaderData.verifiedNumber}</strong>. A new number replaces it.
            </p>
          </Notice>
        ) : null}
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <input type="hidden" name="intent" value="send" />
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <FormErrors id={form.errorId} errors={form.errors} />
          <PhoneInput
            country={fields.country}
            phone={fields.phone}
            defaultCountry={loaderData.defaultCountry}
            hint="A mobile number that can receive text messages."
          />
          <SubmitButton intent="send" pendingLabel="Sending…">
            Send code
          </SubmitButton>
        </Form>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Enter the code" intro="The code works for 10 minutes.">
      <Notice kind="info">
        <p>
          We have sent a code to <strong>{pending.shown}</strong>.
        </p>
      </Notice>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="confirm" />
        <input type="hidden" name="phoneNumber" value={pending.phoneNumber} />
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          meta={fields.code}
          label="6-digit code"
          inputProps={{ inputMode: "numeric", autoComplete: "one-time-code", pattern: "[0-9]{6}" }}
        />
        <SubmitButton intent="confirm" pendingLabel="Checking…">
          Verify
        </SubmitButton>
      </Form>
      <Form method="post" className="space-y-3">
        <input type="hidden" name="phoneNumber" value={pending.phoneNumber} />
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <ResendCodeButton key={pending.since} waitSeconds={pending.resendAfterSeconds} />
      </Form>
      <p className="text-center text-sm">
        <Link to={`/verifyPhone${back}`} className="font-semibold text-link underline">
          Use a different number
        </Link>
      </p>
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Verify your phone number" },
  { name: "robots", content: "noindex" },
];
