import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { NotificationsSchema } from "~/features/accounts/schemas";
import type { AccountSettings } from "~/features/accounts/settings.server";
import { Checkbox, FormErrors, SubmitButton } from "~/ui/form";
import { SettingsSection, useSettingsForm } from "./section";

const on = (value: boolean) => (value ? "on" : undefined);

/** Which emails the member wants. Receipts, tickets and security notices are always sent. */
export function NotificationsSection({
  notifications,
  lastResult,
}: {
  notifications: AccountSettings["notifications"];
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useSettingsForm("settings-notifications", NotificationsSchema, lastResult, {
    defaultValue: {
      notifyEvents: on(notifications.notifyEvents),
      notifyDraws: on(notifications.notifyDraws),
      notifyOrders: on(notifications.notifyOrders),
      marketingConsent: on(notifications.marketingConsent),
    },
  });
  return (
    <SettingsSection
      id="notifications"
      title="Emails we send you"
      description="Receipts, tickets and security notices always reach you. Choose the rest."
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <fieldset className="space-y-3">
          <legend className="sr-only">Email preferences</legend>
          <Checkbox meta={fields.notifyEvents}>
            Event news: new events and changes to events I have tickets for
          </Checkbox>
          <Checkbox meta={fields.notifyDraws}>Draw results: when a draw I entered is drawn</Checkbox>
          <Checkbox meta={fields.notifyOrders}>Order updates: shipping and delivery of my shop orders</Checkbox>
          <Checkbox meta={fields.marketingConsent}>
            Club news and offers: new events, draws and merch. You can stop at any time.
          </Checkbox>
        </fieldset>
        <SubmitButton name="intent" value="notifications" pendingLabel="Saving…" fit>
          Save email preferences
        </SubmitButton>
      </Form>
    </SettingsSection>
  );
}
