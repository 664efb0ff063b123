import { type FieldMetadata, getInputProps, getSelectProps } from "@conform-to/react";
import { type ChangeEvent, type ReactNode, useState } from "react";
import { FieldErrors, inputClass } from "~/ui/form";
import {
  COUNTRIES,
  type CountryCode,
  formatPhoneAsYouType,
  isCountry,
  PHONE_FIELD_MAX_LENGTH,
  PHONE_PLACEHOLDER,
} from "./phone";

type TextField = FieldMetadata<string | undefined | null>;

/**
 * The phone field: a country dropdown and the number, formatted for that country as it is typed. A
 * number typed in international form ("+33 …") moves the dropdown to its country. Without
 * JavaScript both fields are posted as typed and the server reads them with the same rules.
 */
export function PhoneInput({
  country: countryMeta,
  phone: phoneMeta,
  defaultCountry,
  label = "Phone number",
  hint,
}: {
  country: TextField;
  phone: TextField;
  defaultCountry: string;
  label?: string;
  hint?: ReactNode;
}) {
  const [country, setCountry] = useState<CountryCode | "">(() => {
    const initial = countryMeta.initialValue ?? defaultCountry;
    return isCountry(initial) ? initial : "";
  });
  const [number, setNumber] = useState(phoneMeta.initialValue ?? "");
  const hintId = `${phoneMeta.id}-hint`;
  const { key: _countryKey, ...selectProps } = getSelectProps(countryMeta, { value: false });
  const { key: _phoneKey, ...phoneProps } = getInputProps(phoneMeta, {
    type: "tel",
    value: false,
    ariaDescribedBy: hint ? hintId : undefined,
  });

  function onCountryChange(event: ChangeEvent<HTMLSelectElement>) {
    const next = event.currentTarget.value;
    if (!isCountry(next)) return;
    setCountry(next);
    if (!number.trim().startsWith("+")) setNumber(formatPhoneAsYouType(number, next).text);
  }

  function onNumberChange(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const typed = input.value;
    const formatted = formatPhoneAsYouType(typed, country || "GB");
    if (formatted.country && formatted.country !== country) setCountry(formatted.country);
    // Reformatting while deleting, or while editing the middle, would fight the caret.
    const deleting = (event.nativeEvent as InputEvent).inputType?.startsWith("delete");
    const atEnd = input.selectionStart === typed.length;
    setNumber(deleting || !atEnd || !country ? typed : formatted.text);
  }

  return (
    <div className="space-y-4">
      <div className="space-y-1.5">
        <label htmlFor={countryMeta.id} className="block font-semibold">
          Country
        </label>
        <select
          {...selectProps}
          value={country}
          onChange={onCountryChange}
          className={inputClass(Boolean(countryMeta.errors))}
        >
          {country ? null : <option value="">Choose a country</option>}
          {COUNTRIES.map((option) => (
            <option key={option.code} value={option.code}>
              {`${option.flag} ${option.name} (+${option.callingCode})`}
            </option>
          ))}
        </select>
        <FieldErrors id={countryMeta.errorId} errors={countryMeta.errors} />
      </div>
      <div className="space-y-1.5">
        <label htmlFor={phoneMeta.id} className="block font-semibold">
          {label}
        </label>
        <input
          {...phoneProps}
          value={number}
          onChange={onNumberChange}
          maxLength={PHONE_FIELD_MAX_LENGTH}
          placeholder={PHONE_PLACEHOLDER}
          autoComplete="tel"
          inputMode="tel"
          className={inputClass(Boolean(phoneMeta.errors))}
        />
        {hint ? (
          <p id={hintId} className="text-sm text-muted">
            {hint}
          </p>
        ) : null}
        <FieldErrors id={phoneMeta.errorId} errors={phoneMeta.errors} />
      </div>
    </div>
  );
}
