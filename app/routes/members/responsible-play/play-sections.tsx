import { type FieldMetadata, getFormProps, type SubmissionResult } from "@conform-to/react";
import { ExternalLink, TriangleAlert } from "lucide-react";
import { Form, Link } from "react-router";
import { COOL_OFF_CHOICES, EXCLUSION_CHOICES } from "~/features/play/play-rules";
import { CoolOffSchema, ExclusionSchema, LimitsSchema } from "~/features/play/schemas";
import { Checkbox, Field, FieldErrors, FormErrors, SubmitButton } from "~/ui/form";
import { SettingsRow, SettingsSection, useSettingsForm } from "../settings/section";

type Result = SubmissionResult<string[]> | undefined;

/** The member's limits and spend, formatted on the server in the site's currency and time zone. */
export type LimitsView = {
  weekly: string;
  monthly: string;
  weeklyInput: string;
  monthlyInput: string;
  spentWeek: string;
  spentMonth: string;
  leftWeek: string | null;
  leftMonth: string | null;
  pending: { weekly: string; monthly: string; from: string } | null;
};

export function LimitsSection({ view, lastResult }: { view: LimitsView; lastResult: Result }) {
  const [form, fields] = useSettingsForm("play-limits", LimitsSchema, lastResult, {
    defaultValue: { weekly: view.weeklyInput, monthly: view.monthlyInput },
  });
  return (
    <SettingsSection
      id="limits"
      title="Spending limits"
      description="The most you can spend on paid prize-draw entries in any 7 days and any 30 days. Free giveaways and postal entries are not counted."
    >
      <SettingsRow label="Spent in the last 7 days">
        <span className="tabular-nums">
          {view.spentWeek}
          {view.leftWeek === null ? "" : ` · ${view.leftWeek} left of ${view.weekly}`}
        </span>
      </SettingsRow>
      <SettingsRow label="Spent in the last 30 days">
        <span className="tabular-nums">
          {view.spentMonth}
          {view.leftMonth === null ? "" : ` · ${view.leftMonth} left of ${view.monthly}`}
        </span>
      </SettingsRow>
      {view.pending ? (
        <p role="status" className="rounded-xl border border-line bg-surface-raised p-4">
          Your change to a weekly limit of <strong>{view.pending.weekly}</strong> and a monthly limit of{" "}
          <strong>{view.pending.monthly}</strong> applies on <strong>{view.pending.from}</strong>. Until then your
          current limits stay.
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="space-y-4 border-t border-line pt-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            meta={fields.weekly}
            label="Weekly limit (£)"
            hint="Empty for no limit; 0 stops paid entries."
            inputProps={{ inputMode: "decimal", autoComplete: "off" }}
          />
          <Field
            meta={fields.monthly}
            label="Monthly limit (£)"
            hint="Empty for no limit; 0 stops paid entries."
            inputProps={{ inputMode: "decimal", autoComplete: "off" }}
          />
        </div>
        <p className="text-sm text-muted">
          A lower limit applies at once. A higher limit, or removing one, applies 24 hours after you ask.
        </p>
        <SubmitButton name="intent" value="limits" pendingLabel="Saving…" fit>
          Save limits
        </SubmitButton>
      </Form>
    </SettingsSection>
  );
}

function PeriodChoices({
  meta,
  legend,
  choices,
}: {
  meta: FieldMetadata<string | undefined>;
  legend: string;
  choices: Record<string, { label: string }>;
}) {
  return (
    <fieldset className="space-y-2" aria-describedby={meta.errors ? meta.errorId : undefined}>
      <legend className="font-semibold">{legend}</legend>
      <div className="flex flex-wrap gap-3">
        {Object.entries(choices).map(([value, choice]) => (
          <label
            key={value}
            className="flex items-center gap-2 rounded-full border border-line px-4 py-2 has-[:checked]:border-accent"
          >
            <input
              type="radio"
              name={meta.name}
              value={value}
              required
              defaultChecked={meta.initialValue === value}
              className="size-4 accent-accent"
            />
            {choice.label}
          </label>
        ))}
      </div>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}

export function CoolOffSection({ until, lastResult }: { until: string | null; lastResult: Result }) {
  const [form, fields] = useSettingsForm("play-cool-off", CoolOffSchema, lastResult);
  return (
    <SettingsSection
      id="cool-off"
      title="Take a break"
      description="A cool-off stops you entering any prize draw, paid or free, until it ends. It cannot be ended early; you can only make it longer."
    >
      {until ? (
        <p role="status" className="font-semibold">
          Your break runs until {until}.
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <PeriodChoices meta={fields.period} legend="How long" choices={COOL_OFF_CHOICES} />
        <SubmitButton name="intent" value="cool-off" pendingLabel="Starting…" variant="secondary" fit>
          {until ? "Extend my break" : "Start my break"}
        </SubmitButton>
      </Form>
    </SettingsSection>
  );
}

export function ExclusionSection({ until, lastResult }: { until: string | null; lastResult: Result }) {
  const [form, fields] = useSettingsForm("play-exclude", ExclusionSchema, lastResult);
  return (
    <SettingsSection
      id="self-exclusion"
      title="Self-exclusion"
      description="Shut yourself out of every prize draw on this site for at least 6 months."
    >
      {until ? (
        <p role="status" className="font-semibold">
          You are excluded from prize draws until {until}.
        </p>
      ) : null}
      <div className="flex gap-3 rounded-2xl border border-red-700/40 bg-red-50 p-4 text-red-950 dark:bg-red-950/40 dark:text-red-100">
        <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0" />
        <p>
          Self-exclusion cannot be undone or shortened, by you or by the club. Until it ends you cannot enter any draw,
          paid or free. Events and tickets are not affected.
        </p>
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <PeriodChoices meta={fields.period} legend="Exclude me for" choices={EXCLUSION_CHOICES} />
        <Checkbox meta={fields.confirm}>
          I understand that I cannot enter prize draws until my self-exclusion ends, and that it cannot be ended early.
        </Checkbox>
        <SubmitButton name="intent" value="exclude" pendingLabel="Excluding…" variant="danger" fit>
          Exclude me from prize draws
        </SubmitButton>
      </Form>
    </SettingsSection>
  );
}

const HELP = [
  {
    href: "https://www.gamcare.org.uk/",
    name: "GamCare",
    about: "Free, confidential support and the National Gambling Helpline, 0808 8020 133, day and night.",
  },
  {
    href: "https://www.begambleaware.org/",
    name: "BeGambleAware",
    about: "Advice, self-assessment and treatment services across Great Britain.",
  },
];

export function HelpSection() {
  return (
    <SettingsSection id="help" title="Help and support">
      <ul className="space-y-3">
        {HELP.map((help) => (
          <li key={help.href}>
            <a href={help.href} rel="noopener" className="inline-flex items-center gap-1.5 font-semibold underline">
              {help.name} <ExternalLink aria-hidden className="size-4" />
            </a>
            <p className="text-muted">{help.about}</p>
          </li>
        ))}
        <li>
          <Link to="/responsible-play" className="font-semibold underline">
            How the club keeps prize draws safe and fair
          </Link>
          <p className="text-muted">Every measure we take, and how to complain.</p>
        </li>
      </ul>
    </SettingsSection>
  );
}
