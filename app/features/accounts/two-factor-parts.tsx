import { Download, KeyRound, ShieldCheck } from "lucide-react";
import { Form, Link } from "react-router";
import { Field, FormErrors, Notice, SubmitButton } from "~/ui/form";
import { type SubmissionReply, useLightForm } from "~/ui/light-form";
import { CurrentPasswordField } from "./password-fields";

type Reply = SubmissionReply | undefined;

const card = "space-y-4 rounded-3xl border border-line bg-surface p-5 shadow-sm sm:p-7";

/** A password field and a button: every change of two-factor sign-in is confirmed this way. */
function PasswordForm({
  intent,
  label,
  pendingLabel,
  variant,
  lastResult,
}: {
  intent: string;
  label: string;
  pendingLabel: string;
  variant?: "secondary";
  lastResult: Reply;
}) {
  const [form, fields] = useLightForm<{ password: string }>({
    lastResult,
    constraint: { password: { required: true, maxLength: 128 } },
  });
  return (
    <Form method="post" {...form.props} className="space-y-4">
      <FormErrors id={form.errorId} errors={form.errors} />
      <CurrentPasswordField meta={fields.password} label="Your password" />
      <SubmitButton name="intent" value={intent} pendingLabel={pendingLabel} variant={variant} fit>
        {label}
      </SubmitButton>
    </Form>
  );
}

/** Step one: the password, before a new secret is made. */
export function SetUpStart({ hasPassword, lastResult }: { hasPassword: boolean; lastResult: Reply }) {
  if (!hasPassword) {
    return (
      <section className={card} aria-labelledby="two-factor-start">
        <h2 id="two-factor-start" className="wide text-xl font-extrabold">
          Set a password first
        </h2>
        <p>
          Two-factor sign-in is a second step after your password, and your account signs in without one. Set a password
          with a reset link, then come back here.
        </p>
        <Link to="/forgotPassword" className="font-semibold text-link underline">
          Set a password
        </Link>
      </section>
    );
  }
  return (
    <section className={card} aria-labelledby="two-factor-start">
      <h2 id="two-factor-start" className="wide text-xl font-extrabold">
        Set it up
      </h2>
      <p>
        You need an authenticator app on your phone, such as Google Authenticator, Microsoft Authenticator, 1Password or
        Authy. Confirm your password to start.
      </p>
      <PasswordForm intent="start" label="Start set-up" pendingLabel="Starting…" lastResult={lastResult} />
    </section>
  );
}

type Setup = { totpURI: string; secret: string; qr: string; recoveryCodes: string[] };

/** Step two: scan, keep the recovery codes, and type the first code to turn it on. */
export function SetUpSteps({ setup, lastResult }: { setup: Setup; lastResult: Reply }) {
  const [form, fields] = useLightForm<{ code: string }>({
    lastResult,
    constraint: { code: { required: true, maxLength: 20 } },
  });
  return (
    <section className={card} aria-labelledby="two-factor-steps">
      <h2 id="two-factor-steps" className="wide text-xl font-extrabold">
        Three steps
      </h2>
      <ol className="space-y-6">
        <li className="space-y-3">
          <h3 className="font-semibold">1. Scan this code with your authenticator app</h3>
          <div className="flex flex-wrap items-center gap-5">
            {/* Drawn on the server from the app's address: path data only, no text from anyone. */}
            <div
              className="size-44 shrink-0 rounded-xl bg-white p-1"
              role="img"
              aria-label="QR code for your authenticator app"
              dangerouslySetInnerHTML={{ __html: setup.qr }}
            />
            <div className="min-w-0 space-y-1 text-sm">
              <p>Can't scan it? Add an account by hand with this key:</p>
              <p className="tabular break-all rounded-lg bg-surface-sunken px-3 py-2 font-mono text-base tracking-wider">
                {setup.secret.match(/.{1,4}/g)?.join(" ")}
              </p>
            </div>
          </div>
        </li>
        <li className="space-y-3">
          <h3 className="font-semibold">2. Keep your recovery codes somewhere safe</h3>
          <RecoveryCodeList codes={setup.recoveryCodes} />
        </li>
        <li className="space-y-3">
          <h3 className="font-semibold">3. Type the code your app shows</h3>
          <Form method="post" {...form.props} className="space-y-4">
            <input type="hidden" name="totpURI" value={setup.totpURI} />
            <input type="hidden" name="recoveryCodes" value={setup.recoveryCodes.join(" ")} />
            <FormErrors id={form.errorId} errors={form.errors} />
            <Field
              meta={fields.code}
              label="6-digit code"
              inputProps={{ autoComplete: "one-time-code", inputMode: "numeric", spellCheck: false }}
            />
            <SubmitButton name="intent" value="confirm" pendingLabel="Checking…" fit>
              Turn on two-factor sign-in
            </SubmitButton>
          </Form>
        </li>
      </ol>
    </section>
  );
}

