// Show a character's state: numbers, wound level in words and a symbol, countdowns, statuses.
import { mmss, msUntil } from "../lib/clock.js";

const ICONS = { ok: "●", grievous: "▲", dying: "✚", dead: "✖" };

export function renderState(root, state, words, statusNames) {
  const set = (selector, value) => {
    root.querySelector(selector).textContent = value;
  };
  const wound = root.querySelector("[data-wound]");
  wound.className = `wound wound-${state.wound}`;
  set("[data-wound-icon]", ICONS[state.wound] ?? "?");
  set("[data-wound-word]", words[state.wound] ?? state.wound);
  set("[data-hp]", state.hp);
  set("[data-hp-max]", state.hp_max);
  set("[data-ap]", state.ap);
  set("[data-ap-max]", state.ap_max);
  set("[data-energy]", state.energy);
  set("[data-energy-max]", state.energy_max);
  root.querySelector("[data-armour-destroyed]").hidden = !state.armour_destroyed;

  const death = root.querySelector("[data-death]");
  death.hidden = !state.death_at;
  death.dataset.at = state.death_at ?? "";
  const next = root.querySelector("[data-next-energy]");
  next.hidden = !state.next_energy_at;
  next.dataset.at = state.next_energy_at ?? "";

  const list = root.querySelector("[data-statuses]");
  list.replaceChildren(
    ...state.statuses.map((status) => {
      const item = document.createElement("li");
      item.dataset.until = status.until ?? "";
      const name = document.createElement("strong");
      name.textContent = statusNames[status.key] ?? status.key;
      const left = document.createElement("span");
      left.className = "left";
      left.textContent = status.until ? mmss(msUntil(status.until)) : words.open;
      item.append(name, " ", left);
      return item;
    }),
  );
  tick(root);
}

// Recompute every countdown from its timestamp (called four times a second).
export function tick(root) {
  const death = root.querySelector("[data-death]");
  if (death.dataset.at) {
    root.querySelector("[data-death-left]").textContent = mmss(msUntil(death.dataset.at));
  }
  const next = root.querySelector("[data-next-energy]");
  if (next.dataset.at) {
    root.querySelector("[data-next-energy-left]").textContent = mmss(msUntil(next.dataset.at));
  }
  for (const item of root.querySelectorAll("[data-statuses] li")) {
    if (item.dataset.until) {
      item.querySelector(".left").textContent = mmss(msUntil(item.dataset.until));
    }
  }
}
