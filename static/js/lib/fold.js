// The phone's fold: a character's state at an instant from its sheet, the event's settings
// and a log, as the server's rules engine computes it (larp_app/rules/fold.py, entries.py,
// state.py), line for line. Each rule system brings its own wound rules (hit, heal, coup de
// grâce, saves...) as a module of its package (/rulesets/<key>/static/fold.js), made from the
// helpers here (`lib`). Both folds are held identical by generated vectors
// (tests/vectors.py, tests/js/run_vectors.mjs).
//
// Instants are whole microseconds since the epoch (as Python's datetimes are exact to the
// microsecond); they are read from and written as the server writes them.
//
// The phone never rolls a die the server rolls: the rules ask `ctx.roll(parts, count)` for
// the dice, and where the phone cannot know them (the event's seed stays on the server) the
// fold stops there and says what is to be rolled (`pending`).

export const SECOND = 1_000_000;
export const MINUTE = 60 * SECOND;
export const TICK = 1;
const ALLOWED_WHEN_DEAD = new Set(["note", "undo", "revive"]);

export class RuleError extends Error {
  constructor(code, params = {}) {
    super(code);
    this.code = code;
    this.params = params;
  }
}

// A roll only the server can make: the fold stops before it.
export class Pending extends Error {
  constructor(what, at, params = {}) {
    super(what);
    this.what = what;
    this.at = at;
    this.params = params;
  }
}

// --- instants ------------------------------------------------------------------------------

export function parseInstant(text) {
  if (text === null || text === undefined) return null;
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(Z|[+-]\d\d:\d\d)?$/.exec(
    String(text).trim(),
  );
  if (!match) throw new RuleError("not_instant", { got: text });
  const [, seconds, fraction = "", zone = "Z"] = match;
  const ms = Date.parse(`${seconds}${zone === "Z" ? "Z" : zone}`);
  return ms * 1000 + Number(fraction.padEnd(6, "0"));
}

export function formatInstant(us) {
  if (us === null || us === undefined) return null;
  const micro = ((us % SECOND) + SECOND) % SECOND;
  const whole = new Date((us - micro) / 1000).toISOString().slice(0, 19);
  return micro ? `${whole}.${String(micro).padStart(6, "0")}Z` : `${whole}Z`;
}

// --- state ---------------------------------------------------------------------------------

export function evolve(state, changes) {
  return { ...state, ...changes };
}

export function deadAt(state, at) {
  return evolve(state, { died_at: at, death_at: null, next_energy_at: null });
}

function atCheckIn(sheet) {
  return {
    hp: sheet.hp_max,
    ap: sheet.ap_max,
    energy: sheet.energy_max,
    armour_destroyed: false,
    next_energy_at: null,
    death_at: null,
    died_at: null,
    statuses: [],
    track: null,
  };
}

export function expired(status, t) {
  if (status.until === null) return false;
  return t > status.until || (t === status.until && status.until > status.since);
}

// --- armour (larp_app/rules/armour.py) -------------------------------------------------------

// `breakable`: the points of `ap` that are armour that breaks (every one when null); with
// none left, nothing breaks.
export function takeBlow(ap, destroyed, damage, pierce, breaks, breakable = null) {
  if (ap <= 0 || pierce) return [ap, destroyed, damage];
  const worn = breakable === null ? ap : Math.min(ap, breakable);
  if (breaks && worn > 0 && damage >= 2 * worn) return [ap - worn, true, 0];
  const absorbed = Math.min(ap, damage);
  return [ap - absorbed, destroyed, damage - absorbed];
}

// --- damage types (larp_app/rules/damage.py) ------------------------------------------------

// Whether a hit's blows reach the character (false: an active status makes it immune to their
// type); a type the rule system does not declare is refused.
export function blowLands(state, entry, ctx) {
  let kind = entry.damage_type;
  const declared = ctx.settings.damage_types ?? [];
  if (kind !== null && kind !== PHYSICAL && !declared.includes(kind)) {
    throw new RuleError("unknown_damage_type", { type: kind, allowed: [PHYSICAL, ...declared] });
  }
  if (!state.statuses.length) return true;
  kind = kind ?? PHYSICAL;
  return !state.statuses.some((s) => (ctx.catalogue.get(s.key)?.immune ?? []).includes(kind));
}

// --- entries: each kind with its defaults, as the server reads them --------------------------

