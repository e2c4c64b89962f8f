// The phone's own database (IndexedDB), shared by the pages and the service worker:
//   meta        key → value: rosterAt, lastSync (ms since the epoch); rosterVersion and
//               rosterETag, what the roster's next refresh asks changes since
//   events      the roster's events, by id
//   characters  the roster's characters with their last known state, by id
//   badges      hash of a badge secret or short code → character id (never the secret)
//   outbox      entries logged on this phone, by entry id: pending until the server answers
const NAME = "larp_app";
const VERSION = 1;
let opened = null;

export function openStore() {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(NAME, VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore("meta");
      db.createObjectStore("events", { keyPath: "id" });
      db.createObjectStore("characters", { keyPath: "id" });
      db.createObjectStore("badges");
      db.createObjectStore("outbox", { keyPath: "entry.id" });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return opened;
}

export const result = (request) =>
  new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

// Run `work(transaction)` over `stores`; resolves with its value once everything is written.
export async function transaction(stores, mode, work) {
  const db = await openStore();
  const tx = db.transaction(stores, mode);
  const done = new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = tx.onabort = () => reject(tx.error);
  });
  const value = await work(tx);
  await done;
  return value;
}

export const get = (store, key) =>
  transaction([store], "readonly", (tx) => result(tx.objectStore(store).get(key)));

export const getAll = (store) =>
  transaction([store], "readonly", (tx) => result(tx.objectStore(store).getAll()));

export const put = (store, value, key) =>
  transaction([store], "readwrite", (tx) => {
    tx.objectStore(store).put(value, key);
  });

export const remove = (store, key) =>
  transaction([store], "readwrite", (tx) => {
    tx.objectStore(store).delete(key);
  });

// Pages and the service worker tell each other when the outbox or the roster changed:
// `listen` in a page, `announce` from anywhere (the announcer's own listeners hear it too).
const CHANNEL = "larp_app";
export const listen = (onMessage) =>
  new BroadcastChannel(CHANNEL).addEventListener("message", (event) => onMessage(event.data));
export function announce(message) {
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(message);
  channel.close();
}
