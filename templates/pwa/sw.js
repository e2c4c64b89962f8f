// larp_app's service worker (a module): the referee app with no network.
// - Scripts, styles, icons and the QR decoder (wasm included) are precached at install, in a
//   cache named by the version; older caches go when a new worker takes over.
// - Pages: the network first (a few seconds at most), then the copy kept. The scanner and
//   the console's shell are kept once logged in (a page asks, "keep-shells"); any console
//   address is answered offline with the shell, which fills itself from IndexedDB.
// - Background Sync sends the outbox where the browser has it (pages send it too).
import { syncOutbox } from {{ outbox|tojson }};

const VERSION = {{ version|tojson }};
const STATIC = `larp-static-${VERSION}`;
const PAGES = `larp-pages-${VERSION}`;
const PRECACHE = {{ precache|tojson }};
const SHELLS = {{ shells|tojson }};
const CONSOLE_SHELL = {{ console_shell|tojson }};
const API = {{ api|tojson }};
const CONSOLE = /\/console\/\d+$/;
const KEPT = [/\/scan$/, CONSOLE, /\/p\/[0-9A-Za-z]+$/];
const NETWORK_WAIT_MS = 4000; // a phone at the edge of the Wi-Fi: do not hang on it

// The scanner and the console's shell as the logged-in referee sees them (not the login
// page a redirect would give).
// `lang`: the asking page's language, so the kept page speaks it too.
async function keep(url, lang) {
  const headers = lang ? { "Accept-Language": lang } : {};
  try {
    const response = await fetch(url, { credentials: "same-origin", cache: "reload", headers });
    if (response.ok && !response.redirected) await (await caches.open(PAGES)).put(url, response);
  } catch {
    // kept at the next asking instead
  }
}

const PRECACHE_TRIES = 3;

async function precache(cache, url) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const response = await fetch(new Request(url, { cache: "reload" }));
      if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
      await cache.put(url, response);
      return;
    } catch (error) {
      if (attempt >= PRECACHE_TRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

const keepShells = (lang) => Promise.all(SHELLS.map((url) => keep(url, lang)));

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(STATIC);
      // Past the browser's HTTP cache: the files of this version, not yesterday's. Each file
      // is tried a few times (event Wi-Fi, a busy server): one lost answer must not throw the
      // whole install away; a file still missing after that fails the install, and the page
      // registers the worker again at its next load.
      await Promise.all(PRECACHE.map((url) => precache(cache, url)));
      await keepShells();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("larp-") && name !== STATIC && name !== PAGES) {
          await caches.delete(name);
        }
      }
      await self.clients.claim();
    })(),
  );
});

// The page's "Update" button: the waiting worker takes over, and the pages reload.
self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
  // A page loaded while this worker was installing is not controlled by it: it asks, so
  // that what it loads later (a rule system's fold) comes from the cache with no network.
  if (event.data === "claim") event.waitUntil(self.clients.claim());
  const { keep: path, lang } = event.data ?? {};
  if (event.data?.keepShells) event.waitUntil(keepShells(lang));
  // A player's page asks to be kept, for a look at the last state with no network.
  if (typeof path === "string" && KEPT.some((pattern) => pattern.test(path))) {
    event.waitUntil(keep(path, lang));
  }
});

self.addEventListener("sync", (event) => {
  if (event.tag === "outbox") event.waitUntil(syncOutbox(API));
});

function withTimeout(promise, ms) {
  return Promise.race([
    promise,
    new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), ms)),
  ]);
}

async function page(request, path) {
  const shell = CONSOLE.test(path) ? CONSOLE_SHELL : null;
  const cache = await caches.open(PAGES);
  try {
    const response = await withTimeout(fetch(request), NETWORK_WAIT_MS);
    if (!shell && response.ok && !response.redirected) await cache.put(path, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(shell ?? path);
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    if (KEPT.some((pattern) => pattern.test(url.pathname))) {
      event.respondWith(page(request, url.pathname));
    }
    return;
  }
  if (PRECACHE.includes(url.pathname)) {
    event.respondWith(
      caches.match(url.pathname, { cacheName: STATIC }).then((hit) => hit || fetch(request)),
    );
  }
});
