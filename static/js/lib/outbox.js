// The outbox: every entry a referee logs is first stored on the phone, then sent to the
// server, oldest first, by whoever gets there first — the page at once, on the `online`
// event and on a timer, or the service worker on Background Sync. Each entry carries its
// client-made id, so sending it twice stores it once. Works in pages and in the worker.
// Each entry is sent only in its author's session: one logged by someone else (a phone
// passed on, or logged out meanwhile) is held on the phone until its author logs in here,
// and reported to the server once per user as held, so that organisers see it.
import { isNewer } from "./fresh.js";
import { keepVoided } from "./voided.js";
import { announce, getAll, put, remove, transaction } from "./store.js";

const BATCH = 50; // entries a request
const KEEP_MS = 24 * 3600 * 1000; // answered entries are kept a day, for undo and the list

// Store an entry for `character` ({id, kind, at, ...}); it is pending until answered.
// `lang`: the page's language, which the server's refusals are worded in.
export async function queue(character, entry, author, lang) {
  const item = { entry, character, author, lang, status: "pending", queuedAt: Date.now() };
  await put("outbox", item);
  announce({ type: "outbox" });
  return item;
}

// Oldest first: the order of play on this phone.
const byPlay = (a, b) => a.entry.at.localeCompare(b.entry.at) || a.queuedAt - b.queuedAt;

export async function outbox() {
  return (await getAll("outbox")).sort(byPlay);
}

export async function pending() {
  return (await outbox()).filter((item) => item.status === "pending");
}

// One sender at a time across the pages and the worker (Web Locks where there are some).
function exclusively(work) {
  return navigator.locks ? navigator.locks.request("larp_app-outbox", work) : work();
}

// Take back an entry that has not left the phone (an undo): true if it was still pending.
export const takeBack = (id) =>
  exclusively(async () => {
    const item = (await getAll("outbox")).find((i) => i.entry.id === id);
    if (item?.status !== "pending") return false;
    await remove("outbox", id);
    announce({ type: "outbox" });
    return true;
  });

// Forget an answered entry (a refusal the referee has read).
export const forget = (id) => remove("outbox", id);

class SyncStopped extends Error {}

const wire = (item, sentAt) => ({
  ...item.entry,
  character: item.character,
  author: item.author,
  sent_at: sentAt,
});

async function send(api, csrf, items, held = []) {
  const sentAt = new Date().toISOString(); // the phone's clock now: the server corrects `at`
  const response = await fetch(`${api}/sync`, {
    method: "POST",
    credentials: "same-origin",
    headers: {
      "Content-Type": "application/json",
      "X-CSRFToken": csrf,
      ...((items[0] ?? held[0]).lang ? { "Accept-Language": (items[0] ?? held[0]).lang } : {}),
    },
    body: JSON.stringify({
      entries: items.map((item) => wire(item, sentAt)),
      held: held.map((item) => wire(item, sentAt)),
    }),
  });
  if (response.ok) return response.json();
  // A batch the server's database cut part way: the entries answered are answered, every
  // other one stays pending until an answer comes (503: wait, try again).
  const body = await response.json().catch(() => null);
  if (!Array.isArray(body?.results)) throw new SyncStopped(`HTTP ${response.status}`);
  return { ...body, cutShort: body.message || `HTTP ${response.status}` };
}

// What became of an item, from the server's answer (`me`: who sent it). Someone else's
// entry stays pending, reported, whatever the server says of it, unless it is stored (its
// author sent it from another phone): only its author hears why it would be refused.
function answered(item, result, me) {
  const stored = result.status === "stored" || result.status === "duplicate";
  if (!stored && (result.status === "held" || item.author !== me)) {
    return { ...item, heldReportedTo: me };
  }
  if (stored) {
    return { ...item, status: "stored", state: result.state, answeredAt: Date.now() };
  }
  const message = result.message || result.status;
  return { ...item, status: "refused", code: result.code || result.status, message };
}

// Entries waiting on the phone that `me` may not send, by author: {refA: 3}.
export async function heldFor(me) {
  const held = {};
  for (const item of await pending()) {
    if (item.author !== me) held[item.author] = (held[item.author] ?? 0) + 1;
  }
  return held;
}

// Send every pending entry of the user logged in, and report the others' once. Resolves
// with {sent, refused}; throws when the server cannot be reached or refuses the phone
// (logged out): the entries stay pending for the next try.
export function syncOutbox(api = "/api/v1") {
  return exclusively(async () => {
    const waiting = await pending();
    if (waiting.length === 0) return { sent: 0, refused: 0 };
    let me;
    try {
      const signal = AbortSignal.timeout(10_000);
      const response = await fetch(`${api}/me`, { credentials: "same-origin", signal });
      await put("meta", response.status === 401, "loggedOut"); // said on the status bar
      if (!response.ok) throw new SyncStopped(`HTTP ${response.status}`);
      me = await response.json(); // a fresh CSRF token: a page kept for hours has a stale one
    } catch (error) {
      announce({ type: "sync-failed", reason: String(error) });
      throw error;
    }
    const items = waiting.filter((item) => item.author === me.username);
    const unreported = waiting.filter(
      (item) => item.author !== me.username && item.author && item.heldReportedTo !== me.username,
    );
    let sent = 0;
    let refused = 0;
    for (let i = 0; i < Math.max(items.length, unreported.length ? 1 : 0); i += BATCH) {
      const chunk = items.slice(i, i + BATCH);
      const held = i === 0 ? unreported.slice(0, BATCH) : [];
      const { results, conflicts, cutShort } = await send(api, me.csrf_token, chunk, held);
      if (conflicts) await keepVoided(conflicts); // the referee's entries that stopped counting
      const byId = new Map(results.map((r) => [r.id, r]));
      const states = new Map(); // each character's state after its last entry stored
      await transaction(["outbox", "characters", "meta"], "readwrite", (tx) => {
        for (const item of [...chunk, ...held]) {
          const result = byId.get(item.entry.id);
          if (!result) continue;
          const next = answered(item, result, me.username);
          tx.objectStore("outbox").put(next);
          if (next.status === "pending") continue; // held for its author
          if (next.status === "stored") {
            sent += 1;
            if (isNewer(result.state, states.get(item.character))) {
              states.set(item.character, result.state);
            }
          } else refused += 1;
        }
        const characters = tx.objectStore("characters");
        for (const [id, state] of states) {
          const request = characters.get(id);
          request.onsuccess = () => {
            const known = request.result;
            if (known && isNewer(state, known.state)) {
              characters.put({ ...known, state, stateAt: Date.now() });
            }
          };
        }
        tx.objectStore("meta").put(Date.now(), "lastSync");
      });
      announce({ type: "synced", results });
      if (cutShort) {
        announce({ type: "sync-failed", reason: cutShort });
        throw new SyncStopped(cutShort);
      }
    }
    await forgetOld();
    return { sent, refused };
  });
}

async function forgetOld() {
  const old = (await getAll("outbox")).filter(
    (item) => item.status === "stored" && Date.now() - item.answeredAt > KEEP_MS,
  );
  for (const item of old) await remove("outbox", item.entry.id);
}
