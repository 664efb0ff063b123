import { Form } from "react-router";
import { Card } from "~/ui/card";
import { inputClass } from "~/ui/form";
import { formatCount } from "~/ui/plural";
import type { QueueSettingsErrors, QueueSettingsForm } from "./queue-settings.server";

function NumberField(props: {
  name: "ratePerMinute" | "admissionMinutes";
  label: string;
  hint: string;
  value: number;
  error?: string;
}) {
  const hintId = `${props.name}-hint`;
  const errorId = `${props.name}-error`;
  return (
    <div className="space-y-1">
      <label htmlFor={props.name} className="block font-semibold">
        {props.label}
      </label>
      <p id={hintId} className="text-sm text-muted">
        {props.hint}
      </p>
      <input
        id={props.name}
        name={props.name}
        type="number"
        inputMode="numeric"
        min={1}
        required
        defaultValue={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${hintId} ${errorId}` : hintId}
        className={`${inputClass(Boolean(props.error))} max-w-40`}
      />
      {props.error ? (
        <p id={errorId} className="text-sm font-semibold text-red-700 dark:text-red-400">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

/** The organizer's queue settings and how the queue stands. A plain form: works without scripts. */
export function QueueSettingsPanel(props: {
  settings: QueueSettingsForm;
  opensAt: string | null;
  places: number;
  letThrough: number;
  errors?: QueueSettingsErrors;
}) {
  const { settings, errors } = props;
  return (
    <div className="space-y-6">
      <Card as="section" aria-labelledby="queue-settings" className="space-y-5 p-5 sm:p-6">
        <h2 id="queue-settings" className="text-xl font-bold">
          Waiting room
        </h2>
        <p className="text-muted">
          For a busy on-sale: visitors join a queue, everyone there when sales open gets a place in a random order, and
          people are let through a batch at a time. While the queue is on, only someone whose turn it is can buy.
        </p>
        {props.opensAt ? (
          <p>Sales open at {props.opensAt}.</p>
        ) : (
          <p role="note" className="font-semibold">
            Set when sales open (on the Details tab): the queue only runs for sales that open at a set time.
          </p>
        )}
        <Form method="post" className="space-y-5">
          <label className="flex items-center gap-3 font-semibold">
            <input type="checkbox" name="enabled" defaultChecked={settings.enabled} className="size-5" />
            Sell tickets through a queue
          </label>
          <NumberField
            name="ratePerMinute"
            label="People let through a minute"
            hint="Pick what your ticket page can serve, and roughly how many buyers the places allow."
            value={settings.ratePerMinute}
            error={errors?.ratePerMinute}
          />
          <NumberField
            name="admissionMinutes"
            label="Minutes to buy once through"
            hint="How long a turn lasts: choosing tickets, signing in and paying."
            value={settings.admissionMinutes}
            error={errors?.admissionMinutes}
          />
          <button
            type="submit"
            className="rounded-full bg-accent px-6 py-3 font-bold text-on-accent hover:bg-accent-strong"
          >
            Save queue settings
          </button>
        </Form>
      </Card>
      <Card as="section" aria-labelledby="queue-now" className="space-y-2 p-5 sm:p-6">
        <h2 id="queue-now" className="text-xl font-bold">
          The queue now
        </h2>
        <p>
          {formatCount(props.places)} in the queue, {formatCount(props.letThrough)} let through.
        </p>
      </Card>
    </div>
  );
}
