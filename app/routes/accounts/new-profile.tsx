import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { limitImageUploads } from "~/features/accounts/attempts.server";
import { AuthCard } from "~/features/accounts/auth-card";
import { AvatarField } from "~/features/accounts/avatar-field";
import { hasPassword } from "~/features/accounts/passwords.server";
import { getProfile, saveProfile, suggestHandle } from "~/features/accounts/profile.server";
import { ProfileFields, profileFieldDefaults } from "~/features/accounts/profile-fields";
import { DrawLimitOffer } from "~/features/play/draw-limit-offer";
import { recordLimitsOffer } from "~/features/play/play-settings.server";
import { limitsOffered, OnboardingSchema } from "~/features/play/schemas";
import { requireUser, safeRedirect } from "~/server/auth/session.server";
import { requestContext, runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { FormErrors, Notice, SubmitButton } from "~/ui/form";
import { notFound } from "~/ui/not-found";
import { withinAttemptLimits } from "~/web/account-call.server";
import type { Route } from "./+types/new-profile";

/** Onboarding after sign-up: the profile every member needs before using the community. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db, env } = context.get(runtimeContext);
  const profile = await getProfile(db, user.id);
  if (!profile) notFound("Your account could not be found");
  return {
    profile: { ...profile, handle: profile.handle ?? suggestHandle(profile.name) },
    // A link-only account, or one whose sign-up password was removed because its address was
    // confirmed on another device (see docs/security.md, pre-hijacking).
    hasPassword: await hasPassword(db, user.id),
    redirectTo: safeRedirect(url.searchParams.get("redirectTo"), env.SITE_URL, ""),
  };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireUser({ context, url });
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: OnboardingSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { db, env, storage } = context.get(runtimeContext);
  if (submission.value.avatar) {
    await withinAttemptLimits(limitImageUploads(db, { userId: user.id, ip: context.get(requestContext).ip }));
  }
  const outcome = await saveProfile(db, storage, user.id, submission.value);
  if (!outcome.ok) {
    return data({ result: submission.reply({ fieldErrors: { [outcome.field]: [outcome.message] } }) }, { status: 400 });
  }
  // Onboarding offers a spending limit for prize draws; the offer is recorded whatever the answer.
  await recordLimitsOffer(db, { userId: user.id, limits: limitsOffered(submission.value), now: new Date() });
  return redirectWithFlash(safeRedirect(formData.get("redirectTo"), env.SITE_URL, "/members"), {
    kind: "success",
    message: `Welcome to the club, @${submission.value.handle}!`,
  });
}

export default function NewProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { profile } = loaderData;
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint: getZodConstraint(OnboardingSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: {
      ...profileFieldDefaults(profile),
      marketingConsent: profile.marketingConsent ? "on" : undefined,
      drawLimit: "none",
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: OnboardingSchema }),
  });
  return (
    <AuthCard
      title="Set up your profile"
      intro="A few details so the club knows who you are. You can change them later."
    >
      {loaderData.hasPassword ? null : (
        <Notice kind="info">
          <p>
            Your account has no password: you sign in with a link we email you. You can add a password in Settings at
            any time.
          </p>
        </Notice>
      )}
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <AvatarField meta={fields.avatar} image={profile.image} name={profile.name} />
        <ProfileFields fields={fields} askTerms={!profile.termsAccepted} />
        <DrawLimitOffer fields={fields} />
        <SubmitButton pendingLabel="Saving…">Save and continue</SubmitButton>
      </Form>
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Set up your profile" },
  { name: "robots", content: "noindex" },
];
