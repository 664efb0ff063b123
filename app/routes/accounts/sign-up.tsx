import { parseWithZod } from "@conform-to/zod/v4";
import { KeyRound, Mail } from "lucide-react";
import { data, Form, Link } from "react-router";
import type { z } from "zod";
import { AuthCard } from "~/features/accounts/auth-card";
import { formConstraint } from "~/features/accounts/constraints.server";
import { ProviderButtons } from "~/features/accounts/provider-buttons";
import { EmailLinkSchema } from "~/features/accounts/schemas";
import { sendMagicLink } from "~/features/accounts/sign-in.server";
import { configuredProviders } from "~/server/auth/auth.server";
import { redirectIfSignedIn, safeRedirect } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { Field, Notice, SubmitButton } from "~/ui/form";
import { useLightForm } from "~/ui/light-form";
import { accountCall, withinAttemptLimits } from "~/web/account-call.server";
import type { Route } from "./+types/sign-up";

export function loader({ context, url }: Route.LoaderArgs) {
  const { env } = context.get(runtimeContext);
  redirectIfSignedIn({ context, url }, env.SITE_URL);
  return {
    constraint: formConstraint(EmailLinkSchema),
    providers: Object.keys(configuredProviders(env)),
    redirectTo: safeRedirect(url.searchParams.get("redirectTo"), env.SITE_URL, ""),
    siteName: env.SITE_NAME,
  };
}

/** "Email me a sign-in link": the link creates the account, finished on /newProfile. */
export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: EmailLinkSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), sentTo: null }, { status: 400 });
  const call = accountCall(request, context);
  const { env } = context.get(runtimeContext);
  await withinAttemptLimits(
    sendMagicLink(call, {
      email: submission.value.email,
      redirectTo: safeRedirect(submission.value.redirectTo, env.SITE_URL, "/members"),
    }),
  );
  return { result: submission.reply({ resetForm: true }), sentTo: submission.value.email };
}

export default function SignUp({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useLightForm<z.input<typeof EmailLinkSchema>>({
    lastResult: actionData?.result,
    constraint: loaderData.constraint,
  });
  const back = loaderData.redirectTo ? `?redirectTo=${encodeURIComponent(loaderData.redirectTo)}` : "";
  return (
    <AuthCard
      title={`Join ${loaderData.siteName}`}
      intro="Tickets, prize draws and a garage for your cars. Choose how you want to sign in."
    >
      <ProviderButtons providers={loaderData.providers} redirectTo={loaderData.redirectTo} />
      {actionData?.sentTo ? (
        <Notice kind="success">
          <p>
            A sign-in link is on its way to <strong>{actionData.sentTo}</strong>. Open it on this device to continue.
          </p>
        </Notice>
      ) : null}
      <Form method="post" {...form.props} className="space-y-3 rounded-2xl border border-line p-4">
        <h2 className="flex items-center gap-2 font-bold">
          <Mail aria-hidden className="size-5" /> No password needed
        </h2>
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <Field meta={fields.email} label="Email" type="email" inputProps={{ autoComplete: "email" }} />
        <SubmitButton pendingLabel="Sending…">Email me a sign-in link</SubmitButton>
      </Form>
      <Link
        to={`/createAnAccount${back}`}
        className="flex items-center justify-center gap-2 rounded-full border border-line px-6 py-3 font-bold hover:bg-surface-sunken"
      >
        <KeyRound aria-hidden className="size-5" /> Create an account with a password
      </Link>
      <p className="text-center text-sm text-muted">
        Already a member?{" "}
        <Link to={`/login${back}`} className="font-semibold text-link underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `Join ${loaderData?.siteName ?? "Pitlane"}` },
  { name: "description", content: "Create an account to buy tickets, enter prize draws and show your cars." },
];
