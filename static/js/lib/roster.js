// The roster a referee's phone keeps in IndexedDB: refreshed from the server while online,
// read when offline. Badges are kept as hashes (the server's reads/roster.py makes the
// same ones), so a lost phone can name a badge it is shown but cannot make one.
import { newest } from "./fresh.js";
import { announce, get, getAll, put, result, transaction } from "./store.js";

const STORES = ["events", "characters", "badges", "meta"];

// Bring the phone's roster up to date: fetched whole once, then only what changed since the
// version the phone holds (a 304 of no body when nothing did). A character's state is kept
// where the phone already holds a newer one (an entry's answer that arrived while the
// roster was on its way). Logged out (the session was ended, as for a lost phone): the copy
// is wiped. Returns true when the roster is fresh, false when the server answered without
// it, "unreachable" when it did not answer. Calls made while one is under way (the status
// bar and the console at a page's load) share it.
//
// The work is done by a worker of the page's own (roster-worker.js): a big event's roster
// is megabytes of JSON to read and thousands of characters to write, and the page's thread
// stays free for the referee's taps. A browser that cannot start it does it here.
let running = null;

export function refreshRoster(api) {
  running ??= inWorker(api).finally(() => {
    running = null;
  });
  return running;
}

function inWorker(api) {
  if (typeof Worker === "undefined" || typeof document === "undefined") return refreshHere(api);
  return new Promise((resolve, reject) => {
    let worker;
    const done = (answer) => {
      worker?.terminate();
      resolve(answer);
    };
    try {
      worker = new Worker(new URL("./roster-worker.js", import.meta.url), { type: "module" });
    } catch {
      done(refreshHere(api));
      return;
    }
    worker.onmessage = ({ data }) => {
      if (data.failed === undefined) return done(data.answer);
      worker.terminate();
      reject(new Error(data.failed));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      done(refreshHere(api)); // (no module workers here: the same work, on this thread)
    };
    worker.postMessage({ api });
  });
}

export async function refreshHere(api) {
  const [held, etag, kept] = await Promise.all([
    get("meta", "rosterVersion"),
    get("meta", "rosterETag"),
    getAll("events"),
  ]);
  let response;
  try {
    // The events' kits it holds: a change answers those with their digest alone.
    const kits = kept.map((e) => e.kit).filter(Boolean).join(",");
    const asked = held ? `?since=${encodeURIComponent(held)}${kits ? `&kits=${kits}` : ""}` : "";
    const url = `${api}/roster${asked}`;
    const headers = held && etag ? { "If-None-Match": etag } : {};
    const signal = AbortSignal.timeout(20_000);
    response = await fetch(url, { credentials: "same-origin", headers, signal });
  } catch {
    return "unreachable"; // offline, or no answer: keep what the phone has
  }
  if (response.status === 401 || response.status === 403) {
    await forgetRoster();
    await put("meta", true, "loggedOut");
    return false;
  }
  const now = Date.now();
  if (response.status === 304) {
    await transaction(["meta"], "readwrite", (tx) => {
      tx.objectStore("meta").put(now, "rosterAt");
      tx.objectStore("meta").put(now, "lastSync");
    });
    return true;
  }
  if (!response.ok) return false;
  const roster = await response.json();
  await keep(roster, response.headers.get("ETag"), now);
  announce({ type: "roster" });
  return true;
}

// A roster of thousands of characters is written a few hundred at a time, each piece its
// own transaction, yielding to the page between them so that it never freezes. The version
// is written last: a refresh cut short (the page closed) leaves a phone that asks again,
// whole when the cut one was whole.
const CHUNK = 250;
const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

