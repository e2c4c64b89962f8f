// Every page registers the service worker (the app then works offline and can be installed),
// and offers a new version when one is waiting: "Update" makes it take over and reloads.
const bar = document.querySelector("[data-update]");

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
