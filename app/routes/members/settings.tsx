import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link } from "react-router";
import { signedInDevices } from "~/features/accounts/devices.server";
import { SettingsSchema } from "~/features/accounts/schemas";
import { getAccountSettings } from "~/features/accounts/settings.server";
import { calendarFeedToken, resetCalendarFeed } from "~/features/events/calendar-feeds.server";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/settings";
import { CALENDAR_LINK_INTENT, CalendarSection } from "./settings/calendar-section";
import { DevicesSection } from "./settings/devices-section";
import { type EmailLinkState, EmailSection } from "./settings/email-section";
import { NotificationsSection } from "./settings/notifications-section";
import { PrivacySection } from "./settings/privacy-section";
import { ProfileSection } from "./settings/profile-section";
import { linkButton, SettingsSection } from "./settings/section";
import { runSettingsIntent, settingsCall } from "./settings/settings-intents.server";
import { SignInSection } from "./settings/sign-in-section";

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const { db, env } = context.get(runtimeContext);
  const settings = await getAccountSettings(db, user.id);
  if (!settings) notFound("Your account could not be found");
  const devices = await signedInDevices(db, user.id, user.sessionId);
  // Where a change-of-email link sends the member back (Better Auth adds `error` when it failed).
  const linkState: EmailLinkState = url.searchParams.has("error")
    ? "failed"
    : url.searchParams.get("email") === "changed"
      ? "changed"
      : null;
  const calendarToken = await calendarFeedToken(db, user.id, env.AUTH_SECRET);
  const calendarUrl = calendarToken ? `${env.SITE_URL}/members/calendar/${calendarToken}.ics` : null;
  return { settings, linkState, devices, twoFactorEnabled: user.twoFactorEnabled, calendarUrl };
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requireUser({ context, url });
  const formData = await request.formData();
  if (formData.get("intent") === CALENDAR_LINK_INTENT) {
    // Nothing to fill in: a new secret link, which also ends the old one (docs/calendar.md).
    const { db, env } = context.get(runtimeContext);
    const replaced = await resetCalendarFeed(db, user.id, { secret: env.AUTH_SECRET, now: new Date() });
    const message = replaced
      ? "Your calendar link has been reset. The old link no longer works: subscribe again with the new one."
      : "Your calendar link is ready. Subscribe to it in your calendar app.";
    return redirectWithFlash("/settings#calendar", { kind: "success", message });
  }
  const submission = parseWithZod(formData, { schema: SettingsSchema });
  if (submission.status !== "success") {
    const intent = String(formData.get("intent") ?? "");
    const result = submission.reply({ hideFields: ["currentPassword", "confirmation"] });
    return data({ intent, result, sentTo: null }, { status: 400 });
  }
  return runSettingsIntent(settingsCall(request, context), user, submission);
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, linkState, devices, twoFactorEnabled, calendarUrl } = loaderData;
  const resultFor = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="wide text-3xl font-black sm:text-4xl">Settings</h1>
        <p className="text-muted">Your profile, sign-in, emails and data.</p>
      </header>
      <nav aria-label="Settings sections" className="-mx-1 flex gap-2 overflow-x-auto px-1 pb-1 text-sm font-semibold">
        {[
          ["#profile", "Profile"],
          ["#email", "Email"],
          ["#sign-in", "Sign-in"],
          ["#devices", "Devices"],
          ["#notifications", "Emails"],
          ["#calendar", "Calendar"],
          ["#prize-draws", "Prize draws"],
          ["#my-data", "My data"],
          ["#delete", "Delete"],
        ].map(([href, label]) => (
          <a
            key={href}
            href={href}
            className="shrink-0 rounded-full border border-line px-3.5 py-1.5 hover:bg-surface-sunken"
          >
            {label}
          </a>
        ))}
      </nav>
      <ProfileSection profile={settings.profile} lastResult={resultFor("profile") ?? resultFor("remove-avatar")} />
      <EmailSection
        email={settings.email}
        emailVerified={settings.emailVerified}
        hasPassword={settings.hasPassword}
        sentTo={actionData?.intent === "email" ? actionData.sentTo : null}
        linkState={linkState}
        lastResult={resultFor("email")}
      />
      <SignInSection
        settings={settings}
        twoFactorEnabled={twoFactorEnabled}
        unlinkErrors={resultFor("unlink")?.error?.[""] ?? undefined}
      />
      <DevicesSection devices={devices} errors={resultFor("sign-out-device")?.error?.[""] ?? undefined} />
      <NotificationsSection notifications={settings.notifications} lastResult={resultFor("notifications")} />
      <CalendarSection feedUrl={calendarUrl} />
      <SettingsSection
        id="prize-draws"
        title="Prize draws"
        description="Spending limits for paid entries, a break from draws, or self-exclusion."
      >
        <Link to="/settings/responsiblePlay" className={linkButton}>
          Responsible play settings
        </Link>
      </SettingsSection>
      <PrivacySection email={settings.email} hasPassword={settings.hasPassword} lastResult={resultFor("delete")} />
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Settings" }, { name: "robots", content: "noindex" }];
