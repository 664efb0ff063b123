import { CheckCircle2, Info, X } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { useRootData } from "./site";

/** How long a success message stays before it fades. */
const SUCCESS_SHOWN_MS = 8000;

/**
 * The one-time message a form leaves after redirecting ("Your password has been changed").
 * Success fades on its own; an error or a notice stays until it is dismissed, since a message
 * that vanishes on a timer is lost to anyone who reads slowly (WCAG 2.2.1).
 */
export function FlashMessage() {
  const flash = useRootData()?.flash ?? null;
  const [shown, setShown] = useState(flash);
  useEffect(() => {
    setShown(flash);
    if (flash?.kind !== "success") return;
    const timer = window.setTimeout(() => setShown(null), SUCCESS_SHOWN_MS);
    return () => window.clearTimeout(timer);
  }, [flash]);
  if (!shown) return null;
  const Icon = shown.kind === "success" ? CheckCircle2 : Info;
  return (
    <div
      role={shown.kind === "error" ? "alert" : "status"}
      className="fixed left-1/2 top-20 z-[95] flex w-[min(92vw,32rem)] -translate-x-1/2 items-start gap-3 rounded-2xl bg-asphalt-900 px-4 py-3 text-white shadow-2xl ring-1 ring-white/10"
    >
      <Icon aria-hidden className="mt-0.5 size-5 shrink-0 text-accent-strong" />
      <p className="flex-1">
        {shown.message}
        {shown.link ? (
          <Link to={shown.link.href} className="ml-2 font-bold text-accent-strong underline">
            {shown.link.label}
          </Link>
        ) : null}
      </p>
      <button type="button" onClick={() => setShown(null)} className="rounded-full p-1 hover:bg-white/10">
        <X aria-hidden className="size-4" />
        <span className="sr-only">Dismiss</span>
      </button>
    </div>
  );
}
