// Registers the service worker (/sw.js, served by core/pwa.py) that lets the site install as an
// app and show a page of its own when the network is gone. Its address is the script tag's
// data-service-worker (a module has no document.currentScript).
const tag = document.querySelector("script[data-service-worker]");

if (tag && "serviceWorker" in navigator) {
  // After the page's own requests: the worker's first install fetches the shell.
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(tag.dataset.serviceWorker).catch((error) => {
      // A browser that refuses workers (private windows, some settings) still has the site.
      console.warn("The offline page is not available:", error);
    });
    // The worker shows the offline page in the language this page speaks (once it is active:
    // on the first visit, after it installs).
    navigator.serviceWorker.ready.then((registration) => {
      registration.active?.postMessage({ language: document.documentElement.lang });
    });
  });
}