async function keep(roster, etag, now) {
  let lost = false; // a kit answered as held that the phone no longer holds
  await transaction(STORES, "readwrite", async (tx) => {
    const stores = Object.fromEntries(STORES.map((name) => [name, tx.objectStore(name)]));
    if (roster.full) {
      for (const name of ["characters", "badges"]) stores[name].clear();
      stores.meta.delete("rosterVersion"); // whole again, until this one is all written
    }
    // Every answer lists every event; a kit the phone holds comes as its id and digest.
    const kept = new Map();
    await Promise.all(
      roster.events.map(async (event) => {
        if (!event.ruleset) kept.set(event.id, await result(stores.events.get(event.id)));
      }),
    );
    stores.events.clear();
    for (const event of roster.events) {
      const whole = event.ruleset ? event : kept.get(event.id);
      if (whole?.kit === event.kit) stores.events.put(whole);
      else lost = true;
    }
    for (const hash of roster.revoked || []) stores.badges.delete(hash);
    for (const id of roster.withdrawn || []) stores.characters.delete(id);
  });
  for (let start = 0; start < roster.characters.length; start += CHUNK) {
    await pause();
    const chunk = roster.characters.slice(start, start + CHUNK);
    await transaction(["characters"], "readwrite", async (tx) => {
      const store = tx.objectStore("characters");
      const kept = await Promise.all(chunk.map((c) => result(store.get(c.id))));
      chunk.forEach((character, n) => {
        const known = kept[n];
        const state = newest(known?.state, character.state);
        const stateAt = state === character.state ? now : known.stateAt;
        store.put({ ...character, state, stateAt });
      });
    });
  }
  const badges = Object.entries(roster.badges);
  for (let start = 0; start < badges.length; start += CHUNK * 4) {
    await pause();
    await transaction(["badges"], "readwrite", (tx) => {
      const store = tx.objectStore("badges");
      for (const [hash, id] of badges.slice(start, start + CHUNK * 4)) store.put(id, hash);
    });
  }
  await transaction(["meta"], "readwrite", (tx) => {
    const meta = tx.objectStore("meta");
    if (lost) meta.delete("rosterVersion"); // whole at the next ask
    else meta.put(roster.version, "rosterVersion");
    meta.put(etag, "rosterETag");
    meta.put(now, "rosterAt");
    meta.put(now, "lastSync"); // phone and server agree as of now
    meta.put(false, "loggedOut");
  });
}

// A lost phone's session was ended, or its user logged out: it keeps nothing that names a
// badge (its outbox stays, sent after its author's next login), nor the pages the service
// worker kept for that user (the scanner and the console's shell, with their name and
// events): the next user's login keeps their own.
export async function forgetRoster() {
  await transaction(STORES, "readwrite", (tx) => {
    for (const name of STORES) tx.objectStore(name).clear();
  });
  if (!globalThis.caches) return;
  for (const name of await caches.keys()) {
    if (name.startsWith("larp-pages-")) await caches.delete(name);
  }
}

export const character = (id) => get("characters", id);

// An event's kit in the page's language `lang`: the kit holds its words in every language
// (a referee may switch with no network); one kept before that has the roster's only.
export const inLanguage = (event, lang) => ({ ...event, ...(event?.languages?.[lang] ?? {}) });
export const event = (id) => get("events", id);
export const rosterAt = () => get("meta", "rosterAt");
export const events = () => getAll("events");
export const characters = () => getAll("characters");

// Keep the last state the server gave for a character (from a poll or an answer), unless
// the phone holds a newer one. Resolves with the state kept.
export const saveState = (id, state) =>
  transaction(["characters"], "readwrite", async (tx) => {
    const store = tx.objectStore("characters");
    const known = await result(store.get(id));
    if (!known) return state;
    const kept = newest(known.state, state);
    if (kept === state) store.put({ ...known, state, stateAt: Date.now() });
    return kept;
  });

// What a badge presents, as the server stores it: a short code as K7M-Q2X-9HP, or the
// secret inside a scanned URL (.../b/SECRET?v=1). Mirrors larp_app/tokens.py.
export function badgeText(presented) {
  const text = presented.trim();
  const symbols = text
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, "")
    .replace(/O/g, "0")
    .replace(/[IL]/g, "1");
  if (symbols.length === 9) return symbols.match(/.{3}/g).join("-");
  const path = text.includes("/b/") ? new URL(text, location.href).pathname : text;
  return path.split("/b/").at(-1).replace(/^\/+|\/+$/g, "").toUpperCase();
}

async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// The character a badge names on this phone's roster, or null. The roster holds each
// badge as the SHA-256 of the event and of the digest the server keeps (reads/roster.py).
export async function findBadge(presented) {
  if (!crypto.subtle) return null; // not a secure context: no offline lookup
  const text = badgeText(presented);
  const digest = await sha256(text);
  for (const { id } of await events()) {
    // A roster fetched before the server kept digests held sha256 of the text itself.
    for (const salted of [`larp_app:${id}:${digest}`, `larp_app:${id}:${text}`]) {
      const found = await get("badges", await sha256(salted));
      if (found !== undefined) return character(found);
    }
  }
  return null;
}
