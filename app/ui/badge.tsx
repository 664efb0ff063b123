import type { ReactNode } from "react";

const TONES = {
  neutral: "bg-surface-sunken text-text ring-1 ring-line",
  quiet: "text-muted ring-1 ring-line",
  strong: "bg-text text-surface",
  accent: "bg-accent text-on-accent",
  success: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
  warning: "bg-amber-100 text-amber-950 dark:bg-amber-950 dark:text-amber-100",
  danger: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
  // Over a cover photo the soft tones wash out: these are solid, and read on any picture.
  "solid-danger": "bg-red-700 text-white",
  "solid-dark": "bg-asphalt-950 text-white ring-1 ring-white/25",
  "solid-light": "bg-white text-asphalt-900",
} as const;

export type BadgeTone = keyof typeof TONES;

/**
 * A short state in capitals on a pill: "Sold out", "Few left", "Paid", "Draft". Each area maps
 * its states onto a tone; `className` adds what one place needs besides (a shadow over a photo).
 */
export function Badge({ tone, className, children }: { tone: BadgeTone; className?: string; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-bold uppercase tracking-wide ${TONES[tone]}${className ? ` ${className}` : ""}`}
    >
      {children}
    </span>
  );
}
