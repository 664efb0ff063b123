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
    // A worker that finishes installing while another controls the page is a new version.
    const track = (worker: ServiceWorker | null) => {
      if (!worker) return;
      const check = () => {
        if (!cancelled && worker.state === "installed" && navigator.serviceWorker.controller) setWaiting(worker);
      };
      check();
      worker.addEventListener("statechange", check);
    };
    // `ready` also covers a first visit whose worker activates later. The update may have
    // started before this runs, so a worker already installing or waiting counts too.
    navigator.serviceWorker.ready.then((registration) => {
      if (cancelled) return;
      track(registration.waiting);
      track(registration.installing);
      registration.addEventListener("updatefound", () => track(registration.installing));
    });
    // A first install also changes the controller (the worker claims open pages): only a
    // worker replacing another one is a new version, and then the page reloads onto it.
    let controller = navigator.serviceWorker.controller;
    let reloading = false;
    const onControllerChange = () => {
      const replaced = controller;
      controller = navigator.serviceWorker.controller;
      if (!replaced || reloading) return;
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
