import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Download, TriangleAlert } from "lucide-react";
import { Form } from "react-router";
import { CurrentPasswordField } from "~/features/accounts/password-fields";
import { DeleteAccountSchema } from "~/features/accounts/schemas";
import { Field, FormErrors, SubmitButton } from "~/ui/form";
import { linkButton, SettingsSection, useSettingsForm } from "./section";

/** Download my data, and delete my account (UK GDPR: access and erasure). */
export function PrivacySection({
  email,
  hasPassword,
  lastResult,
}: {
  email: string;
  hasPassword: boolean;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useSettingsForm("settings-delete", DeleteAccountSchema, lastResult, { live: true });
  return (
    <>
      <SettingsSection
        id="my-data"
        title="Download my data"
        description="A JSON file with your profile, orders and tickets, sign-ins, connected accounts and everything else the club keeps about you."
      >
        {/* A document download, not a page: the browser must fetch it itself. */}
        <a href="/settings/export.json" download className={linkButton}>
          <Download aria-hidden className="size-5" /> Download my data
        </a>
      </SettingsSection>
      <SettingsSection id="delete" title="Delete my account">
        <div className="flex gap-3 rounded-2xl border border-red-700/40 bg-red-50 p-4 text-red-950 dark:bg-red-950/40 dark:text-red-100">
          <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0" />
          <div className="space-y-1">
            <p className="font-semibold">This cannot be undone.</p>
            <p>
              Your profile, photo, garage, cart and sign-ins are deleted and you are signed out. Orders are kept for the
              club's accounts, without your name, contact details or the names on tickets; tickets already issued still
              admit their holders.
            </p>
          </div>
        </div>
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field
            meta={fields.confirmation}
            label="Type your email address to confirm"
            type="email"
            hint={`Type ${email}.`}
            inputProps={{ autoComplete: "off" }}
          />
          {hasPassword ? (
            <CurrentPasswordField
              meta={fields.currentPassword}
              label="Your password"
              hint="Not needed if you signed in within the last 5 minutes."
            />
          ) : (
            <p className="text-sm text-muted">
              Your account has no password, so it is confirmed by a recent sign-in: if you signed in more than 5 minutes
              ago, sign out and in again first.
            </p>
          )}
          <SubmitButton name="intent" value="delete" variant="danger" pendingLabel="Deleting…" fit>
            Delete my account
          </SubmitButton>
        </Form>
      </SettingsSection>
    </>
  );
}
