// The organiser's live board and the end-of-session list.
import { tickCountdowns } from "./lib/clock.js";
import { followLive, localTimes } from "./lib/live.js";

const live = document.querySelector("[data-live-url]");
if (live) {
  followLive(live, 3);
} else {
  tickCountdowns();
  localTimes(document);
}

// One tap closes the session once: a second tap would find no one dying any more.
for (const form of document.querySelectorAll("form.end-session")) {
  form.addEventListener("submit", () => {
    for (const button of form.querySelectorAll("button[type=submit]")) button.disabled = true;
  });
}
