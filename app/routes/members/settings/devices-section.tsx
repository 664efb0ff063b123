import { MonitorSmartphone } from "lucide-react";
import { Form } from "react-router";
import type { SignedInDevice } from "~/features/accounts/devices.server";
import { FormErrors, SubmitButton } from "~/ui/form";
import { useSite } from "~/ui/site";
import { SettingsSection } from "./section";

/** Where the member is signed in, with a way to sign out any other device (ASVS 7.5.2). */
export function DevicesSection({ devices, errors }: { devices: SignedInDevice[]; errors?: string[] }) {
  const { timeZone } = useSite();
  const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone });
  const others = devices.filter((device) => !device.current);
  return (
    <SettingsSection
      id="devices"
      title="Where you're signed in"
      description="Don't recognise one? Sign it out, then change your password."
    >
      <FormErrors id="devices-errors" errors={errors} />
      <ul className="divide-y divide-line rounded-2xl border border-line">
        {devices.map((device) => (
          <li key={device.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
            <div className="flex min-w-0 items-start gap-3">
              <MonitorSmartphone aria-hidden className="mt-0.5 size-5 shrink-0 text-muted" />
              <div className="min-w-0">
                <p className="font-semibold">
                  {device.device}
                  {device.current ? (
                    <span className="ml-2 text-sm font-semibold text-emerald-800 dark:text-emerald-300">
                      This device
                    </span>
                  ) : null}
                </p>
                <p className="text-sm text-muted">
                  Signed in {when.format(new Date(device.signedInAt))}
                  {device.current ? "" : ` · last seen ${when.format(new Date(device.lastSeenAt))}`}
                  {device.ipAddress ? ` · ${device.ipAddress}` : ""}
                </p>
              </div>
            </div>
            {device.current ? null : (
              <Form method="post">
                <input type="hidden" name="sessionId" value={device.id} />
                <SubmitButton name="intent" value="sign-out-device" variant="secondary" pendingLabel="Signing out…" fit>
                  Sign out<span className="sr-only"> {device.device}</span>
                </SubmitButton>
              </Form>
            )}
          </li>
        ))}
      </ul>
      {others.length > 1 ? (
        <Form method="post">
          <SubmitButton
            name="intent"
            value="sign-out-other-devices"
            variant="secondary"
            pendingLabel="Signing out…"
            fit
          >
            Sign out every other device
          </SubmitButton>
        </Form>
      ) : null}
    </SettingsSection>
  );
}
