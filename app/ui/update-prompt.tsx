import { RefreshCw } from "lucide-react";
import { useEffect, useState } from "react";

/**
 * When a new service worker has installed and waits, offer a reload instead of switching
 * versions under the reader's feet.
 */
export function UpdatePrompt() {
  const [waiting, setWaiting] = useState<ServiceWorker | null>(null);

  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    let cancelled = false;
    const watch = (registration: ServiceWorkerRegistration) => {
      if (registration.waiting && navigator.serviceWorker.controller) setWaiting(registration.waiting);
      registration.addEventListener("updatefound", () => {
        const worker = registration.installing;
        worker?.addEventListener("statechange", () => {
          if (!cancelled && worker.state === "installed" && navigator.serviceWorker.controller) setWaiting(worker);
        });
      });
    };
    navigator.serviceWorker.getRegistration().then((registration) => {
      if (registration && !cancelled) watch(registration);
    });
    let reloading = false;
    const onControllerChange = () => {
      if (reloading) return;
      reloading = true;
      window.location.reload();
    };
    navigator.serviceWorker.addEventListener("controllerchange", onControllerChange);
    return () => {
      cancelled = true;
      navigator.serviceWorker.removeEventListener("controllerchange", onControllerChange);
    };
  }, []);

  if (!waiting) return null;
  return (
    <div
      role="status"
      className="fixed bottom-4 left-1/2 z-[95] flex w-[min(92vw,28rem)] -translate-x-1/2 items-center gap-3 rounded-2xl bg-asphalt-900 px-4 py-3 text-sm text-white shadow-2xl ring-1 ring-white/10"
    >
      <span className="flex-1">A new version of this site is available.</span>
      <button
        type="button"
        onClick={() => waiting.postMessage({ type: "SKIP_WAITING" })}
        className="inline-flex items-center gap-1.5 rounded-full bg-accent px-4 py-2 font-bold text-on-accent hover:bg-accent-strong"
      >
        <RefreshCw aria-hidden className="size-4" />
        Reload
      </button>
    </div>
  );
}
