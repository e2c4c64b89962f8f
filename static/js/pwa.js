// Every page registers the service worker (the app then works offline and can be installed),
// and offers a new version when one is waiting: "Update" makes it take over and reloads.
// Its language switcher works with no network too (lib/language.js).
import { followTheSwitcher } from "./lib/language.js";

followTheSwitcher().catch(() => {
  // no IndexedDB here: the switcher is the server's form alone
});
const bar = document.querySelector("[data-update]");

// Night mode: one tap, remembered on the phone (and in a cookie, so that pages come dark
// from the server without a flash of the day theme).
const THEME_KEY = "larp_app-theme";
function setTheme(night) {
  document.documentElement.toggleAttribute("data-theme", night);
  if (night) document.documentElement.dataset.theme = "night";
  for (const toggle of document.querySelectorAll("[data-theme-toggle]")) {
    toggle.setAttribute("aria-pressed", String(night));
  }
  try {
    localStorage.setItem(THEME_KEY, night ? "night" : "day");
  } catch {
    // private mode: the cookie still remembers
  }
  const age = night ? 365 * 24 * 3600 : 0;
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `theme=${night ? "night" : "day"}; path=/; max-age=${age}; SameSite=Lax${secure}`;
}
let stored = null;
try {
  stored = localStorage.getItem(THEME_KEY);
} catch {
  stored = null;
}
setTheme(stored ? stored === "night" : document.documentElement.dataset.theme === "night");
for (const toggle of document.querySelectorAll("[data-theme-toggle]")) {
  toggle.addEventListener("click", () =>
    setTheme(document.documentElement.dataset.theme !== "night"),
  );
}

function offer(worker) {
  if (!bar || !worker || !navigator.serviceWorker.controller) return; // a first install
  bar.hidden = false;
  bar.querySelector("button").addEventListener("click", () => worker.postMessage("skip-waiting"));
}

async function register() {
  const registration = await navigator.serviceWorker.register(bar.dataset.worker, {
    type: "module",
    scope: bar.dataset.scope,
  });
  offer(registration.waiting);
  navigator.serviceWorker.ready.then((ready) => {
    if (!navigator.serviceWorker.controller) ready.active?.postMessage("claim");
  });
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed") offer(worker);
    });
  });
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!bar.hidden && !reloading) {
      reloading = true;
      location.reload();
    }
  });
}

if ("serviceWorker" in navigator && bar) {
  register().catch(() => {
    // not a secure context, or no module workers: the app works online only
  });
}

// Logging out leaves nothing on the phone that names a badge (entries waiting stay).
const logout = document.querySelector("form[data-logout]");
logout?.addEventListener("submit", async (event) => {
  if (logout.dataset.forgotten) return;
  event.preventDefault();
  try {
    const { forgetRoster } = await import("./lib/roster.js");
    await forgetRoster();
  } catch {
    // no IndexedDB here: nothing to forget
  }
  logout.dataset.forgotten = "yes";
  logout.requestSubmit();
});
