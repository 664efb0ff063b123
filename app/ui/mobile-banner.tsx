import { useEffect, useState } from "react";
import { useSite } from "./site";

type InstallPromptEvent = Event & { prompt(): Promise<void> };
type Offer = { kind: "install"; event: InstallPromptEvent } | { kind: "ios" };
const DISMISSED_KEY = "pitlane:install-dismissed";

/** Two strokes of an icon, drawn inline: an icon package's module would cost the page more than the prompt. */
function Glyph({ d }: { d: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="inline size-4 align-text-bottom"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={d} />
    </svg>
  );
}

/**
 * The install-the-app prompt, on phones only (docs/home.md). The server renders nothing, and so
 * does the browser until it knows this is a phone that has neither installed the site nor
 * dismissed the prompt, and that it can offer something: Chrome and Android's own install
 * (`beforeinstallprompt`), or on iOS the Share → Add to Home Screen steps. It then appears fixed
 * at the bottom of the screen, so nothing on the page moves; dismissing it is remembered.
 */
export function MobileBanner() {
  const site = useSite();
  const [offer, setOffer] = useState<Offer | null>(null);

  useEffect(() => {
    if (!window.matchMedia("(max-width: 767px)").matches) return;
    if (window.matchMedia("(display-mode: standalone)").matches) return;
    try {
      if (localStorage.getItem(DISMISSED_KEY) === "1") return;
    } catch {}
    if (/iphone|ipad|ipod/i.test(navigator.userAgent)) setOffer({ kind: "ios" });
    const onPrompt = (event: Event) => {
      event.preventDefault();
      setOffer({ kind: "install", event: event as InstallPromptEvent });
    };
    window.addEventListener("beforeinstallprompt", onPrompt);
    return () => window.removeEventListener("beforeinstallprompt", onPrompt);
  }, []);

  if (!offer) return null;
  const dismiss = () => {
    setOffer(null);
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
        {offer.kind === "install" ? (
          "Tickets and your garage, one tap away."
        ) : (
          <>
            Tap Share{" "}
            <Glyph d="M12 15V3m-4 4 4-4 4 4M8 11H6a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-7a2 2 0 0 0-2-2h-2" />
            , then Add to Home Screen.
          </>
        )}
      </p>
      {offer.kind === "install" ? (
        <button
          type="button"
          onClick={async () => {
            await offer.event.prompt();
            dismiss();
          }}
          className="inline-flex items-center gap-1 rounded-full bg-accent px-3 py-2 text-sm font-bold text-on-accent"
        >
          Install
        </button>
      ) : null}
      <button
        type="button"
        onClick={dismiss}
        className="grid size-11 place-items-center rounded-full hover:bg-white/10"
      >
        <Glyph d="M18 6 6 18M6 6l12 12" />
        <span className="sr-only">Dismiss</span>
      </button>
    </aside>
  );
}
