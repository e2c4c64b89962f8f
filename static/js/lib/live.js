// A page's live part, kept fresh: poll its JSON twin (ETag: a 304 when nothing changed), swap
// in the HTML it carries, and ask again at once when a countdown reaches zero. Countdowns tick
// from timestamps (clock.js), so they are right again the moment a sleeping phone wakes up.
import { poll } from "./api.js";
import { msUntil, tickCountdowns } from "./clock.js";

// Instants in the phone's own time zone (the server writes them in UTC), in the page language.
export function localTimes(root) {
  const lang = document.documentElement.lang || undefined;
  for (const el of root.querySelectorAll("time[data-local]")) {
    el.textContent = new Date(el.getAttribute("datetime")).toLocaleTimeString(lang, {
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
  }
}

// `hooks.changed(data)` hears each new answer, `hooks.reached()` each time the server answered,
// `hooks.failed()` each time it did not (offline, no answer, a server error). `hooks.url()`:
// the address to ask each time (else the live part's own); `hooks.apply(data, refresh)`: puts
// an answer in the page (else its `html` replaces the live part whole); `hooks.stream`: the
// push server's stream of its changes (lib/api.js `poll`).
export function followLive(live, seconds, hooks = {}) {
  const tick = tickCountdowns(live);
  localTimes(live);
  const refresh = poll(
    hooks.url ?? live.dataset.liveUrl,
    (data) => {
      if (hooks.apply) hooks.apply(data, refresh);
      else live.innerHTML = data.html;
      localTimes(live);
      tick();
      hooks.changed?.(data);
    },
    Number(live.dataset.seconds) || seconds,
    () => hooks.reached?.(),
    () => hooks.failed?.(),
    hooks.stream,
  );
  const asked = new Set();
  setInterval(() => {
    for (const el of live.querySelectorAll("[data-refresh-at-zero]")) {
      const until = el.dataset.until;
      if (!asked.has(until) && msUntil(until) <= 0) {
        asked.add(until);
        setTimeout(refresh, 500);
      }
    }
  }, 250);
}
