import { WifiOff } from "lucide-react";
import { useSyncExternalStore } from "react";

function subscribe(callback: () => void) {
  window.addEventListener("online", callback);
  window.addEventListener("offline", callback);
  return () => {
    window.removeEventListener("online", callback);
    window.removeEventListener("offline", callback);
  };
}

/** Follows the browser's connectivity events (`online` and `offline`). */
function useOnline() {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <div
      role="status"
      className="fixed inset-x-0 bottom-0 z-[90] flex items-center justify-center gap-2 bg-asphalt-100 px-4 py-3 text-sm font-medium text-asphalt-900 shadow-lg dark:bg-asphalt-800 dark:text-asphalt-50"
    >
      <WifiOff aria-hidden className="size-4" />
      You are offline. Anything that needs the internet will wait until you are back.
    </div>
  );
}
