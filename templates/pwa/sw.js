{% autoescape off %}// The service worker (core/pwa.py serves it at /sw.js, so its scope is the whole site).
//
// It stores one thing: the shell, the offline page in every language and the files it is drawn
// with, in a cache named after their digest. Pages carry a player's session, hand and coins:
// they always come from the network and are never stored; when the network is gone, a page is
// answered with the offline page in the language the reader's pages last spoke. POSTs, the
// sockets (/ws/, which no worker sees) and everything else pass.
const CACHE = "shell-{{ version }}";
// The offline page's address in each language, by language code.
const OFFLINE = {{ offline }};
const DEFAULT_LANGUAGE = {{ default_language }};
// Where the cache keeps the language the reader's pages last spoke (a marker, not a page).
const SPOKEN = "/offline/spoken";
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
      // The language the reader's pages spoke survives a new shell.
      const current = await caches.open(CACHE);
      for (const name of await caches.keys()) {
        if (name === CACHE) continue;
        const marker = await caches.match(SPOKEN, { cacheName: name });
        if (marker && !(await current.match(SPOKEN))) await current.put(SPOKEN, marker);
        await caches.delete(name);
      }
      // The page's request starts while the worker wakes, so a page costs no extra wait.
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    })(),
  );
});

// Every page of the site says its language (static/js/pwa.js), the first one too, which the
// worker did not see arrive.
self.addEventListener("message", (event) => {
  const language = event.data && event.data.language;
  if (typeof language === "string") event.waitUntil(speak(language));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    const page = Promise.resolve(event.preloadResponse).then((early) => early || fetch(request));
    event.respondWith(page.catch(offlinePage));
    event.waitUntil(page.then((sent) => speak(sent.headers.get("Content-Language")), () => {}));
  } else if (IN_SHELL.has(request.url)) {
    event.respondWith(fromShell(request));
  }
});

// Reads name the cache and writes check it is still there: caches.open() would make it again
// after a newer worker has deleted it.
function stored(request) {
  return caches.match(request, { cacheName: CACHE });
}

// The language the reader's pages last spoke, remembered in the cache across the worker's
// restarts (the site's default before any page spoke).
let spoken = null;

async function spokenLanguage() {
  if (spoken === null) {
    const marker = await stored(SPOKEN);
    const language = marker ? await marker.text() : DEFAULT_LANGUAGE;
    spoken = spoken || (Object.hasOwn(OFFLINE, language) ? language : DEFAULT_LANGUAGE);
  }
  return spoken;
}

async function speak(language) {
  if (!language || !Object.hasOwn(OFFLINE, language)) return;
  if (language === (await spokenLanguage()) || !(await caches.has(CACHE))) return;
  spoken = language;
  await (await caches.open(CACHE)).put(SPOKEN, new Response(language));
}

async function offlinePage() {
  return (await stored(OFFLINE[await spokenLanguage()])) || Response.error();
}

async function fromShell(request) {
  if (HASHED_NAMES) return (await stored(request)) || fetch(request);
  try {
    return await fetch(request);
  } catch (error) {
    return (await stored(request)) || Promise.reject(error);
  }
}
{% endautoescape %}