const DEFAULTS = {
  hit: { damage: 1, blows: 1, pierce: false, damage_type: null },
  repair: { amount: null, full: false },
  spend_energy: { advancement: null },
  status_on: { seconds: null, damage: null, difficulty: null },
  kill: { reason: "" },
  revive: { hp: null },
};
const PHYSICAL = "physical"; // a blow's damage type unless its hit names another

// An entry as sent (fields at their defaults may be left out); `ctx` adds the defaults of
// the rule system's own kinds.
export function readEntry(data, ctx = null) {
  const own = ctx?.ruleset.entryDefaults?.[data.kind];
  const formerly = ctx?.ruleset.entryFormerly?.[data.kind];
  if (formerly) {
    data = { ...data };
    for (const [old, name] of Object.entries(formerly)) {
      if (old in data && !(name in data)) data[name] = data[old];
      delete data[old];
    }
  }
  const entry = { ...DEFAULTS[data.kind], ...own, ...data, at: parseInstant(data.at) };
  for (const [key, value] of Object.entries(entry)) if (value === undefined) entry[key] = null;
  if (entry.kind === "hit" && entry.damage_type === PHYSICAL) entry.damage_type = null;
  return entry;
}

// --- context -------------------------------------------------------------------------------

// sheet and settings as the server writes them (larp_app/rules/wire.py); ruleset: the rule
// system's module (makeRuleset(lib)); roll(parts, count): the dice the server rolled for
// these parts, or null when the phone cannot know them.
export function context(sheet, settings, ruleset, roll = () => null) {
  if (sheet.ruleset !== settings.ruleset) {
    throw new Error(`sheet is ${sheet.ruleset}, settings are ${settings.ruleset}`);
  }
  const minutes = sheet.energy_recovery_minutes;
  const catalogue = new Map(settings.catalogue.map((s) => [s.key, s]));
  return {
    sheet,
    settings,
    ruleset,
    catalogue,
    turn: Math.round(settings.turn_seconds * SECOND),
    recovery: minutes && sheet.energy_max ? minutes * MINUTE : null,
    roll,
    handlers: { ...HANDLERS, ...ruleset.woundHandlers },
  };
}

// --- the fold ------------------------------------------------------------------------------

export function orderLog(entries) {
  const seen = new Set();
  const unique = [];
  for (const entry of entries) {
    if (!seen.has(entry.id)) {
      seen.add(entry.id);
      unique.push(entry);
    }
  }
  return unique
    .map((entry, i) => [entry, i])
    .sort((a, b) => a[0].at - b[0].at || a[1] - b[1])
    .map(([entry]) => entry);
}

export function resolveUndos(ordered, known = new Map()) {
  const earlier = new Map(known);
  const undone = new Set();
  const refused = new Map();
  for (const entry of ordered) {
    if (entry.kind === "undo") {
      const target = earlier.get(entry.target);
      if (target === undefined) refused.set(entry.id, new RuleError("unknown_target", { target: entry.target }));
      else if (target.kind === "undo") refused.set(entry.id, new RuleError("cannot_undo_undo", { target: entry.target }));
      else if (undone.has(target.id)) refused.set(entry.id, new RuleError("already_undone", { target: entry.target }));
      else undone.add(target.id);
    }
    earlier.set(entry.id, entry);
  }
  return { undone, refused };
}

// Fold entries (read by readEntry) dated at or before `until` (all when null) from check-in.
export function foldLog(ctx, entries, until = null) {
  const log = orderLog(entries);
  const ordered = until === null ? log : log.filter((e) => e.at <= until);
  const folded = foldOn(ctx, atCheckIn(ctx.sheet), ordered);
  return {
    ...folded,
    last_at: log.length ? log.at(-1).at : null,
    log_position: log.length,
  };
}

// Go on from `state` with entries in order: each refusal is a conflict; a roll the phone
// cannot know stops the fold (`pending`, and the entries not folded in `unfolded`).
export function foldOn(ctx, state, ordered, conflicts = []) {
  const { undone, refused } = resolveUndos(ordered);
  conflicts = [...conflicts];
  for (let i = 0; i < ordered.length; i += 1) {
    const entry = ordered[i];
    if (undone.has(entry.id)) continue;
    if (entry.kind === "undo") {
      const error = refused.get(entry.id);
      if (error) conflicts.push({ id: entry.id, code: error.code, params: error.params });
      continue;
    }
    try {
      state = step(state, entry, ctx, conflicts);
    } catch (error) {
      if (!(error instanceof Pending)) throw error;
      return { state: error.state ?? state, conflicts, pending: error, unfolded: ordered.slice(i) };
    }
  }
  return { state, conflicts, pending: null, unfolded: [] };
}

