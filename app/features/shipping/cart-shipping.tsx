import { MapPin, Truck } from "lucide-react";
import type { ReactNode } from "react";
import { Card } from "~/ui/card";
import { FieldErrors, inputClass } from "~/ui/form";
import { formatMoney } from "~/ui/money";
import type { ShippingAddress } from "../../../db/schema";
import type { AddressErrors, AddressField, AddressValues } from "./address";
import { attachPlaces } from "./places-autocomplete";
import type { CartShippingOptions } from "./shipping.server";

/**
 * CartPayment's shipping part (docs/shop.md "Shipping"): how the merch reaches the buyer. Its
 * fields belong to the Pay form (`form` attribute), so the one Pay button sends them, without
 * JavaScript too. Which half shows follows the checked radio through CSS alone, and the order
 * summary shows the matching shipping line and total the same way.
 */

export const PAY_FORM_ID = "pay-form";
const COLLECTION_RADIO_ID = "shipping-collection";

/** Sent back by the Pay action when it refused: what was typed and a message per field. */
export type SentShipping = {
  method: "delivery" | "collection" | null;
  collectionEventId: string | null;
  address: AddressValues;
  errors: AddressErrors;
};

/**
 * Shows `delivery` normally and `collection` instead while the collection radio is checked, for
 * a part of the page inside the element marked `group/cart`.
 */
export function ByShippingMethod({ delivery, collection }: { delivery: ReactNode; collection: ReactNode }) {
  return (
    <>
      <span className="group-has-[#shipping-collection:checked]/cart:hidden">{delivery}</span>
      <span className="hidden group-has-[#shipping-collection:checked]/cart:inline">{collection}</span>
    </>
  );
}

function AddressInput({
  field,
  label,
  autoComplete,
  values,
  errors,
  required = false,
  hint,
  onFocus,
}: {
  field: AddressField;
  label: string;
  autoComplete: string;
  values: Partial<AddressValues>;
  errors: AddressErrors;
  required?: boolean;
  hint?: string;
  onFocus?: (input: HTMLInputElement) => void;
}) {
  const id = `address-${field}`;
  const error = errors[field];
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block font-semibold">
        {label}
        {required ? null : <span className="font-normal text-muted"> (optional)</span>}
      </label>
      <input
        id={id}
        name={`address.${field}`}
        form={PAY_FORM_ID}
        autoComplete={autoComplete}
        defaultValue={values[field] ?? ""}
        maxLength={field === "postcode" ? 12 : 120}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onFocus={onFocus ? (event) => onFocus(event.currentTarget) : undefined}
        className={inputClass(Boolean(error))}
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={`${id}-error`} errors={error ? [error] : undefined} />
    </div>
  );
}

/** One way the merch can come, as a radio card: its icon and name over a line that says what it costs. */
function MethodChoice({
  id,
  value,
  checked,
  icon: Icon,
  label,
  note,
}: {
  id: string;
  value: "delivery" | "collection";
  checked: boolean;
  icon: typeof Truck;
  label: string;
  note: string;
}) {
  return (
    <label className="flex items-start gap-3 rounded-xl border border-line p-3 has-[:checked]:border-accent">
      <input
        id={id}
        type="radio"
        name="shippingMethod"
        value={value}
        form={PAY_FORM_ID}
        defaultChecked={checked}
        className="mt-1 size-5 shrink-0 accent-[var(--color-accent)]"
      />
      <span>
        <span className="flex items-center gap-2 font-bold">
          <Icon aria-hidden className="size-4 text-accent-ink" /> {label}
        </span>
        <span className="block text-sm text-muted">{note}</span>
      </span>
    </label>
  );
}

/** The address inputs in the order they are asked, the town and after it side by side. */
const ADDRESS_INPUTS: { field: AddressField; label: string; autoComplete: string; required?: boolean }[] = [
  { field: "name", label: "Full name", autoComplete: "shipping name", required: true },
  { field: "line1", label: "Address line 1", autoComplete: "shipping address-line1", required: true },
  { field: "line2", label: "Address line 2", autoComplete: "shipping address-line2" },
  { field: "town", label: "Town or city", autoComplete: "shipping address-level2", required: true },
  { field: "region", label: "County, region or state", autoComplete: "shipping address-level1" },
  { field: "postcode", label: "Postcode", autoComplete: "shipping postal-code", required: true },
];
const SIDE_BY_SIDE_FROM = ADDRESS_INPUTS.findIndex((input) => input.field === "town");

