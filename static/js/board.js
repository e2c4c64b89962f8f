// The organiser's live board and the end-of-session list.
import { tickCountdowns } from "./lib/clock.js";
import { followLive, localTimes } from "./lib/live.js";

const live = document.querySelector("[data-live-url]");
if (live) {
  // The board asks for what changed since the version it shows (the page came with one):
  // the lists above the roster are replaced, and only the roster rows that changed. A row
  // it does not list (a character added) or a roster of another length: it asks for the
  // whole board at once.
  let version = live.dataset.version || null;
  const whole = live.dataset.liveUrl;
  followLive(live, 3, {
    url: () => (version ? `${whole}?since=${encodeURIComponent(version)}` : whole),
    apply: (data, refresh) => {
      if (data.full) {
        live.innerHTML = data.html;
        version = data.version;
        return;
      }
      const list = live.querySelector(".roster-list");
      let lost = !list;
      for (const row of data.rows) {
        const shown = list?.querySelector(`:scope > li[data-character="${row.id}"]`);
        if (shown) shown.outerHTML = row.html;
        else lost = true;
      }
      live.querySelector("[data-board-sections]").innerHTML = data.sections_html;
      if (lost || list.children.length !== data.count) {
        version = null;
        refresh.forget();
        setTimeout(refresh, 0);
      } else {
        version = data.version;
      }
    },
  });
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
