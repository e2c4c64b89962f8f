// A small IndexedDB in memory, enough for static/js/lib/store.js under node: databases,
// object stores (out-of-line keys or one keyPath), transactions that complete once their
// requests are answered, and get / getAll / put / delete.
const databases = new Map();

const later = (fn) => setTimeout(fn, 0);

function keyOf(store, value, key) {
  if (!store.keyPath) return key;
  return store.keyPath.split(".").reduce((v, part) => v?.[part], value);
}

class Request {
  constructor() {
    this.onsuccess = null;
    this.onerror = null;
  }
}

class Transaction {
  constructor(db, names) {
    this.db = db;
    this.names = names;
    this.pending = 0;
    this.done = false;
    this.oncomplete = null;
    this.onerror = null;
    this.onabort = null;
    later(() => this.settle());
  }

  request(work) {
    const request = new Request();
    this.pending += 1;
    later(() => {
      request.result = work();
      this.pending -= 1;
      request.onsuccess?.({ target: request });
      later(() => this.settle());
    });
    return request;
  }

  settle() {
    if (this.done || this.pending > 0) return;
    this.done = true;
    this.oncomplete?.();
  }

  objectStore(name) {
    if (!this.names.includes(name)) throw new Error(`${name} is not in this transaction`);
    const store = this.db.stores.get(name);
    const copy = (v) => (v === undefined ? v : structuredClone(v));
    return {
      get: (key) => this.request(() => copy(store.rows.get(key))),
      getAll: () => this.request(() => [...store.rows.values()].map(copy)),
      put: (value, key) =>
        this.request(() => {
          const k = keyOf(store, value, key);
          store.rows.set(k, structuredClone(value));
          return k;
        }),
      delete: (key) => this.request(() => store.rows.delete(key) && undefined),
    };
  }
}

class Database {
  constructor() {
    this.stores = new Map();
  }

  createObjectStore(name, options = {}) {
    this.stores.set(name, { keyPath: options.keyPath ?? null, rows: new Map() });
  }

  transaction(names, _mode) {
    return new Transaction(this, Array.isArray(names) ? names : [names]);
  }
}

export const indexedDB = {
  open(name, _version) {
    const request = new Request();
    request.onupgradeneeded = null;
    later(() => {
      let db = databases.get(name);
      if (!db) {
        db = new Database();
        databases.set(name, db);
        request.result = db;
        request.onupgradeneeded?.();
      }
      request.result = db;
      request.onsuccess?.();
    });
    return request;
  },
};
