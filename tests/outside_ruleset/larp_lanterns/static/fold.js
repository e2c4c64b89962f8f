// Lanterns on the phone, as its Python module: a blow takes its damage off the oil; its own
// roll relights the lantern by the flame, refused when the lantern is full.
export function makeRuleset({ RuleError, evolve }) {
  const hit = (state, entry) => evolve(state, { hp: Math.max(0, state.hp - entry.damage * entry.blows) });

  function roll(state, entry, ctx) {
    if (state.hp >= ctx.sheet.hp_max) throw new RuleError("already_fresh", { oil: state.hp });
    return evolve(state, { hp: Math.min(ctx.sheet.hp_max, state.hp + entry.flame) });
  }

  return {
    key: "lanterns",
    woundHandlers: { hit, roll },
    entryDefaults: {},
    wound: (state) => (state.died_at !== null ? "dead" : state.hp > 0 ? "ok" : "grievous"),
    advanceWounds: (state) => state,
  };
}
