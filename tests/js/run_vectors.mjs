// Run conformance vectors (tests/vectors.py) through the phone's fold and say where it
// differs from the Python fold: the first differing vector, instant and field.
//
//   node tests/js/run_vectors.mjs VECTORS.json RULESET_FOLD.js
//
// Exit 0 when every state is reproduced exactly; 1 with the first difference otherwise.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import * as fold from "../../static/js/lib/fold.js";

const [vectorsPath, modulePath] = process.argv.slice(2);
const { makeRuleset } = await import(pathToFileURL(resolve(modulePath)).href);
const ruleset = fold.withDefaults(makeRuleset(fold.lib));
const vectors = JSON.parse(readFileSync(vectorsPath, "utf8"));

// The first path at which two JSON values differ, or null.
function difference(expected, got, path = "") {
  if (expected === got) return null;
  if (typeof expected !== "object" || typeof got !== "object" || expected === null || got === null) {
    return { path, expected, got };
  }
  if (Array.isArray(expected) !== Array.isArray(got)) return { path, expected, got };
  const keys = new Set([...Object.keys(expected), ...Object.keys(got)]);
  for (const key of keys) {
    if (!(key in expected) || !(key in got)) return { path: `${path}.${key}`, expected: expected[key], got: got[key] };
    const found = difference(expected[key], got[key], `${path}.${key}`);
    if (found) return found;
  }
  return null;
}

function fail(vector, what, found) {
  console.log(
    JSON.stringify(
      { vector: vector.n, ruleset: ruleset.key, what, ...found, entries: vector.entries, rolls: vector.rolls },
      null,
      1,
    ),
  );
  process.exit(1);
}

let states = 0;
for (const vector of vectors) {
  const roll = (key, count) => {
    const values = vector.rolls[key];
    if (!values || values.length < count) throw new Error(`vector ${vector.n}: no dice for ${key}`);
    return values.slice(0, count);
  };
  const ctx = fold.context(vector.sheet, vector.settings, ruleset, roll);
  const entries = vector.entries.map((e) => fold.readEntry(e, ctx));
  for (const expected of vector.states) {
    const at = fold.parseInstant(expected.at);
    const folded = fold.foldLog(ctx, entries, at);
    if (folded.pending) fail(vector, `pending at ${expected.at}`, { pending: folded.pending.what });
    const got = fold.snapshotAt(folded, ctx, at);
    const found = difference(expected, got);
    if (found) fail(vector, `state at ${expected.at}`, found);
    states += 1;
  }
  const resume = vector.resume;
  if (resume) {
    const start = fold.stateFromWire(resume.state, ctx);
    const back = difference(resume.state, fold.stateToWire(start, ctx));
    if (back) fail(vector, "state read and written back", back);
    const own = fold.foldLog(ctx, entries, fold.parseInstant(resume.at));
    const mine = difference(resume.state, fold.stateToWire(fold.advance(own.state, fold.parseInstant(resume.at), ctx), ctx));
    if (mine) fail(vector, `inner state at ${resume.at}`, mine);
    const after = fold.orderLog(resume.entries.map((e) => fold.readEntry(e, ctx)));
    for (const expected of resume.states) {
      const at = fold.parseInstant(expected.at);
      const taken = after.filter((e) => e.at <= at);
      const on = fold.foldOn(ctx, start, taken, resume.conflicts);
      const got = fold.snapshotAt({ ...on, log_position: resume.log_position }, ctx, at);
      const found = difference(expected, got);
      if (found) fail(vector, `resumed from ${resume.at}, state at ${expected.at}`, found);
      states += 1;
    }
  }
}
console.log(`${ruleset.key}: ${vectors.length} vectors, ${states} states reproduced`);
