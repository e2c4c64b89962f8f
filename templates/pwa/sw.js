// larp_app's service worker (a module): the referee app with no network.
// - Scripts, styles, icons and the QR decoder (wasm included) are precached at install, in a
//   cache named by the version; older caches go when a new worker takes over.
// - Pages: the network first (a few seconds at most), then the copy kept. The scanner and
//   the console's shell are kept once logged in (a page asks, "keep-shells"); any console
//   address is answered offline with the shell, which fills itself from IndexedDB.
// - Every page kept is kept in each language, one cache a language: offline the phone
//   shows it in the language its referee chose, even one chosen with no network
//   (lib/language.js).
// - Background Sync sends the outbox where the browser has it (pages send it too).
import { syncOutbox } from {{ outbox|tojson }};
import { phoneLanguage } from {{ language|tojson }};

const VERSION = {{ version|tojson }};
const STATIC = `larp-static-${VERSION}`;
const LANGUAGES = {{ languages|tojson }};
const pagesIn = (lang) => `larp-pages-${VERSION}-${lang}`;
const PRECACHE = {{ precache|tojson }};
const SHELLS = {{ shells|tojson }};
const CONSOLE_SHELL = {{ console_shell|tojson }};
const API = {{ api|tojson }};
const CONSOLE = /\/console\/\d+$/;
const KEPT = [/\/scan$/, CONSOLE, /\/p\/[0-9A-Za-z]+$/];
const NETWORK_WAIT_MS = 4000; // a phone at the edge of the Wi-Fi: do not hang on it
// A page kept in another language than the asking page's is asked again after this long
// (the asking page's own language: at every asking).
const OTHER_LANGUAGE_MS = 15 * 60_000;

// A page as the logged-in referee (or the player) sees it, in the language `lang` (not the
// login page a redirect would give), kept under its own address in that language's cache.
async function keep(url, lang) {
  try {
    const asked = `${url}${url.includes("?") ? "&" : "?"}lang=${encodeURIComponent(lang)}`;
    const response = await fetch(asked, { credentials: "same-origin", cache: "reload" });
    if (response.ok && !response.redirected) await (await caches.open(pagesIn(lang))).put(url, response);
    // (Not kept, e.g. the login page: its body let go, so its connection serves others.)
    else await response.body?.cancel();
  } catch {
    // kept at the next asking instead
  }
}

// Keep `url` in every language: in `lang` (the asking page's) always, in the others when
// missing or kept long ago, or in every one when `again`.
async function keepInEveryLanguage(url, lang, again = false) {
  await Promise.all(
    LANGUAGES.map(async (each) => {
      if (each !== lang && !again) {
        const kept = await (await caches.open(pagesIn(each))).match(url);
        const at = Date.parse(kept?.headers.get("Date") ?? "");
        if (kept && Date.now() - at < OTHER_LANGUAGE_MS) return;
      }
      await keep(url, each);
    }),
  );
}

// The page kept for `key` in the phone's language, else in any language kept.
async function kept(key) {
  const chosen = await phoneLanguage().catch(() => null);
  for (const lang of [chosen, ...LANGUAGES]) {
    if (!LANGUAGES.includes(lang)) continue;
    const hit = await (await caches.open(pagesIn(lang))).match(key);
    if (hit) return hit;
  }
  return null;
}

const PRECACHE_TRIES = 3;
const SHELLS_AT_INSTALL_MS = 10_000;

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

const keepShells = (lang) => Promise.all(SHELLS.map((url) => keepInEveryLanguage(url, lang)));

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(STATIC);
      // Past the browser's HTTP cache: the files of this version, not yesterday's. Each file
      // is tried a few times (event Wi-Fi, a busy server): one lost answer must not throw the
      // whole install away; a file still missing after that fails the install, and the page
      // registers the worker again at its next load.
      await Promise.all(PRECACHE.map((url) => precache(cache, url)));
      // The shells of a referee already logged in; not waited for long: every logged-in
      // page asks for them again (netbar.js), and an install left waiting on one slow
      // answer would leave the phone with no worker at all.
      await withTimeout(keepShells(), SHELLS_AT_INSTALL_MS).catch(() => {});
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const current = [STATIC, ...LANGUAGES.map(pagesIn)];
      for (const name of await caches.keys()) {
        if (name.startsWith("larp-") && !current.includes(name)) {
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
  const { keep: path, lang, again } = event.data ?? {};
  if (event.data?.keepShells) event.waitUntil(keepShells(lang));
  // A player's page asks to be kept, for a look at the last state with no network (`again`:
  // its state changed, every language's copy is kept anew).
  if (typeof path === "string" && KEPT.some((pattern) => pattern.test(path))) {
    event.waitUntil(keepInEveryLanguage(path, lang, Boolean(again)));
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
  try {
    const response = await withTimeout(fetch(request), NETWORK_WAIT_MS);
    const lang = response.headers.get("Content-Language");
    if (!shell && response.ok && !response.redirected && LANGUAGES.includes(lang)) {
      await (await caches.open(pagesIn(lang))).put(path, response.clone());
    }
    return response;
  } catch (error) {
    const hit = await kept(shell ?? path);
    if (hit) return hit;
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
