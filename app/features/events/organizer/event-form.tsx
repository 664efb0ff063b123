import type { SubmissionResult } from "@conform-to/react";
import { useMemo } from "react";
import { Checkbox } from "~/ui/form";
import { FormSection, InputField, SelectField, TextAreaField } from "~/ui/form-fields";
import { useLiveForm } from "~/ui/live-form";
import { currencySymbol } from "~/ui/money";
import { labelledOptions, RecordForm } from "~/ui/record-form";
import { TimeWindowFields, zoneName } from "~/ui/time-window";
import {
  EVENT_TYPE_LABELS,
  type EventFormDefaults,
  type EventFormShape,
  type EventInput,
  eventFormFields,
  eventFormSchema,
  LIMITS,
} from "./schemas";
import { type VenuePlace, VenueSearch } from "./venue-search";

/**
 * Everything about an event but its cover and tickets, on /admin/events/new and on the event's
 * own page. Times are typed in the event's time zone, whatever zone the organizer is in.
 */
export function EventForm({
  lastResult,
  defaultValue,
  timeZones,
  currency,
  mapsKey,
  submitLabel,
  disabled = false,
}: {
  lastResult?: SubmissionResult<string[]>;
  defaultValue: EventFormDefaults;
  /** The menu's zones, the site's own first. */
  timeZones: string[];
  currency: string;
  mapsKey: string | null;
  submitLabel: string;
  /** A cancelled event is shown, not edited. */
  disabled?: boolean;
}) {
  const { schema, rules } = useMemo(
    () => ({ schema: eventFormSchema({ currency }), rules: eventFormFields({ currency }) }),
    [currency],
  );
  const [form, fields] = useLiveForm<EventFormShape, EventInput>({
    id: "event-form",
    schema,
    rules,
    lastResult,
    defaultValue,
  });
  const fillFromPlace = (place: VenuePlace) => {
    for (const [name, value] of Object.entries(place)) form.update({ name, value });
  };
  const symbol = currencySymbol(currency);
  return (
    <RecordForm form={form} disabled={disabled} submitLabel={submitLabel}>
      <FormSection id="basics" title="The event" description="What visitors see on tiles, in search and on its page.">
        <InputField meta={fields.title} label="Title" />
        <SelectField meta={fields.type} label="Kind of event" options={labelledOptions(EVENT_TYPE_LABELS)} />
        <TextAreaField
          meta={fields.summary}
          label="Summary (optional)"
          rows={2}
          hint={`One or two sentences for tiles and search results, up to ${LIMITS.summary} characters.`}
        />
        <TextAreaField
          meta={fields.description}
          label="Description (optional)"
          rows={10}
          hint="Markdown: **bold**, _italic_, lists and [links](https://example.com). HTML is shown as text."
        />
        <InputField
          meta={fields.slug}
          label="Web address"
          hint="The page lives at /events/followed-by-this. Leave it empty to make one from the title."
          inputProps={{ autoCapitalize: "none", spellCheck: false, placeholder: "summer-sunday-meet" }}
        />
      </FormSection>

      <FormSection
        id="when"
        title="When"
        description="Times are in the event's own time zone, so they read right wherever the organizer is."
      >
        <SelectField
          meta={fields.timeZone}
          label="Time zone"
          options={timeZones.map((zone, index) => ({
            value: zone,
            label: index === 0 ? `${zoneName(zone)} (this site's)` : zoneName(zone),
          }))}
        />
        <TimeWindowFields
          start={{ meta: fields.startsAt, label: "Starts" }}
          end={{ meta: fields.endsAt, label: "Ends", hint: `Up to ${LIMITS.eventDays} days after the start.` }}
        />
      </FormSection>

      <FormSection id="where" title="Where">
        {mapsKey && !disabled ? <VenueSearch apiKey={mapsKey} onPlace={fillFromPlace} /> : null}
        <InputField meta={fields.venue} label="Venue" inputProps={{ placeholder: "Brooklands Museum" }} />
        <InputField meta={fields.address} label="Street address (optional)" inputProps={{ autoComplete: "off" }} />
        <div className="grid gap-5 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <InputField meta={fields.town} label="Town" />
          <InputField
            meta={fields.postcode}
            label="Postcode (optional)"
            inputProps={{ autoCapitalize: "characters" }}
          />
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <InputField meta={fields.latitude} label="Latitude (optional)" kind="decimal" />
          <InputField meta={fields.longitude} label="Longitude (optional)" kind="decimal" />
        </div>
        <p className="-mt-2 text-sm text-muted">
          {mapsKey
            ? "Filled in when you pick a place. They put the pin on the event's map."
            : "They put the pin on the event's map link. Copy them from any map: right-click the spot."}
        </p>
        <input
          type="hidden"
          name={fields.placeId.name}
          defaultValue={String(fields.placeId.initialValue ?? "")}
          key={fields.placeId.key}
        />
      </FormSection>

      <FormSection
        id="sales"
        title="Capacity and sales"
        description="Each ticket type can have its own limit and sales window; these apply to the event as a whole."
      >
        <InputField
          meta={fields.capacity}
          label="Capacity (optional)"
          kind="number"
          hint="The most people admitted across every ticket type. Leave empty when only the ticket types limit it."
        />
        <TimeWindowFields
          start={{
            meta: fields.salesStartAt,
            label: "Sales open (optional)",
            hint: "Empty: on sale as soon as it is published.",
          }}
          end={{ meta: fields.salesEndAt, label: "Sales close (optional)", hint: "Empty: when the event ends." }}
        />
      </FormSection>

      <FormSection
        id="applications"
        title="Show-car applications"
        description="Members apply to show their car; you approve or reject each application."
      >
        <Checkbox meta={fields.applicationsOpen}>Members can apply to show a car at this event</Checkbox>
        <div className="grid gap-5 sm:grid-cols-2">
          <InputField meta={fields.applicationsDeadline} label="Deadline (optional)" kind="datetime-local" />
          <InputField meta={fields.applicationSpots} label="Cars wanted (optional)" kind="number" />
          <InputField
            meta={fields.applicationFee}
            label="Fee (optional)"
            kind="money"
            prefix={symbol}
            hint="Paid once approved."
          />
        </div>
        <TextAreaField
          meta={fields.applicationCriteria}
          label="What you are looking for (optional)"
          rows={4}
          hint="Markdown. Shown to members before they apply."
        />
      </FormSection>

      <FormSection id="promotion" title="Home page and members">
        <Checkbox meta={fields.headline}>
          Headline event: leads the home page while it is the next one coming up
        </Checkbox>
        <Checkbox meta={fields.membersEvent}>
          Members' event: a valid member card (of a tier that admits to members' events) lets its holder in at the gate
        </Checkbox>
      </FormSection>
    </RecordForm>
  );
}
