import { Form } from "react-router";
import { SubscribeLinks } from "~/features/events/calendar-subscribe";
import { SubmitButton } from "~/ui/form";
import { useSite } from "~/ui/site";
import { SettingsSection } from "./section";

/** The form intent that makes the member's calendar link, or replaces it. */
export const CALENDAR_LINK_INTENT = "calendar-link";

/**
 * The member's own calendar feed: its secret address, buttons to subscribe, and a reset for when
 * the address has been shared by mistake.
 */
export function CalendarSection({ feedUrl }: { feedUrl: string | null }) {
  const { name: siteName } = useSite();
  return (
    <SettingsSection
      id="calendar"
      title="Calendar"
      description="Your tickets, your cars' places in shows and the closing times of draws you entered, in your calendar app. It updates itself when an event changes or is cancelled."
    >
      {feedUrl ? (
        <>
          <SubscribeLinks feedUrl={feedUrl} name={`My ${siteName}`} label="Subscribe to your calendar" />
          <p className="text-sm text-muted">
            Anyone with this address can see these dates, so keep it to yourself. If it has been shared, reset it: the
            old address stops working at once, and calendars subscribed to it stop updating.
          </p>
          <Form method="post">
            <SubmitButton name="intent" value={CALENDAR_LINK_INTENT} variant="secondary" pendingLabel="Resetting…" fit>
              Reset link
            </SubmitButton>
          </Form>
        </>
      ) : (
        <Form method="post">
          <SubmitButton name="intent" value={CALENDAR_LINK_INTENT} variant="secondary" pendingLabel="Making…" fit>
            Make my calendar link
          </SubmitButton>
        </Form>
      )}
    </SettingsSection>
  );
}
