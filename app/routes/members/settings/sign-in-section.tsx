import { BadgeCheck, KeyRound, Link2, ShieldCheck, Smartphone } from "lucide-react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import type { AccountSettings } from "~/features/accounts/settings.server";
import { FormErrors, SubmitButton } from "~/ui/form";
import { linkButton, SettingsRow, SettingsSection } from "./section";

const joined = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/**
 * A row's state once set up (`done`: "On", "Verified") with a quiet link to change it, or else a
 * button-like link (the children) that sets it up; both go to the same page.
 */
function SetUpOrChange({
  done,
  to,
  change,
  children,
}: {
  done: string | null;
  to: string;
  change: string;
  children: ReactNode;
}) {
  if (!done) {
    return (
      <Link to={to} className={linkButton}>
        {children}
      </Link>
    );
  }
  return (
    <>
      <span className="inline-flex items-center gap-1 text-sm font-semibold text-emerald-800 dark:text-emerald-300">
        <BadgeCheck aria-hidden className="size-4" /> {done}
      </span>
      <Link to={to} className="font-semibold text-link underline">
        {change}
      </Link>
    </>
  );
}

/** Password, phone and the ways the member signs in (password, Google, …). */
export function SignInSection({
  settings,
  twoFactorEnabled,
  unlinkErrors,
}: {
  settings: Pick<AccountSettings, "hasPassword" | "phone" | "signInMethods">;
  twoFactorEnabled: boolean;
  unlinkErrors?: string[];
}) {
  const { hasPassword, phone, signInMethods } = settings;
  return (
    <SettingsSection id="sign-in" title="Password, phone and sign-in">
      <SettingsRow icon={KeyRound} label="Password">
        <Link to={hasPassword ? "/changePassword" : "/forgotPassword"} className={linkButton}>
          {hasPassword ? "Change your password" : "Set a password"}
        </Link>
      </SettingsRow>
      <SettingsRow icon={ShieldCheck} label="Two-factor sign-in">
        <SetUpOrChange done={twoFactorEnabled ? "On" : null} to="/settings/twoFactor" change="Manage">
          Set up two-factor sign-in
        </SetUpOrChange>
      </SettingsRow>
      <SettingsRow icon={Smartphone} label="Phone">
        {phone ? <span className="tabular font-semibold">{phone}</span> : null}
        <SetUpOrChange done={phone ? "Verified" : null} to="/verifyPhone" change="Change">
          Add and verify your phone
        </SetUpOrChange>
      </SettingsRow>
      <div className="space-y-3 border-t border-line pt-4">
        <h3 className="inline-flex items-center gap-2 font-semibold">
          <Link2 aria-hidden className="size-5 text-muted" /> Connected accounts
        </h3>
        <FormErrors id="unlink-errors" errors={unlinkErrors} />
        <ul className="divide-y divide-line rounded-2xl border border-line">
          {signInMethods.map((method) => (
            <li key={method.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div>
                <p className="font-semibold">{method.name}</p>
                <p className="text-sm text-muted">Connected {joined.format(new Date(method.connectedAt))}</p>
              </div>
              {method.canUnlink ? (
                <Form method="post">
                  <input type="hidden" name="accountId" value={method.id} />
                  <SubmitButton name="intent" value="unlink" variant="secondary" pendingLabel="Removing…" fit>
                    Unlink {method.name}
                  </SubmitButton>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
        {signInMethods.length <= 1 ? (
          <p className="text-sm text-muted">This is your only way to sign in, so it cannot be removed.</p>
        ) : null}
      </div>
    </SettingsSection>
  );
}
