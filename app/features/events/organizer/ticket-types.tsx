import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { CalendarRange, EyeOff, Pencil } from "lucide-react";
import { useMemo } from "react";
import { Form, Link } from "react-router";
import { formatLocalDay } from "~/features/dates/event-dates";
import type { PriceTier } from "~/features/forms/fields";
import { Badge } from "~/ui/badge";
import { Checkbox, FieldErrors, FormErrors, SubmitButton } from "~/ui/form";
import { FormSection, InputField, TextAreaField } from "~/ui/form-fields";
import { useLiveForm } from "~/ui/live-form";
import { currencySymbol, formatMoney } from "~/ui/money";
import { TimeWindowFields, zoneName } from "~/ui/time-window";
import type { TicketTypesPage } from "./queries.server";
import {
  LIMITS,
  type TicketTypeFormDefaults,
  type TicketTypeFormShape,
  type TicketTypeInput,
  ticketTypeFields,
  ticketTypeSchema,
} from "./schemas";

type TicketEvent = TicketTypesPage["event"];
type TicketType = TicketTypesPage["ticketTypes"][number];

function daysLabel(days: string[], eventDays: string[]) {
  if (eventDays.length <= 1) return null;
  if (days.length === eventDays.length) return `Pass · all ${days.length} days`;
  if (days.length > 1) return `Pass · ${days.map(formatLocalDay).join(", ")}`;
  return days[0] ? formatLocalDay(days[0]) : null;
}

const smallButton =
  "inline-flex items-center gap-1.5 rounded-full px-3 py-1.5 text-sm font-semibold ring-1 ring-line hover:bg-surface-sunken";

/** One ticket type as the organizer manages it: price, days, sales, and what can be done with it. */
export function TicketTypeCard({
  type,
  event,
  tiers,
  currency,
  error,
  readOnly,
}: {
  type: TicketType;
  event: TicketEvent;
  tiers: readonly PriceTier[];
  currency: string;
  error?: string[];
  readOnly: boolean;
}) {
  const days = daysLabel(type.days, event.days);
  const share = type.capacity ? Math.min(1, type.sold / type.capacity) : 0;
  const tierPrices = tiers.flatMap((tier) => {
    const price = type.tierPrices[tier.id];
    return price === undefined ? [] : [`${tier.name} members pay ${formatMoney(price, currency)}`];
  });
  return (
    <li id={`ticket-${type.id}`} className={`space-y-3 p-4 sm:p-5 ${type.hidden ? "bg-surface" : ""}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h3 className="flex flex-wrap items-center gap-2 text-lg font-bold">
            {type.name}
            {type.hidden ? (
              <Badge tone="quiet" className="bg-surface-sunken">
                <EyeOff aria-hidden className="size-3.5" /> Hidden
              </Badge>
            ) : null}
          </h3>
          {days ? (
            <p className="flex items-center gap-1.5 text-sm font-semibold text-accent-ink">
              <CalendarRange aria-hidden className="size-4" /> {days}
            </p>
          ) : null}
          {type.description ? <p className="line-clamp-2 max-w-prose text-sm text-muted">{type.description}</p> : null}
          {type.memberPrice !== null || tierPrices.length > 0 || type.membersOnly || type.memberSalesStartAt ? (
            <p className="text-sm">
              {[
                type.membersOnly ? "Members only" : null,
                type.memberPrice !== null ? `Members pay ${formatMoney(type.memberPrice, currency)}` : null,
                ...tierPrices,
                type.memberSalesLabel ? `Members' presale from ${type.memberSalesLabel}` : null,
              ]
                .filter(Boolean)
                .join(" · ")}
            </p>
          ) : null}
        </div>
        <p className="wide tabular text-2xl font-black">
          {type.price === 0 ? "Free" : formatMoney(type.price, currency)}
        </p>
      </div>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-muted">Sold</dt>
          <dd className="tabular font-semibold">
            {type.sold}
            {type.capacity ? ` / ${type.capacity}` : " · no limit"}
          </dd>
          {type.capacity ? (
            <dd aria-hidden className="mt-1 h-1 overflow-hidden rounded-full bg-surface-sunken">
              <span className="block h-full rounded-full bg-accent" style={{ width: `${Math.round(share * 100)}%` }} />
            </dd>
          ) : null}
        </div>
        <div>
          <dt className="text-muted">Per order</dt>
          <dd className="tabular font-semibold">Up to {type.maxPerOrder}</dd>
        </div>
        <div className="col-span-2">
          <dt className="text-muted">Sales</dt>
          <dd className="font-semibold">
            {type.salesLabel.opens || type.salesLabel.closes
              ? [
                  type.salesLabel.opens ? `from ${type.salesLabel.opens}` : null,
                  type.salesLabel.closes ? `until ${type.salesLabel.closes}` : null,
                ]
                  .filter(Boolean)
                  .join(" ")
              : "The event's sales window"}
          </dd>
        </div>
      </dl>
      {error?.length ? <FormErrors id={`ticket-${type.id}-error`} errors={error} /> : null}
      {readOnly ? null : (
        <div className="flex flex-wrap gap-2">
          <Link to={`?edit=${type.id}#edit-ticket`} className={smallButton}>
            <Pencil aria-hidden className="size-4" /> Edit<span className="sr-only"> {type.name}</span>
          </Link>
          <Form method="post" className="contents">
            <input type="hidden" name="ticketTypeId" value={type.id} />
            <button type="submit" name="intent" value={type.hidden ? "show" : "hide"} className={smallButton}>
              {type.hidden ? "Show" : "Hide"}
              <span className="sr-only"> {type.name}</span>
            </button>
            {type.sold === 0 ? (
              <button
                type="submit"
                name="intent"
                value="delete"
                className={`${smallButton} text-red-700 dark:text-red-300`}
              >
                Delete<span className="sr-only"> {type.name}</span>
              </button>
            ) : null}
          </Form>
        </div>
      )}
    </li>
  );
}

