import { Search } from "lucide-react";
import type { ChangeEvent, ReactNode } from "react";

// The search and filters in the dark header of a public catalogue (/events, /community): one
// GET form, so it works before scripts load and every result has its own address.

const control =
  "h-12 w-full min-w-0 rounded-xl border border-white/15 bg-white/[0.06] px-3 text-base sm:px-4 text-white transition-colors hover:border-white/30 focus:border-accent-strong";
const labelClass = "mb-1.5 block text-xs font-bold uppercase tracking-[0.16em] text-asphalt-300";

// A choice in a select shows its results at once; the search box waits for Enter or the button.
const submitOnChange = (event: ChangeEvent<HTMLSelectElement>) => event.currentTarget.form?.requestSubmit();

export function FilterSearch({
  id,
  value,
  placeholder,
  maxLength,
}: {
  id: string;
  value: string;
  placeholder: string;
  maxLength: number;
}) {
  return (
    <div className="col-span-2 lg:col-span-1">
      <label htmlFor={id} className={labelClass}>
        Search
      </label>
      <input
        id={id}
        type="search"
        name="q"
        defaultValue={value}
        maxLength={maxLength}
        placeholder={placeholder}
        className={`${control} placeholder:text-asphalt-400`}
      />
    </div>
  );
}

export function FilterSelect({
  id,
  name,
  label,
  value,
  wide = false,
  children,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  /** Full width on phones (the last filter of an odd row). */
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={wide ? "col-span-2 lg:col-span-1" : undefined}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select id={id} name={name} defaultValue={value} onChange={submitOnChange} className={control}>
        {children}
      </select>
    </div>
  );
}

export function FilterSubmit({ children }: { children: ReactNode }) {
  return (
    <button
      type="submit"
      className="col-span-2 inline-flex h-12 items-center justify-center gap-2 rounded-xl bg-accent px-6 font-bold text-on-accent transition-colors hover:bg-accent-strong lg:col-span-1"
    >
      <Search aria-hidden className="size-5" />
      {children}
    </button>
  );
}
