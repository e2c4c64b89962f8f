// The roster a referee's phone keeps in IndexedDB: refreshed from the server while online,
// read when offline. Badges are kept as hashes (the server's services/roster.py makes the
// same ones), so a lost phone can name a badge it is shown but cannot make one.
import { newest } from "./fresh.js";
import { announce, get, getAll, put, result, transaction } from "./store.js";

const STORES = ["events", "characters", "badges", "meta"];

// Fetch the whole roster and replace the phone's copy, except a character's state where the
// phone already holds a newer one (an entry's answer that arrived while the roster was on
// its way). Logged out (the session was ended, as for a lost phone): the copy is wiped.
// Returns true when the roster is fresh, false when the server answered without it,
// "unreachable" when it did not answer.
export async function refreshRoster(api) {
  let response;
  try {
    const signal = AbortSignal.timeout(20_000);
    response = await fetch(`${api}/roster`, { credentials: "same-origin", signal });
  } catch {
    return "unreachable"; // offline, or no answer: keep what the phone has
  }
  if (response.status === 401 || response.status === 403) {
    await forgetRoster();
    await put("meta", true, "loggedOut");
    return false;
  }
  if (!response.ok) return false;
  const roster = await response.json();
  const now = Date.now();
  await transaction(STORES, "readwrite", async (tx) => {
    const kept = new Map(
      (await result(tx.objectStore("characters").getAll())).map((c) => [c.id, c]),
    );
    for (const name of ["events", "characters", "badges"]) tx.objectStore(name).clear();
    for (const event of roster.events) tx.objectStore("events").put(event);
    for (const character of roster.characters) {
      const known = kept.get(character.id);
      const state = newest(known?.state, character.state);
      const stateAt = state === character.state ? now : known.stateAt;
      tx.objectStore("characters").put({ ...character, state, stateAt });
    }
    for (const [hash, id] of Object.entries(roster.badges)) tx.objectStore("badges").put(id, hash);
    tx.objectStore("meta").put(now, "rosterAt");
    tx.objectStore("meta").put(now, "lastSync"); // phone and server agree as of now
    tx.objectStore("meta").put(false, "loggedOut");
  });
  announce({ type: "roster" });
  return true;
}

// A lost phone's session was ended: it keeps nothing that names a badge (its outbox stays,
// sent after the next login).
export const forgetRoster = () =>
  transaction(STORES, "readwrite", (tx) => {
    for (const name of STORES) tx.objectStore(name).clear();
  });

export const character = (id) => get("characters", id);
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

// The character a badge names on this phone's roster, or null.
export async function findBadge(presented) {
  if (!crypto.subtle) return null; // not a secure context: no offline lookup
  const text = badgeText(presented);
  for (const { id } of await events()) {
    const found = await get("badges", await sha256(`larp_app:${id}:${text}`));
    if (found !== undefined) return character(found);
  }
  return null;
}