function step(state, entry, ctx, conflicts) {
  state = advance(state, entry.at, ctx);
  try {
    if (state.died_at !== null && !ALLOWED_WHEN_DEAD.has(entry.kind)) throw new RuleError("dead");
    const handler = ctx.handlers[entry.kind];
    if (!handler) throw new RuleError("not_in_ruleset", { kind: entry.kind });
    return handler(state, entry, ctx);
  } catch (error) {
    if (error instanceof Pending) {
      error.state ??= state; // the state up to the roll, time included
      throw error;
    }
    if (!(error instanceof RuleError)) throw error;
    conflicts.push({ id: entry.id, code: error.code, params: error.params });
    return state;
  }
}

// Let time pass up to `t`: the ruleset's wound track, energy recovery, status expiry. A roll
// the phone cannot know throws Pending, carrying the state up to it.
export function advance(state, t, ctx) {
  if (state.died_at !== null) return state;
  try {
    state = ctx.ruleset.advanceWounds(state, t, ctx);
  } catch (error) {
    if (error instanceof Pending && error.state) error.state = advanceRest(error.state, error.at, ctx);
    throw error;
  }
  return advanceRest(state, t, ctx);
}

function advanceRest(state, t, ctx) {
  const until = state.died_at ?? t;
  const changes = {};
  const nextAt = state.next_energy_at;
  if (nextAt !== null && nextAt <= until) {
    const gained = 1 + Math.floor((until - nextAt) / ctx.recovery);
    const energy = Math.min(ctx.sheet.energy_max, state.energy + gained);
    changes.energy = energy;
    changes.next_energy_at = energy >= ctx.sheet.energy_max ? null : nextAt + gained * ctx.recovery;
  }
  if (state.statuses.length) {
    const active = state.statuses.filter((s) => !expired(s, until));
    if (active.length !== state.statuses.length) changes.statuses = active;
  }
  if (state.died_at !== null) changes.next_energy_at = null;
  return Object.keys(changes).length ? evolve(state, changes) : state;
}

// The state at `at`, as the server's state JSON writes it (Snapshot.to_dict, without `at`
// when `withAt` is false), from a fold's result.
export function snapshotAt(folded, ctx, at, withAt = true) {
  const state = advance(folded.state, at, ctx);
  return toDict(state, ctx, folded.conflicts, folded.log_position, withAt ? at : undefined);
}

export function toDict(state, ctx, conflicts, logPosition, at) {
  const f = formatInstant;
  const out = {
    hp: state.hp,
    hp_max: ctx.sheet.hp_max,
    ap: state.ap,
    ap_max: ctx.sheet.ap_max,
    armour_destroyed: state.armour_destroyed,
    energy: state.energy,
    energy_max: ctx.sheet.energy_max,
    next_energy_at: f(state.next_energy_at),
    wound: ctx.ruleset.wound(state, ctx),
    death_at: f(state.death_at),
    died_at: f(state.died_at),
    statuses: state.statuses.map((s) => ({ key: s.key, since: f(s.since), until: f(s.until) })),
    conflicts: conflicts.map((c) => ({ id: c.id, code: c.code })),
    log_position: logPosition,
    ...ctx.ruleset.describe(state, ctx),
  };
  return at === undefined ? out : { at: f(at), ...out };
}

// --- the state's inner values, as the server sends them (larp_app/rules/wire.py) -------------

// The same fields both ways: `instant` converts each instant, `track` the rule system's track.
function convertState(state, instant, track) {
  return {
    hp: state.hp,
    ap: state.ap,
    energy: state.energy,
    armour_destroyed: state.armour_destroyed,
    next_energy_at: instant(state.next_energy_at),
    death_at: instant(state.death_at),
    died_at: instant(state.died_at),
    statuses: state.statuses.map((s) => ({
      key: s.key,
      since: instant(s.since),
      until: instant(s.until),
    })),
    track: state.track === null ? null : track(state.track),
  };
}

export const stateFromWire = (wire, ctx) =>
  convertState(wire, parseInstant, ctx.ruleset.trackFromWire);

export const stateToWire = (state, ctx) =>
  convertState(state, formatInstant, ctx.ruleset.trackToWire);

