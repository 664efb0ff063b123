import { Download, X } from "lucide-react";
import { useEffect, useState } from "react";
import { useSite } from "./site";

type InstallPromptEvent = Event & { prompt(): Promise<void>; userChoice: Promise<{ outcome: string }> };
const DISMISSED_KEY = "pitlane:install-dismissed";

/**
 * The install-the-app prompt on phones. Chrome and Android offer a real install button;
 * Safari on iOS gets the Share → Add to Home Screen hint. Hidden once installed or dismissed.
 */
export function MobileBanner() {
  const site = useSite();
  const [installEvent, setInstallEvent] = useState<InstallPromptEvent | null>(null);
  const [iosHint, setIosHint] = useState(false);
  const [dismissed, setDismissed] = useState(true);

  useEffect(() => {
    const standalone = window.matchMedia("(display-mode: standalone)").matches;
    let wasDismissed = false;
    try {
      wasDismissed = localStorage.getItem(DISMISSED_KEY) === "1";
    } catch {}
    if (standalone || wasDismissed) return;
    setDismissed(false);
    const isIos = /iphone|ipad|ipod/i.test(navigator.userAgent) && !("MSStream" in window);
    setIosHint(isIos);
    const onPrompt = (event: Event) => {
      event.preventDefault();
      setInstallEvent(event as InstallPromptEvent);
    };
    window.addEventListener("beforeinstallprompt", onPrompt);
    return () => window.removeEventListener("beforeinstallprompt", onPrompt);
  }, []);

  if (dismissed || (!installEvent && !iosHint)) return null;
  const dismiss = () => {
    setDismissed(true);
    try {
      localStorage.setItem(DISMISSED_KEY, "1");
    } catch {}
  };
  return (
    <aside
      aria-label="Install the app"
      className="fixed inset-x-3 bottom-3 z-[80] flex items-center gap-3 rounded-2xl bg-asphalt-900 p-3 text-white shadow-2xl ring-1 ring-white/10 md:hidden"
    >
      <img src="/icons/icon-120.png" alt="" width={40} height={40} className="size-10 rounded-xl" />
      <p className="flex-1 text-sm leading-snug">
        <strong className="block">Get the {site.name} app</strong>
        {installEvent ? "Tickets and your garage, one tap away." : "Tap Share, then Add to Home Screen."}
      </p>
      {installEvent ? (
        <button
          type="button"
          onClick={async () => {
            await installEvent.prompt();
            dismiss();
          }}
          className="inline-flex items-center gap-1 rounded-full bg-accent px-3 py-2 text-sm font-bold text-on-accent"
        >
          <Download aria-hidden className="size-4" /> Install
        </button>
      ) : null}
      <button type="button" onClick={dismiss} className="grid size-9 place-items-center rounded-full hover:bg-white/10">
        <X aria-hidden className="size-5" />
        <span className="sr-only">Dismiss</span>
      </button>
    </aside>
  );
}
