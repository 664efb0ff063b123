import type { InputHTMLAttributes, ReactNode } from "react";
import { InputField } from "./form-fields";
import type { FieldLike } from "./light-form";

/** A time zone's name as people read it: "America/New_York" is "America/New York". */
export function zoneName(timeZone: string) {
  return timeZone.replace(/_/g, " ");
}

type WindowEnd = {
  meta: FieldLike;
  label: string;
  hint?: ReactNode;
};

/**
 * When something opens and closes (an event's days, its sales, a draw's entries, a ticket type's
 * sales): two local date-times side by side, typed in the zone the form names.
 */
export function TimeWindowFields({
  start,
  end,
  inputProps,
}: {
  start: WindowEnd;
  end: WindowEnd;
  /** Given to both inputs: `disabled` for terms that are fixed. */
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
}) {
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      {[start, end].map((side) => (
        <InputField
          key={side.meta.name}
          meta={side.meta}
          label={side.label}
          kind="datetime-local"
          hint={side.hint}
          inputProps={inputProps}
        />
      ))}
    </div>
  );
}
