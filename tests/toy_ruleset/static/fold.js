// The toy rule system's wounds on the phone, as its Python module: no armour, a blow takes its
// damage off the points down to 0; its own kind, rally, gives points back (refused at 0); ok
// above 0 points, grievous at 0, dead only through `kill`.
export function makeRuleset({ RuleError, evolve }) {
  const hit = (state, entry) => evolve(state, { hp: Math.max(0, state.hp - entry.damage * entry.blows) });

  function rally(state, entry, ctx) {
    if (state.hp <= 0) throw new RuleError("too_weak_to_rally");
    return evolve(state, { hp: Math.min(ctx.sheet.hp_max, state.hp + entry.points) });
  }

  return {
    key: "toy",
    woundHandlers: { hit, rally },
    entryDefaults: { rally: { points: 1 } },
    wound: (state) => (state.died_at !== null ? "dead" : state.hp > 0 ? "ok" : "grievous"),
    advanceWounds: (state) => state,
  };
}
