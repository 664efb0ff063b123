/** Registers /sw.js with root scope; the update prompt listens for the waiting worker. */
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || import.meta.env.DEV) return;
  const register = () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      // Without a service worker the site works as a normal website.
    });
  };
  // Wait for the page to finish loading so the worker's precaching never competes with it. The
  // client entry is imported dynamically, so the load event has often fired already.
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
