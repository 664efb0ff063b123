import { Search } from "lucide-react";
import type { ReactNode } from "react";
import { Form } from "react-router";
import { inputClass } from "./form";

/**
 * The search form above a staff list: a search box (`q`), any filters given as children, and a
 * Search button. A plain GET form, so it works without JavaScript and the address keeps the
 * search; `resetKey` (the current search and filters) redraws it when they change elsewhere.
 */
export function ListSearch({
  id,
  label,
  q,
  resetKey,
  quiet = false,
  className = "",
  children,
}: {
  id: string;
  label: string;
  q: string;
  resetKey: string;
  /** A secondary button, for a page whose main action is elsewhere. */
  quiet?: boolean;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <Form method="get" role="search" className={`flex flex-wrap items-end gap-3 ${className}`} key={resetKey}>
      <div className="min-w-[14rem] flex-1 space-y-1.5">
        <label htmlFor={id} className="block font-semibold">
          {label}
        </label>
        <input
          id={id}
          type="search"
          name="q"
          defaultValue={q}
          maxLength={100}
          className={`${inputClass(false)} h-12`}
        />
      </div>
      {children}
      <button
        type="submit"
        className={
          quiet
            ? "inline-flex h-12 items-center gap-2 rounded-full bg-surface-sunken px-6 font-bold text-text hover:bg-line"
            : "inline-flex items-center gap-2 rounded-full bg-accent px-6 py-3 font-bold text-on-accent hover:bg-accent-strong"
        }
      >
        <Search aria-hidden className="size-4" /> Search
      </button>
    </Form>
  );
}

/** A labelled drop-down filter for ListSearch, from value → label. */
export function ListFilter({
  id,
  name,
  label,
  value,
  options,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  options: Record<string, string>;
}) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block font-semibold">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value} className={`${inputClass(false)} h-12`}>
        {Object.entries(options).map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
