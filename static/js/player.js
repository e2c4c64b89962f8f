// The player's page: its live part follows the server by itself (lib/live.js). Offline (in
// a cellar, or opened from the service worker's copy) it shows the last state this phone
// saw, says at once as of when, and its countdowns keep running from their timestamps.
import { followLive } from "./lib/live.js";
import { streamFor } from "./lib/push.js";

const live = document.querySelector("[data-live-url]");
const age = document.querySelector("[data-age]");
// The live part as last seen, in the page's language (the page is kept in each language).
const LANG = document.documentElement.lang;
const KEY = `larp_app:${LANG}:${location.pathname}`;
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
  const lang = LANG || undefined;
  const showAge = () => {
    age.hidden = !unconfirmed;
    if (age.hidden) return;
    const time = new Date(seen).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
    const minutes = Math.max(0, Math.floor((Date.now() - seen) / 60_000));
    age.textContent = `⚠ ${age.dataset.text.replace("%(time)s", time).replace("%(n)s", minutes)}`;
  };
  let answers = 0;
  followLive(live, 5, {
    stream: streamFor(location.pathname), // /push/p/<the player link>
    changed: (data) => {
      localStorage.setItem(KEY, JSON.stringify({ html: data.html, at: Date.now() }));
      // A change after the first answer (the state the page came with): every language's
      // copy shows the new state too.
      if (answers++ > 0) keep(true);
    },
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

// Kept by the service worker in every language, this page opens with no network too, in the
// language chosen on the phone (`again`: the state changed since the copies were kept).
function keep(again = false) {
  const asked = { keep: location.pathname, lang: LANG, again };
  navigator.serviceWorker?.ready.then((r) => r.active?.postMessage(asked));
}
keep();
