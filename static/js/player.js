// The player's page: its live part follows the server by itself (lib/live.js). Offline (in
// a cellar, or opened from the service worker's copy) it shows the last state this phone
// saw, says at once as of when, and its countdowns keep running from their timestamps.
import { followLive } from "./lib/live.js";

const live = document.querySelector("[data-live-url]");
const age = document.querySelector("[data-age]");
const KEY = `larp_app:${location.pathname}`;
// A page rendered longer ago than this is a kept copy, not the server's answer just now.
const KEPT_MS = 10_000;

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
  // Unconfirmed until the server answers: offline, or a copy kept from earlier.
  let unconfirmed = !navigator.onLine || Date.now() - seen > KEPT_MS;
  const lang = document.documentElement.lang || undefined;
  const showAge = () => {
    age.hidden = !unconfirmed;
    if (age.hidden) return;
    const time = new Date(seen).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
    const minutes = Math.max(0, Math.floor((Date.now() - seen) / 60_000));
    age.textContent = `⚠ ${age.dataset.text.replace("%(time)s", time).replace("%(n)s", minutes)}`;
  };
  followLive(live, 5, {
    changed: (data) => localStorage.setItem(KEY, JSON.stringify({ html: data.html, at: Date.now() })),
    reached: () => {
      seen = Date.now();
      unconfirmed = false;
      const known = remembered();
      if (known) localStorage.setItem(KEY, JSON.stringify({ ...known, at: seen }));
      showAge();
    },
    failed: () => {
      unconfirmed = true;
      showAge();
    },
  });
  addEventListener("offline", () => {
    unconfirmed = true;
    showAge();
  });
  setInterval(showAge, 5000);
  showAge();
}

// Kept by the service worker, this page opens with no network too.
const keep = { keep: location.pathname, lang: document.documentElement.lang };
navigator.serviceWorker?.ready.then((r) => r.active?.postMessage(keep));