/** Adding a ticket type, or changing one (`ticketTypeId`). */
export function TicketTypeForm({
  event,
  tiers,
  currency,
  ticketTypeId,
  defaultValue,
  lastResult,
}: {
  event: TicketEvent;
  tiers: readonly PriceTier[];
  currency: string;
  ticketTypeId?: string;
  defaultValue: TicketTypeFormDefaults;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { schema, rules } = useMemo(() => {
    const context = { currency, timeZone: event.timeZone, startsAt: event.startsAt, endsAt: event.endsAt, tiers };
    return { schema: ticketTypeSchema(context), rules: ticketTypeFields(context) };
  }, [currency, event.timeZone, event.startsAt, event.endsAt, tiers]);
  const editing = Boolean(ticketTypeId);
  const [form, fields] = useLiveForm<TicketTypeFormShape, TicketTypeInput>({
    id: editing ? `ticket-form-${ticketTypeId}` : "new-ticket-form",
    schema,
    rules,
    lastResult,
    defaultValue,
  });
  const chosenDays = Array.isArray(fields.days.initialValue) ? (fields.days.initialValue as string[]) : [];
  const daysError = fields.days.errors?.length ? fields.days.errorId : undefined;
  const tierFields = fields.tierPrices.getFieldset();
  return (
    <Form method="post" {...getFormProps(form)}>
      <FormSection
        id={editing ? "edit-ticket" : "new-ticket"}
        title={editing ? `Edit “${String(defaultValue.name ?? "")}”` : "Add a ticket type"}
        description={
          editing ? undefined : "A day ticket, a weekend pass, a passenger ride… each with its own price and limit."
        }
      >
        {ticketTypeId ? <input type="hidden" name="ticketTypeId" value={ticketTypeId} /> : null}
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid gap-5 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <InputField meta={fields.name} label="Ticket name" inputProps={{ placeholder: "Day ticket" }} />
          <InputField
            meta={fields.price}
            label="Price"
            kind="money"
            prefix={currencySymbol(currency)}
            hint="0 for free."
          />
        </div>
        <TextAreaField
          meta={fields.description}
          label="Description (optional)"
          rows={2}
          hint={`What it includes, up to ${LIMITS.ticketDescription} characters.`}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <InputField
            meta={fields.capacity}
            label="Tickets available (optional)"
            kind="number"
            hint="Empty: only the event's capacity limits it."
          />
          <InputField meta={fields.maxPerOrder} label="Most per order" kind="number" />
        </div>
        {event.days.length > 1 ? (
          <fieldset
            key={fields.days.key}
            aria-describedby={[`${fields.days.id}-hint`, daysError].filter(Boolean).join(" ")}
            className="space-y-2"
          >
            <legend className="font-semibold">Days it admits to</legend>
            <p id={`${fields.days.id}-hint`} className="text-sm text-muted">
              Tick none for a pass that covers every day. Two days or more make it a pass: buyers name each attendee.
            </p>
            <div className="flex flex-wrap gap-2">
              {event.days.map((day) => (
                <label
                  key={day}
                  className="inline-flex items-center gap-2 rounded-full px-3.5 py-2 ring-1 ring-line has-[:checked]:bg-surface-sunken has-[:checked]:ring-2 has-[:checked]:ring-accent"
                >
                  <input
                    type="checkbox"
                    name={fields.days.name}
                    value={day}
                    defaultChecked={chosenDays.includes(day)}
                    className="size-4 accent-[var(--color-accent)]"
                  />
                  {formatLocalDay(day)}
                </label>
              ))}
            </div>
            <FieldErrors id={fields.days.errorId} errors={fields.days.errors} />
          </fieldset>
        ) : null}
        <TimeWindowFields
          start={{
            meta: fields.salesStartAt,
            label: "On sale from (optional)",
            hint: `In ${zoneName(event.timeZone)}. Empty: the event's sales window.`,
          }}
          end={{ meta: fields.salesEndAt, label: "On sale until (optional)" }}
        />
        <fieldset className="space-y-4 rounded-xl bg-surface-sunken p-4">
          <legend className="px-1 font-semibold">Members</legend>
          <div className="grid gap-5 sm:grid-cols-2">
            <InputField
              meta={fields.memberPrice}
              label={`What members pay (${currencySymbol(currency)}, optional)`}
              kind="money"
              hint="What club members pay. Empty: the same as everyone."
            />
            {tiers.map((tier) => (
              <InputField
                key={tier.id}
                meta={tierFields[tier.id]!}
                label={`What ${tier.name} members pay (${currencySymbol(currency)}, optional)`}
                kind="money"
                hint="Empty: what members pay."
              />
            ))}
            <InputField
              meta={fields.memberSalesStartAt}
              label="Members' presale from (optional)"
              kind="datetime-local"
              hint={`In ${zoneName(event.timeZone)}. Members may buy from then, before the general sale.`}
            />
          </div>
          <Checkbox meta={fields.membersOnly}>Members only: only club members can buy it</Checkbox>
        </fieldset>
        <div className="grid gap-5 sm:grid-cols-2 sm:items-end">
          <InputField meta={fields.sortOrder} label="Position in the list" kind="number" hint="Lower numbers first." />
          <div className="pb-2">
            <Checkbox meta={fields.hidden}>Hidden: not shown or sold</Checkbox>
          </div>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row">
          <SubmitButton name="intent" value={editing ? "update" : "create"} pendingLabel="Saving…" fit>
            {editing ? "Save ticket type" : "Add ticket type"}
          </SubmitButton>
          {editing ? (
            <Link
              to="."
              className="inline-flex items-center justify-center rounded-full px-6 py-3 font-bold ring-1 ring-line hover:bg-surface-sunken"
            >
              Cancel
            </Link>
          ) : null}
        </div>
      </FormSection>
    </Form>
  );
}
