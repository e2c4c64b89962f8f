// The player's page: polls its JSON twin (ETag: a 304 when nothing changed) and swaps in the
// live part; countdowns tick on the phone from timestamps (lib/clock.js), never from a counter,
// so they are right again the moment a sleeping phone wakes up.
import { poll } from "./lib/api.js";
import { msUntil, tickCountdowns } from "./lib/clock.js";

// Instants in the phone's own time zone (the server writes them in UTC).
function localTimes(root) {
  for (const el of root.querySelectorAll("time[data-local]")) {
    el.textContent = new Date(el.getAttribute("datetime")).toLocaleTimeString([], {
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hour12: false,
    });
  }
}

const live = document.querySelector("[data-live-url]");
if (live) {
  const tick = tickCountdowns(live);
  localTimes(live);
  const refresh = poll(
    live.dataset.liveUrl,
    (data) => {
      live.innerHTML = data.html;
      localTimes(live);
      tick();
    },
    Number(live.dataset.seconds) || 5,
  );
  // A countdown at zero (death, a status ending, a point of energy): ask the server now.
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
