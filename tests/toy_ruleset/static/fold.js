// The toy rule system's wounds on the phone: no wound entries of its own (a hit or a heal is
// not in this rule system), ok above 0 points, grievous at 0, dead only through `kill`.
export function makeRuleset() {
  return {
    key: "toy",
    woundHandlers: {},
    wound: (state) => (state.died_at !== null ? "dead" : state.hp > 0 ? "ok" : "grievous"),
    advanceWounds: (state) => state,
  };
}
