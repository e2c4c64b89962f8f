// What the server will answer, worked out on the phone: its last state (with the inner values
// it sends as `fold`) and the entries still waiting in the outbox, folded by the same rules
// (lib/fold.js and the rule system's own fold, proven identical to the server's by vectors).
// The console shows it as not yet confirmed until the server's answer replaces it.
//
// The phone never invents a die: where the server must roll (a save, a check, `dice`), the
// fold stops there and says what is to be rolled and what is at stake.
import * as fold from "../lib/fold.js";

// The fold for an event's rule system, or null (a roster kept before folds were in it, or a
// rule system without one): the console then shows the server's last state as it is.
export async function loadFold(moduleUrl, event, sheet) {
  if (!event?.fold || !sheet) return null;
  try {
    const module = await import(moduleUrl.replace("KEY", encodeURIComponent(event.ruleset)));
    return fold.context(sheet, event.fold, fold.withDefaults(module.makeRuleset(fold.lib)));
  } catch {
    return null;
  }
}

const isUndoOf = (entry, ids) => entry.kind === "undo" && ids.has(entry.target);

// The state the server will answer once it has `entries` (the waiting ones, as sent), at
// `now` (ms); with none, the server's last state with time gone by (a countdown's end, energy
// back, a save now due: to be rolled). Returns {state, refused: [{id, code, params}], pending, unfolded, unsure}:
// `refused`, the waiting entries the server will refuse; `pending`, a roll only the server
// makes ({what, at, stakes}) and `unfolded`, the entries after it; `unsure`, an undo of an
// entry the phone does not hold (the server recomputes the log).
export function foresee(ctx, state, entries, now = Date.now()) {
  const asItIs = { state, refused: [], pending: null, unfolded: [], unsure: false };
  if (!ctx || !state?.fold) return asItIs;
  try {
    return folded(ctx, state, entries, now);
  } catch (error) {
    console.error("the phone's fold failed; showing the server's last state", error);
    return asItIs;
  }
}

function folded(ctx, state, entries, now) {
  const ids = new Set(entries.map((e) => e.id));
  const known = entries.filter((e) => e.kind !== "undo" || isUndoOf(e, ids));
  const unsure = known.length !== entries.length;
  const ordered = fold.orderLog(known.map((e) => fold.readEntry(e, ctx)));
  const start = fold.stateFromWire(state.fold, ctx);
  const conflicts = state.conflicts.map((c) => ({ ...c, params: {} }));
  const on = fold.foldOn(ctx, start, ordered, conflicts);
  const logPosition = (state.log_position ?? 0) + ordered.length;
  let inner = on.state;
  let pending = on.pending;
  if (!pending) {
    const at = Math.max(now * 1000, ...ordered.map((e) => e.at));
    try {
      inner = fold.advance(on.state, at, ctx);
    } catch (error) {
      if (!(error instanceof fold.Pending)) throw error;
      pending = error;
      inner = error.state;
    }
  }
  const shown = fold.toDict(inner, ctx, on.conflicts, logPosition);
  return {
    state: { ...shown, fold: fold.stateToWire(inner, ctx) },
    refused: on.conflicts.filter((c) => ids.has(c.id)),
    pending: pending && {
      what: pending.what,
      at: fold.formatInstant(pending.at),
      stakes: ctx.ruleset.stakes(pending, inner, ctx),
    },
    unfolded: on.unfolded.map((e) => e.id),
    unsure,
  };
}

// A refusal in words, from the page's templates ("needs {needs} energy, has {has}").
export function refusalWords(refusals, conflict) {
  const template = refusals?.[conflict.code] ?? conflict.code;
  return template.replace(/\{(\w+)\}/g, (all, name) => String(conflict.params?.[name] ?? all));
}
