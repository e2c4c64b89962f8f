// The referee's status bar, and what keeps the phone in step with the server without a
// button: the roster refreshed while online, the outbox sent at once, on the `online` event,
// by Background Sync where the browser has it, and on a timer otherwise.
import { heldFor, outbox, syncOutbox } from "./outbox.js";
import { plural } from "./plural.js";
import { events, refreshRoster, rosterAt } from "./roster.js";
import { get, listen } from "./store.js";

const RETRY_MS = 15_000;
const ROSTER_EVERY_MS = 60_000;

const minutesSince = (ms) => Math.floor((Date.now() - ms) / 60_000);

function ago(words, ms) {
  if (!ms) return words.never;
  const minutes = minutesSince(ms);
  return minutes < 1 ? words.justNow : words.minutesAgo.replace("%(n)s", minutes);
}

// Did a failed request reach the server? No for no network, no answer in time, or a 5xx.
export const unreachable = (error) =>
  ["TypeError", "AbortError", "TimeoutError"].includes(error?.name) ||
  /^HTTP 5/.test(error?.message ?? "");

// Send the outbox now; ask the service worker to send it once the network is back, too.
// (Not awaited: with no service worker, `ready` never settles.) `reached(ok)` hears whether
// the server answered.
export async function sendSoon(api, reached = () => {}) {
  navigator.serviceWorker?.ready
    .then((registration) => registration.sync?.register("outbox"))
    .catch(() => {}); // no Background Sync here: the timer and the `online` event do it
  if (!navigator.onLine) return null;
  try {
    const sent = await syncOutbox(api);
    if (sent.sent || sent.refused) reached(true);
    return sent;
  } catch (error) {
    reached(!unreachable(error));
    return null; // the server did not answer: still pending, tried again soon
  }
}

export function startNetbar(bar) {
  const api = bar.dataset.api;
  const words = { ...bar.querySelector("[data-words]").dataset };
  const set = (selector, text) => {
    bar.querySelector(selector).textContent = text;
  };

  // The browser's online flag says only that there is a network: whether the server answers
  // is what the last request found (null: none has finished yet).
  let reachable = null;
  function reached(ok) {
    if (reachable === ok) return;
    reachable = ok;
    show();
  }

  async function show() {
    const online = navigator.onLine && reachable !== false;
    bar.dataset.online = String(online);
    const net = !navigator.onLine ? words.offline : reachable === false ? words.unreachable : words.online;
    set("[data-net]", `${online ? "●" : "✖"} ${net}`);
    const items = await outbox();
    const me = bar.dataset.me;
    const waiting = items.filter((i) => i.status === "pending" && i.author === me).length;
    set("[data-pending]", words.pending.replace("%(n)s", waiting));
    bar.querySelector("[data-pending]").classList.toggle("attention", waiting > 0);
    const at = await rosterAt();
    set("[data-roster-age]", ago(words, at));
    set("[data-last-sync]", ago(words, await get("meta", "lastSync")));
    const limits = (await events()).map((e) => e.roster_max_age_minutes);
    const limit = limits.length ? Math.min(...limits) : null;
    const old = !at || (limit !== null && minutesSince(at) > limit);
    const loggedOut = bar.querySelector("p[data-logged-out]");
    loggedOut.hidden = !(await get("meta", "loggedOut"));
    loggedOut.querySelector("span").textContent = plural(words, "loggedOutText", waiting);
    // Entries someone else logged on this phone: only they can send them.
    const held = Object.entries(await heldFor(me));
    const heldLine = bar.querySelector("[data-held]");
    heldLine.hidden = held.length === 0;
    heldLine.textContent = held
      .map(([who, n]) => `⚠ ${plural(words, "heldText", n).replaceAll("%(who)s", who)}`)
      .join(" ");
    const warning = bar.querySelector("[data-roster-old]");
    warning.hidden = !old;
    if (old) {
      warning.textContent = at
        ? `⚠ ${words.rosterOld.replace("%(n)s", minutesSince(at)).replace("%(max)s", limit)}`
        : `⚠ ${words.noRoster}`;
    }
  }

  const refresh = () =>
    refreshRoster(api)
      .then((fresh) => reached(fresh !== "unreachable"))
      .then(show);
  const send = () => sendSoon(api, reached).then(show);
  window.addEventListener("online", () => {
    send();
    refresh();
  });
  window.addEventListener("offline", show);
  listen((message) => {
    if (message?.type === "sync-failed") reached(!unreachable({ message: message.reason }));
    show();
  });
  setInterval(async () => {
    if ((await outbox()).some((i) => i.status === "pending")) send();
    else show();
  }, RETRY_MS);
  // Logged in: the service worker keeps the scanner and the console's shell as we see them.
  // Asked again when a worker takes over and with each roster refresh: a request lost while
  // the worker was installing, or a busy server, must not leave the phone without them.
  const lang = document.documentElement.lang;
  const keepShells = () =>
    navigator.serviceWorker?.ready.then((r) => r.active?.postMessage({ keepShells: true, lang }));
  navigator.serviceWorker?.addEventListener("controllerchange", keepShells);
  setInterval(() => {
    if (!navigator.onLine) return;
    refresh();
    keepShells();
  }, ROSTER_EVERY_MS);
  show();
  refresh();
  send();
  keepShells();
  return { show, send, refresh, reached };
}
