import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { hasPassword } from "~/features/accounts/passwords.server";
import { TwoFactorSchema } from "~/features/accounts/schemas";
import { recordSecurityEvent } from "~/features/accounts/security-events.server";
import { confirmSetup, newRecoveryCodes, secretOf, startSetup, turnOff } from "~/features/accounts/two-factor.server";
import { RecoveryCodes, SetUpStart, SetUpSteps, TwoFactorOn } from "~/features/accounts/two-factor-parts";
import { qrSvg } from "~/features/tickets/qr.server";
import { requireUser, safeRedirect } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { Notice } from "~/ui/form";
import { accountCall, withinAttemptLimits } from "~/web/account-call.server";
import type { Route } from "./+types/two-factor";

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { env, db } = context.get(runtimeContext);
  return {
    enabled: user.twoFactorEnabled,
    hasPassword: await hasPassword(db, user.id),
    staffMustKeep: env.STAFF_TWO_FACTOR === "required" && user.role !== "member",
    required: url.searchParams.has("required") && !user.twoFactorEnabled,
    redirectTo: safeRedirect(url.searchParams.get("redirectTo"), env.SITE_URL, ""),
  };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireUser({ context, url });
  const { env } = context.get(runtimeContext);
  const submission = parseWithZod(await request.formData(), { schema: TwoFactorSchema });
  if (submission.status !== "success") {
    const intent = String(submission.payload.intent ?? "");
    const result = submission.reply({ hideFields: ["password", "code"] });
    return data({ intent, result, setup: null, codes: null }, { status: 400 });
  }
  const call = accountCall(request, context);
  const { value } = submission;
  const event = (action: string) =>
    recordSecurityEvent(call.db, { userId: user.id, action, ip: context.get(requestContext).ip });
  const refuse = (outcome: { field: string; message: string }, setup: SetupState | null = null) =>
    data(
      {
        intent: value.intent,
        result: submission.reply({
          ...(outcome.field
            ? { fieldErrors: { [outcome.field]: [outcome.message] } }
            : { formErrors: [outcome.message] }),
          hideFields: ["password", "code"],
        }),
        setup,
        codes: null,
      },
      { status: 400 },
    );

  switch (value.intent) {
    case "start": {
      const outcome = await withinAttemptLimits(startSetup(call, user.id, value.password));
      if (!outcome.ok) return refuse(outcome);
      const setup = await setupState(outcome.totpURI, outcome.recoveryCodes);
      return { intent: value.intent, result: submission.reply({ resetForm: true }), setup, codes: null };
    }
    case "confirm": {
      const outcome = await withinAttemptLimits(confirmSetup(call, user.id, value.code));
      if (!outcome.ok) return refuse(outcome, await setupState(value.totpURI, value.recoveryCodes));
      await event("two-factor.enabled");
      const back = safeRedirect(url.searchParams.get("redirectTo"), env.SITE_URL, "/settings#sign-in");
      const flash = { kind: "success", message: "Two-factor sign-in is on." } as const;
      return redirectWithFlash(back, flash, { headers: outcome.headers });
    }
    case "recovery-codes": {
      const outcome = await withinAttemptLimits(newRecoveryCodes(call, user.id, value.password));
      if (!outcome.ok) return refuse(outcome);
      await event("two-factor.recovery-codes-replaced");
      return {
        intent: value.intent,
        result: submission.reply({ resetForm: true }),
        setup: null,
        codes: outcome.recoveryCodes,
      };
    }
    case "turn-off": {
      const staffMustKeep = env.STAFF_TWO_FACTOR === "required";
      const outcome = await withinAttemptLimits(turnOff(call, user, { password: value.password, staffMustKeep }));
      if (!outcome.ok) return refuse(outcome);
      await event("two-factor.disabled");
      const flash = { kind: "success", message: "Two-factor sign-in is off." } as const;
      return redirectWithFlash("/settings#sign-in", flash, { headers: outcome.headers });
    }
  }
}

type SetupState = { totpURI: string; secret: string; qr: string; recoveryCodes: string[] };

/**
 * What the set-up step shows. A wrong first code shows the same secret again: the form sends the
 * app's address and the recovery codes back (they are the member's own, already on their screen).
 */
async function setupState(totpURI: string | undefined, recoveryCodes: string[] | undefined) {
  if (!totpURI || !recoveryCodes?.length) return null;
  return { totpURI, secret: secretOf(totpURI), qr: await qrSvg(totpURI), recoveryCodes } satisfies SetupState;
}

export default function TwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const { enabled, staffMustKeep, required } = loaderData;
  const result = actionData?.result;
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="wide text-3xl font-black sm:text-4xl">Two-factor sign-in</h1>
        <p className="text-muted">
          After your password, sign-in asks for a code from an authenticator app on your phone, so a stolen password
          alone cannot open your account.
        </p>
      </header>
      {required ? (
        <Notice kind="info">
          <p>Organisers and admins need two-factor sign-in to open the club's dashboard. Set it up below.</p>
        </Notice>
      ) : null}
      {actionData?.codes ? (
        <RecoveryCodes codes={actionData.codes} />
      ) : enabled ? (
        <TwoFactorOn staffMustKeep={staffMustKeep} lastIntent={actionData?.intent ?? null} lastResult={result} />
      ) : actionData?.setup ? (
        <SetUpSteps setup={actionData.setup} lastResult={result} />
      ) : (
        <SetUpStart hasPassword={loaderData.hasPassword} lastResult={result} />
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Two-factor sign-in" }, { name: "robots", content: "noindex" }];
