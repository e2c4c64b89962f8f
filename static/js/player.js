// The player's page: its live part follows the server by itself (lib/live.js). Offline (in
// a cellar, or opened from the service worker's copy) it shows the last state this phone
// saw, says how old it is, and its countdowns keep running from their timestamps.
import { followLive } from "./lib/live.js";

const live = document.querySelector("[data-live-url]");
const age = document.querySelector("[data-age]");
const KEY = `larp_app:${location.pathname}`;
const STALE_MS = 15_000;

function remembered() {
  try {
    return JSON.parse(localStorage.getItem(KEY));
  } catch {
    return null;
  }
}

if (live) {
  let seen = Date.parse(live.dataset.renderedAt) || Date.now();
  const kept = remembered();
  if (kept?.at > seen) {
    live.innerHTML = kept.html;
    seen = kept.at;
  }
  const showAge = () => {
    const old = Date.now() - seen;
    age.hidden = old < STALE_MS;
    age.textContent = `⚠ ${age.dataset.text.replace("%(n)s", Math.floor(old / 60_000))}`;
  };
  followLive(live, 5, {
    changed: (data) => localStorage.setItem(KEY, JSON.stringify({ html: data.html, at: Date.now() })),
    reached: () => {
      seen = Date.now();
      const known = remembered();
      if (known) localStorage.setItem(KEY, JSON.stringify({ ...known, at: seen }));
      showAge();
    },
  });
  setInterval(showAge, 5000);
  showAge();
}

// Kept by the service worker, this page opens with no network too.
const keep = { keep: location.pathname, lang: document.documentElement.lang };
navigator.serviceWorker?.ready.then((r) => r.active?.postMessage(keep));
