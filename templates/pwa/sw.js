{% autoescape off %}// The service worker (core/pwa.py serves it at /sw.js, so its scope is the whole site).
//
// It stores one thing: the shell, the offline page and the files it is drawn with, in a cache
// named after their digest. Pages carry a player's session, hand and coins: they always come
// from the network and are never stored; when the network is gone, a page is answered with
// the offline page. POSTs, the sockets (/ws/, which no worker sees) and everything else pass.
const CACHE = "shell-{{ version }}";
const OFFLINE = {{ offline }};
const SHELL = {{ shell }};
// In production the static files' names carry a hash of their content, so a stored one is never
// stale; in development a file changes under the same name, so the network answers first there.
const HASHED_NAMES = {{ hashed_names }};
const IN_SHELL = new Set(SHELL.map((url) => new URL(url, self.location.href).href));

self.addEventListener("install", (event) => {
  // A new shell replaces the old one at once: its files are new names in production, and a
  // page that still wants an old one gets it from the network.
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== CACHE) await caches.delete(name);
      }
      // The page's request starts while the worker wakes, so a page costs no extra wait.
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    const page = Promise.resolve(event.preloadResponse).then((early) => early || fetch(request));
    event.respondWith(page.catch(offlinePage));
    event.waitUntil(page.then(speakLike, () => undefined));
  } else if (IN_SHELL.has(request.url)) {
    event.respondWith(fromShell(request));
  }
});

// Reads name the cache and writes check it is still there: caches.open() would make it again
// after a newer worker has deleted it.
function stored(request) {
  return caches.match(request, { cacheName: CACHE });
}

async function offlinePage() {
  return (await stored(OFFLINE)) || Response.error();
}

async function fromShell(request) {
  if (HASHED_NAMES) return (await stored(request)) || fetch(request);
  try {
    return await fetch(request);
  } catch (error) {
    return (await stored(request)) || Promise.reject(error);
  }
}

// The offline page speaks the language of the last page the site sent (its Content-Language):
// after the reader switches languages it is fetched again.
async function speakLike(page) {
  const language = page.headers.get("Content-Language");
  if (!language || !(await caches.has(CACHE))) return;
  const offline = await stored(OFFLINE);
  if (offline && offline.headers.get("Content-Language") === language) return;
  try {
    await (await caches.open(CACHE)).add(OFFLINE);
  } catch {
    // The network went again: the stored page stays until the next page.
  }
}
{% endautoescape %}