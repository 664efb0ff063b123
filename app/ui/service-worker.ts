/** Registers /sw.js with root scope; the update prompt listens for the waiting worker. */
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || import.meta.env.DEV) return;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      // Without a service worker the site works as a normal website.
    });
  });
}