function addressValues(
  sent: SentShipping | null,
  saved: ShippingAddress | null,
  country: string,
): Partial<AddressValues> {
  if (sent) return sent.address;
  if (saved) return { ...saved, line2: saved.line2 ?? "", region: saved.region ?? "" };
  return { country };
}

export function CartShipping({
  options,
  currency,
  sent,
}: {
  options: CartShippingOptions;
  currency: string;
  sent: SentShipping | null;
}) {
  const price = (minor: number) => formatMoney(minor, currency);
  const errors = sent?.errors ?? {};
  const canCollect = options.collectionEvents.length > 0;
  const method = canCollect && sent?.method === "collection" ? "collection" : "delivery";
  const values = addressValues(sent, options.savedAddress, options.countries[0]?.code ?? "");
  const countryError = errors.country;
  const postcodeHint =
    options.countries.length === 1
      ? `For example ${options.countries[0]!.example}`
      : `For example ${options.countries.map((country) => `${country.example} (${country.name})`).join(", ")}`;
  const deliveryNote =
    options.deliveryFee === 0
      ? "Free delivery on this order."
      : options.freeOver !== null
        ? `${price(options.flatFee)}, free when your merch comes to ${price(options.freeOver)} or more.`
        : `${price(options.flatFee)} per order.`;
  const places = options.placesScriptUrl;
  const countries = options.countries.map((country) => country.code);
  // Line 1 offers the Places suggestions when they are set up; the postcode says what one looks like.
  const hints: Partial<Record<AddressField, string>> = {
    line1: places ? "Start typing to pick your address from suggestions." : undefined,
    postcode: postcodeHint,
  };
  const addressInput = (input: (typeof ADDRESS_INPUTS)[number]) => (
    <AddressInput
      key={input.field}
      {...input}
      values={values}
      errors={errors}
      hint={hints[input.field]}
      onFocus={input.field === "line1" && places ? (element) => attachPlaces(element, places, countries) : undefined}
    />
  );
  return (
    <section
      aria-labelledby="cart-shipping"
      className="space-y-3 [&:has(#shipping-collection:checked)_[data-delivery]]:hidden [&:has(#shipping-delivery:checked)_[data-collection]]:hidden"
    >
      <h2 id="cart-shipping" className="wide text-xl font-extrabold">
        Delivery
      </h2>
      <Card className="space-y-5 p-5 sm:p-6">
        <fieldset className="space-y-2">
          <legend className="font-semibold">How should your merch reach you?</legend>
          <MethodChoice
            id="shipping-delivery"
            value="delivery"
            checked={method === "delivery"}
            icon={Truck}
            label="Delivery by post"
            note={deliveryNote}
          />
          {canCollect ? (
            <MethodChoice
              id={COLLECTION_RADIO_ID}
              value="collection"
              checked={method === "collection"}
              icon={MapPin}
              label="Collect at an event"
              note="Free: pick it up at the gate of an event you are going to."
            />
          ) : null}
        </fieldset>

        {canCollect ? (
          <div data-collection className="space-y-1.5">
            <label htmlFor="collection-event" className="block font-semibold">
              Event to collect at
            </label>
            <select
              id="collection-event"
              name="collectionEventId"
              form={PAY_FORM_ID}
              defaultValue={sent?.collectionEventId ?? options.collectionEvents[0]!.id}
              className={inputClass(false)}
            >
              {options.collectionEvents.map((event) => (
                <option key={event.id} value={event.id}>
                  {event.title} — {event.when}
                </option>
              ))}
            </select>
          </div>
        ) : null}

        <fieldset data-delivery className="space-y-4">
          <legend className="font-semibold">Delivery address</legend>
          {ADDRESS_INPUTS.slice(0, SIDE_BY_SIDE_FROM).map(addressInput)}
          <div className="grid gap-4 sm:grid-cols-2">
            {ADDRESS_INPUTS.slice(SIDE_BY_SIDE_FROM).map(addressInput)}
            <div className="space-y-1.5">
              <label htmlFor="address-country" className="block font-semibold">
                Country
              </label>
              <select
                id="address-country"
                name="address.country"
                form={PAY_FORM_ID}
                autoComplete="shipping country"
                defaultValue={values.country ?? ""}
                aria-invalid={countryError ? true : undefined}
                aria-describedby={countryError ? "address-country-error" : undefined}
                className={inputClass(Boolean(countryError))}
              >
                {options.countries.map((country) => (
                  <option key={country.code} value={country.code}>
                    {country.name}
                  </option>
                ))}
              </select>
              <FieldErrors id="address-country-error" errors={countryError ? [countryError] : undefined} />
            </div>
          </div>
        </fieldset>
      </Card>
    </section>
  );
}
