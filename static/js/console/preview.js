// A preview of entries still on the phone, so that a referee offline sees a hit take its
// points at once. Only the plain arithmetic (armour first unless pierce, then hit points;
// heals, energy, repairs, statuses): the server's rules engine decides the real state and
// its answer replaces this. The console marks the numbers as a preview while any is waiting.
export function preview(state, entries, statusSeconds) {
  if (entries.length === 0 || state.wound === "dead") return state;
  const next = { ...state, statuses: [...state.statuses] };
  for (const entry of entries) {
    apply(next, entry, statusSeconds);
  }
  return next;
}

const clamp = (value, low, high) => Math.min(high, Math.max(low, value));

function apply(s, entry, statusSeconds) {
  switch (entry.kind) {
    case "hit":
      for (let blow = 0; blow < (entry.blows ?? 1); blow += 1) {
        let rest = entry.damage ?? 1;
        if (!entry.pierce) {
          const absorbed = Math.min(s.ap, rest);
          s.ap -= absorbed;
          rest -= absorbed;
        }
        if (s.hp > 0) s.hp = Math.max(0, s.hp - rest);
      }
      break;
    case "heal":
      s.hp = clamp(Math.max(s.hp, 0) + entry.amount, s.hp, s.hp_max);
      break;
    case "repair":
      s.ap = entry.full ? s.ap_max : clamp(s.ap + entry.amount, 0, s.ap_max);
      break;
    case "spend_energy":
      s.energy = clamp(s.energy - entry.amount, 0, s.energy_max);
      break;
    case "restore_energy":
      s.energy = clamp(s.energy + entry.amount, 0, s.energy_max);
      break;
    case "status_on": {
      const seconds = entry.seconds ?? statusSeconds[entry.key];
      const until =
        seconds == null ? null : new Date(Date.parse(entry.at) + seconds * 1000).toISOString();
      s.statuses = [...s.statuses.filter((x) => x.key !== entry.key), { key: entry.key, until }];
      break;
    }
    case "status_off":
      s.statuses = s.statuses.filter((x) => x.key !== entry.key);
      break;
    default:
      break; // saves, rolls, notes, undos: for the server to tell
  }
}
