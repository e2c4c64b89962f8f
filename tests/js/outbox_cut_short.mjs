// The phone's outbox (static/js/lib/outbox.js) under node, against a server that answers
// a batch cut part way: the answered entries leave the pending list, every other one stays
// pending until a later send answers it. Prints the outbox after each send as JSON lines.
//
//   node tests/js/outbox_cut_short.mjs
import { indexedDB } from "./fake_indexeddb.mjs";

globalThis.indexedDB = indexedDB;
globalThis.navigator ??= {};

const { queue, outbox, syncOutbox } = await import("../../static/js/lib/outbox.js");

const at = (s) => new Date(Date.UTC(2026, 0, 1, 12, 0, s)).toISOString();
for (let i = 0; i < 5; i += 1) {
  await queue(7, { id: `entry-${i}`, kind: "note", text: `nota ${i}`, at: at(i) }, "referee", "en");
}

const stored = (id) => ({ id, status: "stored", state: { character: 7, version: 1 } });
let answers = [];
globalThis.fetch = async (url, options = {}) => {
  const json = (status, body) => new Response(JSON.stringify(body), { status });
  if (url.endsWith("/me")) return json(200, { username: "referee", csrf_token: "t" });
  const sent = JSON.parse(options.body).entries.map((e) => e.id);
  return answers.shift()(sent, json);
};

const seen = async () =>
  (await outbox()).map((item) => [item.entry.id, item.status, item.message ?? null]);

async function send(label) {
  let outcome;
  try {
    outcome = await syncOutbox();
  } catch (error) {
    outcome = { error: error.message };
  }
  console.log(JSON.stringify({ label, outcome, outbox: await seen() }));
}

// The database fails after the first two entries were stored.
answers.push((sent, json) =>
  json(503, {
    error: "cut_short",
    message: "2 of these 5 entries were stored now. Send them again.",
    results: sent.slice(0, 2).map(stored),
    conflicts: [],
  }),
);
await send("cut short");
// The server cannot be reached at all: nothing is answered.
answers.push((_sent, json) => json(503, { error: "unavailable", message: "Nothing was stored" }));
await send("unreachable");
// An answer that leaves one entry out says nothing of it.
answers.push((sent, json) => json(200, { results: sent.slice(0, 2).map(stored), conflicts: [] }));
await send("one left out");
answers.push((sent, json) => json(200, { results: sent.map(stored), conflicts: [] }));
await send("whole");
