import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { BadgeCheck, CircleAlert } from "lucide-react";
import { Form, Link } from "react-router";
import { CurrentPasswordField } from "~/features/accounts/password-fields";
import { ChangeEmailSchema } from "~/features/accounts/schemas";
import { Field, FormErrors, Notice, SubmitButton } from "~/ui/form";
import { SettingsSection, useSettingsForm } from "./section";

export type EmailLinkState = "changed" | "failed" | null;

/** Changing the email: the password proves it is the member, the new address confirms itself. */
export function EmailSection({
  email,
  emailVerified,
  hasPassword,
  sentTo,
  linkState,
  lastResult,
}: {
  email: string;
  emailVerified: boolean;
  hasPassword: boolean;
  sentTo: string | null;
  linkState: EmailLinkState;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useSettingsForm("settings-email", ChangeEmailSchema, lastResult, { live: true });
  return (
    <SettingsSection id="email" title="Email address">
      <p className="flex flex-wrap items-center gap-2">
        <span className="break-all font-semibold">{email}</span>
        {emailVerified ? (
          <span className="inline-flex items-center gap-1 rounded-full bg-emerald-100 px-2.5 py-0.5 text-sm font-semibold text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100">
            <BadgeCheck aria-hidden className="size-4" /> Confirmed
          </span>
        ) : (
          <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2.5 py-0.5 text-sm font-semibold text-amber-950 dark:bg-amber-950 dark:text-amber-100">
            <CircleAlert aria-hidden className="size-4" /> Not confirmed
          </span>
        )}
      </p>
      {linkState === "changed" ? (
        <Notice kind="success">
          <p>Your email address has been changed. Use it the next time you sign in.</p>
        </Notice>
      ) : linkState === "failed" ? (
        <Notice kind="error">
          <p>That confirmation link has expired or was already used. Ask for a new one below.</p>
        </Notice>
      ) : null}
      {sentTo ? (
        <Notice kind="success">
          <p>
            Check <strong className="break-all">{sentTo}</strong> to confirm the change. Until you open the link, your
            account keeps using {email}.
          </p>
        </Notice>
      ) : null}
      {hasPassword ? (
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <Field meta={fields.newEmail} label="New email address" type="email" inputProps={{ autoComplete: "email" }} />
          <CurrentPasswordField meta={fields.currentPassword} label="Your password" hint="To make sure it is you." />
          <SubmitButton name="intent" value="email" pendingLabel="Sending…" fit>
            Change my email
          </SubmitButton>
        </Form>
      ) : (
        <p className="text-muted">
          To change your email, first{" "}
          <Link to="/forgotPassword" className="font-semibold text-link underline">
            set a password
          </Link>{" "}
          for your account.
        </p>
      )}
    </SettingsSection>
  );
}
