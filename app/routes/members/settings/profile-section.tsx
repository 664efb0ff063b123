import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { AvatarField } from "~/features/accounts/avatar-field";
import type { Profile } from "~/features/accounts/profile.server";
import { ProfileFields, profileFieldDefaults } from "~/features/accounts/profile-fields";
import { SettingsProfileSchema } from "~/features/accounts/schemas";
import { FormErrors, SubmitButton } from "~/ui/form";
import { SettingsSection } from "./section";

export function ProfileSection({ profile, lastResult }: { profile: Profile; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: "settings-profile",
    lastResult,
    constraint: getZodConstraint(SettingsProfileSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: profileFieldDefaults(profile),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SettingsProfileSchema }),
  });
  return (
    <SettingsSection
      id="profile"
      title="Profile"
      description={
        profile.handle ? (
          <>
            How other members see you, as <span className="font-semibold text-text">@{profile.handle}</span>.
          </>
        ) : (
          "How other members see you."
        )
      }
    >
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <AvatarField meta={fields.avatar} image={profile.image} name={profile.name} />
        <ProfileFields
          fields={fields}
          askTerms={false}
          askConsent={false}
          dateOfBirthLocked={profile.dateOfBirthLocked}
        />
        <div className="flex flex-col gap-3 sm:flex-row">
          <SubmitButton name="intent" value="profile" pendingLabel="Saving…" fit>
            Save profile
          </SubmitButton>
          {profile.image ? (
            <SubmitButton
              name="intent"
              value="remove-avatar"
              variant="secondary"
              pendingLabel="Removing…"
              formNoValidate
              fit
            >
              Remove photo
            </SubmitButton>
          ) : null}
        </div>
      </Form>
    </SettingsSection>
  );
}
