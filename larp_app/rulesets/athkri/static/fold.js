// Sistema Athkri's wound track on the phone: the same rules as the package's Python module
// (PS, Malherido, Inconsciente with a Físico save each turn, Muerto at Físico × 6 damage,
// Indefenso saves, Daño continuo, checks and dice), made from the shared fold's helpers
// (static/js/lib/fold.js) and held identical to the Python by generated vectors.
//
// Every die comes from the server (ctx.roll): offline the phone cannot know one, and the fold
// stops there, saying what is to be rolled and what is at stake (a Pending).
const ONGOING = "dano_continuo";
const ONGOING_DAMAGE = 1;
const NORMAL = 12;
const UNCONSCIOUS_SAVE = 12;
const INDEFENSO_SAVE = 13;
const DEATH_MULTIPLE = 6;
const MAX_ROLLS_SHOWN = 10;
const KEEP = { 1: "highest", 0: "middle", "-1": "lowest" };

const EMPTY_TRACK = Object.freeze({
  unconscious_since: null,
  cause: "",
  saves: 0,
  failures: 0,
  stabilised_alone: false,
  awake_at: null,
  indefenso_due: 0,
  ongoing: null,
  rolls: [],
  layers: [],
});

export function makeRuleset(lib) {
  const { RuleError, Pending, HANDLERS, SECOND, MINUTE, takeBlow, blowLands, evolve, deadAt, formatInstant, parseInstant } =
    lib;

  const fisico = (ctx) => ctx.sheet.details.attributes.fisico;
  const track = (state) => state.track ?? EMPTY_TRACK;
  const damageOf = (state, ctx) => ctx.sheet.hp_max - state.hp;
  const texts = (ctx, key) => ctx.catalogue.get(key) ?? {};

  // --- dice (larp_app/rules/dice.py), from the values the server rolled --------------------
  function dice(ctx, parts, count, what, at, params) {
    const values = ctx.roll(parts.map(String).join("\x1f"), count);
    if (!values) throw new Pending(what, at, params);
    return values;
  }

  function oneOfThreeD10(values, level, bonus, target, modifiers) {
    level = Math.max(-1, Math.min(1, level));
    const rolled = values.slice(0, 3);
    const kept = [...rolled].sort((a, b) => a - b)[level + 1];
    return { dice: rolled, kept, bonus, target, keep: KEEP[level], modifiers };
  }

  const single = (values) => ({ dice: [values[0]], kept: values[0], bonus: 0, target: null, keep: null, modifiers: [] });
  const total = (roll) => roll.kept + roll.bonus + roll.modifiers.reduce((sum, [, v]) => sum + v, 0);
  const success = (roll) => (roll.target === null ? null : total(roll) >= roll.target);

  function withRoll(tr, at, what, roll) {
    return { ...tr, rolls: [...tr.rolls, [formatInstant(at), what, roll]].slice(-MAX_ROLLS_SHOWN) };
  }

  // --- wounds ------------------------------------------------------------------------------
  function unconscious(state) {
    const tr = track(state);
    return state.hp <= 0 || tr.unconscious_since !== null || tr.awake_at !== null;
  }

  const helpless = (state) => unconscious(state) || state.statuses.some((s) => s.key === "indefenso");

  function deadIfPast(state, at, ctx) {
    if (damageOf(state, ctx) >= fisico(ctx) * DEATH_MULTIPLE) {
      return evolve(state, { died_at: at, death_at: null, next_energy_at: null });
    }
    return state;
  }

  // Blindaje conditions add (Petrificado's "+20 a Blindaje"), while the condition applied at
  // the layer's instant lasts.
  function liveLayers(state) {
    const layers = track(state).layers ?? [];
    return layers.filter((l) => state.statuses.some((s) => s.key === l.key && s.since === l.since));
  }

  function absorbed(layers, damage) {
    const kept = layers.map((layer) => {
      const taken = Math.min(layer.left, damage);
      damage -= taken;
      return taken ? { ...layer, left: layer.left - taken } : layer;
    });
    return [kept, damage];
  }

  function hit(state, entry, ctx) {
    if (!blowLands(state, entry, ctx)) return state;
    let layers = liveLayers(state);
    if (layers.length !== (track(state).layers ?? []).length) state = evolve(state, { track: { ...track(state), layers } });
    for (let blow = 0; blow < entry.blows; blow += 1) {
      let rest = entry.damage;
      if (layers.length && !entry.pierce) {
        [layers, rest] = absorbed(layers, rest);
        state = evolve(state, { track: { ...track(state), layers } });
      }
      let ap, destroyed;
      [ap, destroyed, rest] = takeBlow(state.ap, state.armour_destroyed, rest, entry.pierce, ctx.settings.armour_breaks);
      state = evolve(state, { ap, armour_destroyed: destroyed });
      if (rest >= 1) state = suffer(state, rest, entry.at, [entry.id, "indefenso", blow], ctx);
      if (state.died_at !== null) break;
    }
    return state;
  }

  function suffer(state, damage, at, parts, ctx) {
    const f = fisico(ctx);
    let tr = track(state);
    const wasHelpless = helpless(state);
    const hp = state.hp - damage;
    if (wasHelpless && damage >= 2 * f) {
      if (ctx.settings.saves !== "app") {
        tr = { ...tr, indefenso_due: tr.indefenso_due + 1 };
      } else {
        const values = dice(ctx, parts, 3, "indefenso", at, { target: INDEFENSO_SAVE, damage });
        const roll = saveRoll(state, values, INDEFENSO_SAVE, ctx);
        tr = withRoll(tr, at, "indefenso", roll);
        if (!success(roll)) return deadAt(evolve(state, { hp, track: tr }), at);
      }
    }
    if (tr.unconscious_since === null && (hp <= 0 || tr.awake_at !== null)) {
      tr = { ...tr, unconscious_since: at, cause: parts[0], saves: 0, failures: 0, awake_at: null };
    }
    return deadIfPast(evolve(state, { hp, track: tr }), at, ctx);
  }

  function statusOn(state, entry, ctx) {
    state = HANDLERS.status_on(state, entry, ctx);
    const added = Math.trunc(Number(texts(ctx, entry.key).blindaje || 0));
    if (added > 0 || (track(state).layers ?? []).length) {
      const layers = liveLayers(state).filter((l) => l.key !== entry.key);
      if (added > 0) layers.push({ key: entry.key, since: entry.at, left: added });
      state = evolve(state, { track: { ...track(state), layers } });
    }
    if (entry.key !== ONGOING) return state;
    const ongoing = {
      since: entry.at,
      cause: entry.id,
      damage: entry.damage || ONGOING_DAMAGE,
      difficulty: entry.difficulty || NORMAL,
      ticks: 0,
    };
    return evolve(state, { track: { ...track(state), ongoing } });
  }

  function nextTickAt(state, ctx) {
    const ongoing = track(state).ongoing;
    if (ongoing === null) return null;
    const active = state.statuses.find((s) => s.key === ONGOING);
    if (!active || active.since !== ongoing.since) return null;
    const at = ongoing.since + (ongoing.ticks + 1) * ctx.turn;
    return active.until !== null && at > active.until ? null : at;
  }

  function tick(state, at, ctx) {
    const tr = track(state);
    const ongoing = { ...tr.ongoing, ticks: tr.ongoing.ticks + 1 };
    state = evolve(state, { track: { ...tr, ongoing } });
    if (state.statuses.some((s) => texts(ctx, s.key).suspends_harmful)) return state;
    return suffer(state, ongoing.damage, at, [ongoing.cause, "ongoing", ongoing.ticks], ctx);
  }

  function heal(state, entry, ctx) {
    let tr = track(state);
    const hp = Math.min(ctx.sheet.hp_max, (unconscious(state) ? 0 : state.hp) + entry.amount);
    if (hp > 0) {
      tr = { ...EMPTY_TRACK, rolls: tr.rolls, indefenso_due: tr.indefenso_due, ongoing: tr.ongoing, layers: tr.layers };
    }
    return evolve(state, { hp, track: tr });
  }

  function save(state, entry, ctx) {
    let tr = track(state);
    if (ctx.settings.saves !== "referee") throw new RuleError("saves_rolled_by_app");
    if (tr.indefenso_due) {
      tr = { ...tr, indefenso_due: tr.indefenso_due - 1 };
      state = evolve(state, { track: tr });
      return entry.success ? state : deadAt(state, entry.at);
    }
    if (tr.unconscious_since === null) throw new RuleError("not_unconscious");
    // One save a turn, the first when the turn after the knock-out begins.
    const since = tr.unconscious_since;
    const number = Math.floor((entry.at - since) / ctx.turn);
    if (number < 1) throw new RuleError("save_before_first_turn", { seconds: seconds(since + ctx.turn - entry.at) });
    if (number <= tr.saves) {
      throw new RuleError("save_already_made_this_turn", { seconds: seconds(since + (tr.saves + 1) * ctx.turn - entry.at) });
    }
    return applySave(state, tr, entry.success, entry.at, ctx, null, number);
  }

  const seconds = (left) => Math.ceil(left / SECOND);

  function revived(state) {
    return evolve(state, { hp: Math.max(1, state.hp), track: { ...EMPTY_TRACK, rolls: track(state).rolls } });
  }

  function checkRoll(state, entry, ctx) {
    const status = ctx.catalogue.get(entry.key);
    const check = status ? status.check : undefined;
    if (check === undefined || check === null) throw new RuleError("no_random_check", { key: entry.key });
    const parts = [entry.id, entry.key];
    if (check.die !== "1o3d10") {
      const roll = single(dice(ctx, parts, 1, "roll", entry.at, { key: entry.key }));
      return evolve(state, { track: withRoll(track(state), entry.at, entry.key, roll) });
    }
    const details = ctx.sheet.details;
    const skills = Object.fromEntries((details.skills ?? []).map((s) => [s.key, s.grade]));
    const bonus = details.attributes[check.attribute] + (skills[check.skill] ?? 0);
    const tr = track(state);
    let target = entry.difficulty;
    if (target === null && entry.key === ONGOING && tr.ongoing !== null) target = tr.ongoing.difficulty;
    const values = dice(ctx, parts, 3, "roll", entry.at, { key: entry.key, target: target || NORMAL });
    const roll = oneOfThreeD10(values, levelOfDice(state, ctx), bonus, target || NORMAL, rollModifiers(state, ctx));
    state = evolve(state, { track: withRoll(tr, entry.at, entry.key, roll) });
    if (success(roll) && check.ends_on_success) {
      state = evolve(state, { statuses: state.statuses.filter((s) => s.key !== entry.key) });
    }
    return state;
  }

  function rollModifiers(state, ctx) {
    const keys = [...new Set(state.statuses.map((s) => s.key))].sort();
    const suspended = keys.some((k) => texts(ctx, k).suspends_harmful);
    const modifiers = [];
    for (const key of keys) {
      const t = texts(ctx, key);
      const value = t.all_rolls;
      if (value && !(suspended && t.harmful)) modifiers.push([key, Math.trunc(Number(value))]);
    }
    return modifiers;
  }

  const levelOfDice = (state, ctx, asked = 0) => (level(state, ctx) === "malherido" ? asked - 1 : asked);

  function saveRoll(state, values, target, ctx) {
    return oneOfThreeD10(values, levelOfDice(state, ctx), fisico(ctx), target, rollModifiers(state, ctx));
  }

  function rollDice(state, entry, ctx) {
    const values = dice(ctx, [entry.id], 3, "dice", entry.at, { target: entry.difficulty });
    const roll = oneOfThreeD10(
      values, levelOfDice(state, ctx, entry.level), entry.bonus, entry.difficulty, rollModifiers(state, ctx),
    );
    return evolve(state, { track: withRoll(track(state), entry.at, "dice", roll) });
  }

  function applySave(state, tr, ok, at, ctx, roll, number) {
    const f = fisico(ctx);
    tr = { ...tr, saves: number };
    if (roll !== null) tr = withRoll(tr, at, "save", roll);
    if (ok && !tr.stabilised_alone) {
      const minutes = dice(ctx, [tr.cause, "awake"], 1, "awake", at, {})[0];
      tr = { ...tr, unconscious_since: null, stabilised_alone: true, awake_at: at + minutes * MINUTE };
      return evolve(state, { hp: 1, track: tr });
    }
    if (ok) return evolve(state, { track: tr });
    tr = { ...tr, failures: tr.failures + 1 };
    state = evolve(state, { hp: state.hp - tr.failures * f, track: tr });
    return deadIfPast(state, at, ctx);
  }

  function nextSaveAt(state, ctx) {
    const tr = track(state);
    if (tr.unconscious_since === null || state.died_at !== null) return null;
    return tr.unconscious_since + (tr.saves + 1) * ctx.turn;
  }

  function nextWoundChange(state, ctx) {
    const instants = [track(state).awake_at, nextTickAt(state, ctx)];
    if (ctx.settings.saves === "app") instants.push(nextSaveAt(state, ctx));
    const known = instants.filter((t) => t !== null);
    return known.length ? Math.min(...known) : null;
  }

  function advanceWounds(state, t, ctx) {
    while (state.died_at === null) {
      const tr = track(state);
      const saveAt = ctx.settings.saves === "app" ? nextSaveAt(state, ctx) : null;
      const events = [
        [tr.awake_at, 0],
        [nextTickAt(state, ctx), 1],
        [saveAt, 2],
      ].filter(([at]) => at !== null && at <= t);
      if (!events.length) return state;
      events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const [at, what] = events[0];
      const before = state;
      try {
        if (what === 0) state = evolve(state, { track: { ...tr, awake_at: null } });
        else if (what === 1) state = tick(state, at, ctx);
        else {
          const stake = { target: UNCONSCIOUS_SAVE, failure_damage: (tr.failures + 1) * fisico(ctx) };
          const values = dice(ctx, [tr.cause, "save", tr.saves + 1], 3, "save", at, stake);
          const roll = saveRoll(state, values, UNCONSCIOUS_SAVE, ctx);
          state = applySave(state, tr, success(roll), at, ctx, roll, tr.saves + 1);
        }
      } catch (error) {
        if (error instanceof Pending) error.state = before;
        throw error;
      }
    }
    return state;
  }

  function wound(state, ctx) {
    if (state.died_at !== null) return "dead";
    const tr = track(state);
    if (state.hp <= 0 || tr.unconscious_since !== null) return "dying";
    if (tr.awake_at !== null || state.hp <= fisico(ctx)) return "grievous";
    return "ok";
  }

  function level(state, ctx) {
    if (state.died_at !== null) return "muerto";
    const tr = track(state);
    if (state.hp <= 0 || tr.unconscious_since !== null || tr.awake_at !== null) return "inconsciente";
    return state.hp <= fisico(ctx) ? "malherido" : "estable";
  }

  function turnsUntilDeath(state, ctx) {
    const tr = track(state);
    if (nextSaveAt(state, ctx) === null) return null;
    const f = fisico(ctx);
    let [damage, failures, turns] = [damageOf(state, ctx), tr.failures, 0];
    while (damage < f * DEATH_MULTIPLE) {
      failures += 1;
      turns += 1;
      damage += failures * f;
    }
    return turns;
  }

  const rollToDict = (roll) => ({
    dice: roll.dice,
    kept: roll.kept,
    keep: roll.keep,
    bonus: roll.bonus,
    modifiers: roll.modifiers.map(([key, value]) => ({ key, value })),
    total: total(roll),
    target: roll.target,
    success: success(roll),
  });

  function describe(state, ctx) {
    const tr = track(state);
    const f = fisico(ctx);
    return {
      level: level(state, ctx),
      damage: damageOf(state, ctx),
      dead_at_damage: f * DEATH_MULTIPLE,
      malherido_at_ps: f,
      next_save_at: formatInstant(nextSaveAt(state, ctx)),
      next_failure_damage: (tr.failures + 1) * f,
      turns_until_death_worst_case: turnsUntilDeath(state, ctx),
      awake_at: formatInstant(tr.awake_at),
      indefenso_save_due: tr.indefenso_due,
      ongoing_damage: nextTickAt(state, ctx) === null ? null : tr.ongoing.damage,
      extra_blindaje: liveLayers(state).reduce((sum, l) => sum + l.left, 0),
      roll_modifiers: rollModifiers(state, ctx).map(([key, value]) => ({ key, value })),
      rolls: tr.rolls.map(([at, what, roll]) => ({ at, what, ...rollToDict(roll) })),
    };
  }

  // The track as the server sends it (larp_app/rules/wire.py: its dataclasses' fields).
  const rollFromWire = (r) => ({ ...r, modifiers: r.modifiers.map(([k, v]) => [k, v]) });
  function trackFromWire(w) {
    const p = parseInstant;
    return {
      unconscious_since: p(w.unconscious_since),
      cause: w.cause,
      saves: w.saves,
      failures: w.failures,
      stabilised_alone: w.stabilised_alone,
      awake_at: p(w.awake_at),
      indefenso_due: w.indefenso_due,
      ongoing: w.ongoing === null ? null : { ...w.ongoing, since: p(w.ongoing.since) },
      rolls: w.rolls.map(([at, what, roll]) => [at, what, rollFromWire(roll)]),
      layers: (w.layers ?? []).map((l) => ({ ...l, since: p(l.since) })),
    };
  }

  function trackToWire(tr) {
    const f = formatInstant;
    return {
      unconscious_since: f(tr.unconscious_since),
      cause: tr.cause,
      saves: tr.saves,
      failures: tr.failures,
      stabilised_alone: tr.stabilised_alone,
      awake_at: f(tr.awake_at),
      indefenso_due: tr.indefenso_due,
      ongoing: tr.ongoing === null ? null : { ...tr.ongoing, since: f(tr.ongoing.since) },
      rolls: tr.rolls.map(([at, what, r]) => [
        at,
        what,
        { dice: r.dice, kept: r.kept, bonus: r.bonus, target: r.target, keep: r.keep, modifiers: r.modifiers },
      ]),
      layers: tr.layers.map((l) => ({ ...l, since: f(l.since) })),
    };
  }

  // What a roll the phone cannot make puts at stake, for the console to say in words: a save
  // whose failure costs points ("save"), one whose failure kills ("deadly_save"), or a roll.
  function stakes(pending, state, ctx) {
    const f = fisico(ctx);
    if (pending.what === "save") {
      return { code: "save", target: UNCONSCIOUS_SAVE, attribute: f, failure_damage: pending.params.failure_damage };
    }
    if (pending.what === "indefenso") return { code: "deadly_save", target: INDEFENSO_SAVE, attribute: f };
    return { code: pending.what, ...pending.params };
  }

  return {
    key: "athkri",
    woundHandlers: {
      hit,
      status_on: statusOn,
      heal,
      save,
      roll: checkRoll,
      dice: rollDice,
    },
    // Its own kinds' defaults, as its package's entries.py reads them.
    entryDefaults: { roll: { difficulty: null }, dice: { level: 0, bonus: 0, difficulty: null } },
    // A field's former name, read as it (an outbox kept on the phone from then).
    entryFormerly: { roll: { target: "difficulty" }, dice: { target: "difficulty" } },
    wound,
    advanceWounds,
    revived,
    nextWoundChange,
    describe,
    trackFromWire,
    trackToWire,
    stakes,
  };
}
