import type { ComponentPropsWithoutRef } from "react";

const VARIANTS = {
  /** A raised panel. Padding is the caller's: a form, a figure and a row of links each want their own. */
  panel: "rounded-2xl border border-line bg-surface-raised",
  /** Rows one under another with a rule between them; rows that colour on hover add `overflow-hidden`. */
  list: "divide-y divide-line rounded-2xl border border-line bg-surface-raised",
  /** Where a list stands while it has nothing in it: a dashed outline around a short note. */
  empty: "rounded-2xl border border-dashed border-line text-center",
} as const;

type CardTag = "article" | "details" | "div" | "li" | "ol" | "p" | "section" | "ul";

export type CardProps<Tag extends CardTag> = {
  /** The element it is: a list for rows, a section for a titled panel… (default div). */
  as?: Tag;
  variant?: keyof typeof VARIANTS;
  className?: string;
} & Omit<ComponentPropsWithoutRef<Tag>, "className">;

/** The site's rounded, outlined box, in its three uses. */
export function Card<Tag extends CardTag = "div">({ as, variant = "panel", className, ...props }: CardProps<Tag>) {
  // The props were checked against the chosen tag above; React needs only one element type here.
  const Element = (as ?? "div") as "div";
  const attributes = props as ComponentPropsWithoutRef<"div">;
  return <Element className={className ? `${VARIANTS[variant]} ${className}` : VARIANTS[variant]} {...attributes} />;
}
