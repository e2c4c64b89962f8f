// EX Nihilo's wounds on the phone: the same rules as the package's Python module (hit, heal,
// coup de grâce, the dying countdown), made from the shared fold's helpers
// (static/js/lib/fold.js) and held identical to the Python by generated vectors.
const DYING_TURNS = 600; // "incosciente per 10 minuti (600 turni), passati i quali ... Morto"

export function makeRuleset(lib) {
  const { RuleError, takeBlow, blowLands, evolve, deadAt } = lib;

  function hit(state, entry, ctx) {
    if (!blowLands(state, entry, ctx)) return state;
    let { hp, ap, armour_destroyed: destroyed, death_at: deathAt } = state;
    const worn = ctx.sheet.details.armour?.points ?? 0;
    const own = ctx.sheet.ap_max - worn; // Corpo's Armatura +X: the character's own
    for (let blow = 0; blow < entry.blows; blow += 1) {
      if (hp < 0) break; // dying: only a coup de grâce changes anything
      const before = ap;
      // The optional rule compares a blow with the worn armour's points left (it is struck
      // first) and breaks only them: Armatura +X stays.
      const breaks = ctx.settings.armour_breaks && worn > 0 && !destroyed;
      const wornLeft = Math.max(0, ap - own);
      let rest;
      [ap, destroyed, rest] = takeBlow(ap, destroyed, entry.damage, entry.pierce, breaks, wornLeft);
      if (breaks && destroyed) ap = Math.min(before, own);
      if (rest >= 1) {
        if (hp > 0) hp = Math.max(0, hp - rest);
        else {
          hp = -1;
          deathAt = entry.at + DYING_TURNS * ctx.turn;
        }
      }
    }
    const statuses = state.statuses.filter((s) => !ctx.catalogue.get(s.key).ends_on_hit);
    return evolve(state, { hp, ap, armour_destroyed: destroyed, death_at: deathAt, statuses });
  }

  function heal(state, entry, ctx) {
    const hp = Math.min(ctx.sheet.hp_max, Math.max(state.hp, -1) + entry.amount);
    return evolve(state, { hp, death_at: hp >= 0 ? null : state.death_at });
  }

  function coupDeGrace(state, entry) {
    if (state.hp >= 0) throw new RuleError("not_dying");
    return deadAt(state, entry.at);
  }

  function advanceWounds(state, t) {
    if (state.death_at !== null && state.death_at <= t) {
      return evolve(state, { died_at: state.death_at, death_at: null });
    }
    return state;
  }

  function wound(state) {
    if (state.died_at !== null) return "dead";
    if (state.hp > 0) return "ok";
    return state.hp === 0 ? "grievous" : "dying";
  }

  return {
    key: "ex-nihilo",
    woundHandlers: { hit, heal, coup_de_grace: coupDeGrace },
    wound,
    advanceWounds,
  };
}