// --- handlers common to every rule system (fold.py HANDLERS) --------------------------------

function advancementNamed(sheet, name) {
  const wanted = name.trim().toLowerCase();
  return sheet.advancements.find((a) => a.name.toLowerCase() === wanted) ?? null;
}

function spendEnergy(state, entry, ctx) {
  const advancement = entry.advancement === null ? null : advancementNamed(ctx.sheet, entry.advancement);
  if (entry.advancement !== null && advancement === null) {
    throw new RuleError("unknown_advancement", { advancement: entry.advancement });
  }
  if (state.energy < entry.amount) {
    throw new RuleError("not_enough_energy", { needs: entry.amount, has: state.energy });
  }
  if (advancement !== null && entry.amount !== advancement.energy_cost) {
    throw new RuleError("wrong_cost", {
      advancement: advancement.name,
      cost: advancement.energy_cost,
      got: entry.amount,
    });
  }
  const energy = state.energy - entry.amount;
  let nextAt = state.next_energy_at;
  if (nextAt === null && ctx.recovery && energy < ctx.sheet.energy_max) nextAt = entry.at + ctx.recovery;
  return evolve(state, { energy, next_energy_at: nextAt });
}

function restoreEnergy(state, entry, ctx) {
  if (ctx.sheet.energy_max === 0) throw new RuleError("no_energy");
  const energy = Math.min(ctx.sheet.energy_max, state.energy + entry.amount);
  return evolve(state, { energy, next_energy_at: energy >= ctx.sheet.energy_max ? null : state.next_energy_at });
}

function repair(state, entry, ctx) {
  if (ctx.sheet.ap_max === 0) throw new RuleError("no_armour");
  if (entry.full) return evolve(state, { ap: ctx.sheet.ap_max, armour_destroyed: false });
  if (state.armour_destroyed) throw new RuleError("armour_destroyed");
  return evolve(state, { ap: Math.min(ctx.sheet.ap_max, state.ap + entry.amount) });
}

function statusOn(state, entry, ctx) {
  const status = ctx.catalogue.get(entry.key);
  if (!status) throw new RuleError("unknown_status", { key: entry.key });
  let until = null;
  if (entry.seconds !== null) until = entry.at + entry.seconds * SECOND;
  else if (status.turns !== null && status.turns !== undefined) until = entry.at + status.turns * ctx.turn;
  const others = state.statuses.filter((s) => s.key !== entry.key);
  return evolve(state, { statuses: [...others, { key: entry.key, since: entry.at, until }] });
}

function statusOff(state, entry) {
  if (!state.statuses.some((s) => s.key === entry.key)) {
    throw new RuleError("status_not_active", { key: entry.key });
  }
  return evolve(state, { statuses: state.statuses.filter((s) => s.key !== entry.key) });
}

function kill(state, entry) {
  return deadAt(state, entry.at);
}

function revive(state, entry, ctx) {
  if (state.died_at === null) throw new RuleError("not_dead");
  const hp = entry.hp === null ? ctx.sheet.hp_max : Math.min(ctx.sheet.hp_max, entry.hp);
  const below = ctx.recovery !== null && state.energy < ctx.sheet.energy_max;
  state = evolve(state, {
    hp,
    died_at: null,
    death_at: null,
    statuses: [],
    next_energy_at: below ? entry.at + ctx.recovery : null,
  });
  return ctx.ruleset.revived(state, ctx);
}

export const HANDLERS = {
  spend_energy: spendEnergy,
  restore_energy: restoreEnergy,
  repair,
  status_on: statusOn,
  status_off: statusOff,
  kill,
  revive,
  note: (state) => state,
};

// What a rule system's module is made from.
export const lib = {
  RuleError,
  Pending,
  HANDLERS,
  SECOND,
  MINUTE,
  takeBlow,
  blowLands,
  evolve,
  deadAt,
  expired,
  formatInstant,
  parseInstant,
};

// Every rule system's defaults, for what a module leaves out (registry.py's Ruleset).
export function withDefaults(ruleset) {
  return {
    woundHandlers: {},
    entryDefaults: {}, // the rule system's own kinds: {kind: {field: default}}
    entryFormerly: {}, // their fields' former names: {kind: {old name: field}}
    revived: (state) => state,
    describe: () => ({}),
    nextWoundChange: (state) => state.death_at,
    trackFromWire: (track) => track,
    trackToWire: (track) => track,
    stakes: () => null,
    ...ruleset,
  };
}
