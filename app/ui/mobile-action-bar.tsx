import type { ReactNode } from "react";

/**
 * The page's main action kept in reach on phones: a bar that sticks to the bottom of
 * the screen while the page's main content scrolls by, and settles at the end of it, so it never
 * covers the footer. Place it last in the page's `<main>`; hidden from tablets up, where the
 * action is on screen beside the content.
 */
export function MobileActionBar({ children, className = "" }: { children: ReactNode; className?: string }) {
  return (
    <div
      className={`dark-band sticky bottom-0 z-30 flex items-center justify-between gap-4 border-t border-white/10 bg-asphalt-950/95 px-4 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] text-white shadow-[0_-8px_24px_rgb(0_0_0/0.25)] backdrop-blur md:hidden ${className}`}
    >
      {children}
    </div>
  );
}