function RecoveryCodeList({ codes }: { codes: string[] }) {
  const file = `data:text/plain;charset=utf-8,${encodeURIComponent(`${codes.join("\n")}\n`)}`;
  return (
    <div className="space-y-3">
      <p className="text-sm text-muted">
        Each code signs you in once if you lose your phone. They are shown only now: download or write them down.
      </p>
      <ul className="tabular grid grid-cols-2 gap-2 rounded-xl bg-surface-sunken p-4 font-mono sm:grid-cols-5">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <a
        href={file}
        download="recovery-codes.txt"
        className="inline-flex items-center gap-2 font-semibold text-link underline"
      >
        <Download aria-hidden className="size-4" /> Download the codes
      </a>
    </div>
  );
}

/** New recovery codes, shown once. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <section className={card} aria-labelledby="recovery-codes">
      <h2 id="recovery-codes" className="wide text-xl font-extrabold">
        Your new recovery codes
      </h2>
      <Notice kind="success">
        <p>Your earlier recovery codes no longer work.</p>
      </Notice>
      <RecoveryCodeList codes={codes} />
      <Link to="/settings#sign-in" className="font-semibold text-link underline">
        Back to settings
      </Link>
    </section>
  );
}

/** Two-factor sign-in is on: new recovery codes, or turning it off. */
export function TwoFactorOn({
  staffMustKeep,
  lastIntent,
  lastResult,
}: {
  staffMustKeep: boolean;
  lastIntent: string | null;
  lastResult: Reply;
}) {
  return (
    <>
      <section className={card} aria-labelledby="two-factor-on">
        <h2 id="two-factor-on" className="wide inline-flex items-center gap-2 text-xl font-extrabold">
          <ShieldCheck aria-hidden className="size-6 text-emerald-700 dark:text-emerald-300" /> It's on
        </h2>
        <p>Signing in with your password asks for a code from your app, or one of your recovery codes.</p>
      </section>
      <section className={card} aria-labelledby="new-recovery-codes">
        <h2 id="new-recovery-codes" className="wide inline-flex items-center gap-2 text-xl font-extrabold">
          <KeyRound aria-hidden className="size-6 text-muted" /> New recovery codes
        </h2>
        <p>Used some, or lost them? New codes replace all the old ones.</p>
        <PasswordForm
          intent="recovery-codes"
          label="Make new recovery codes"
          pendingLabel="Making codes…"
          variant="secondary"
          lastResult={lastIntent === "recovery-codes" ? lastResult : undefined}
        />
      </section>
      <section className={card} aria-labelledby="turn-off">
        <h2 id="turn-off" className="wide text-xl font-extrabold">
          Turn it off
        </h2>
        {staffMustKeep ? (
          <p>Organisers and admins need two-factor sign-in here, so it stays on.</p>
        ) : (
          <>
            <p>Sign-in will ask for your password only.</p>
            <PasswordForm
              intent="turn-off"
              label="Turn off two-factor sign-in"
              pendingLabel="Turning off…"
              variant="secondary"
              lastResult={lastIntent === "turn-off" ? lastResult : undefined}
            />
          </>
        )}
      </section>
    </>
  );
}
