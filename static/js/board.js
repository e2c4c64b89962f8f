// The organiser's live board and the end-of-session list. The board polls its JSON twin
// (ETag: a 304 when nothing changed) and swaps in the live part; countdowns tick on the phone
// from timestamps (lib/clock.js), so they stay right after the phone sleeps.
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

const tick = tickCountdowns();
localTimes(document);

const live = document.querySelector("[data-live-url]");
if (live) {
  const refresh = poll(
    live.dataset.liveUrl,
    (data) => {
      live.innerHTML = data.html;
      localTimes(live);
      tick();
    },
    Number(live.dataset.seconds) || 3,
  );
  // A countdown at zero (a death, a status ending): ask the server now, not at the next poll.
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

// One tap closes the session once: a second tap would find no one dying any more.
for (const form of document.querySelectorAll("form.end-session")) {
  form.addEventListener("submit", () => {
    for (const button of form.querySelectorAll("button[type=submit]")) button.disabled = true;
  });
}
