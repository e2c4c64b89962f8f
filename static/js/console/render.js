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
      const end = document.createElement("button");
      end.type = "button";
      end.dataset.endStatus = status.key;
      end.textContent = `✕ ${words.endStatus}`;
      end.setAttribute("aria-label", `${words.endStatus}: ${name.textContent}`);
      item.append(name, " ", left, " ", end);
      return item;
    }),
  );
  renderTrack(root, state, words, statusNames);
  tick(root);
}

// A rule of the event's rule system (its kit's `rules`): the original, then the translation,
// each marked with its language.
function ruleSpans(rule) {
  return rule.text.flatMap(([lang, text], i) => {
    const span = document.createElement("span");
    span.lang = lang;
    span.textContent = text;
    if (i) span.className = "translation";
    return i ? [" ", span] : [span];
  });
}

// The rules recalled at this wound, in the header's wound line (none for most wounds, and
// none at all for a rule system without such texts).
export function renderWoundRules(root, state, rules) {
  const shown = rules.filter((rule) => rule.wounds?.includes(state.wound));
  root.querySelector("[data-wound-rules]").replaceChildren(
    ...shown.flatMap((rule, i) => (i ? [" · ", ...ruleSpans(rule)] : ruleSpans(rule))),
  );
}

// The rules that go with an action, beside it (set once: they do not change).
export function renderActionRules(root, rules) {
  for (const place of root.querySelectorAll("[data-action-rule]")) {
    const shown = rules.filter((rule) => rule.action === place.dataset.actionRule);
    place.replaceChildren(...shown.flatMap((rule, i) => (i ? [" · ", ...ruleSpans(rule)] : ruleSpans(rule))));
    place.hidden = shown.length === 0;
  }
}

// Only what can be done is offered: a dead character takes notes and undos only; energy
// actions need energy; a coup de grâce needs a dying (or down) character. Buttons stay in
// their place, disabled, and the "More" sheet says why.
export function renderAllowed(root, state, words) {
  const dead = state.wound === "dead";
  const down = !dead && (state.wound === "dying" || state.hp <= 0);
  const noEnergy = !state.energy_max;
  const enable = (selector, allowed) => {
    for (const button of root.querySelectorAll(selector)) button.disabled = !allowed;
  };
  enable('[data-action="hit"], [data-action="heal"]', !dead);
  enable('[data-action="undo"], [data-open="more"], [data-open="note"]', true);
  enable('[data-action="repair"], [data-action="repair-full"], [data-open="status"]', !dead);
  enable("[data-needs-energy]", !dead && !noEnergy);
  enable('[data-open="spend"]', !dead && state.energy > 0);
  enable('[data-open="coup"]', down);
  for (const button of root.querySelectorAll("[data-needs-energy]")) button.hidden = noEnergy;
  // Kept in its place, unseen: the numbers beside it do not move.
  root.querySelector("[data-energy-box]").style.visibility = noEnergy ? "hidden" : "visible";
  for (const button of root.querySelectorAll("[data-advancements] button")) {
    const short = Number(button.dataset.cost) > state.energy;
    button.disabled = dead || short;
    button.querySelector("[data-why]").textContent = short ? ` · ✖ ${words.notEnoughEnergy}` : "";
  }
  const why = [];
  if (dead) why.push(words.whyDead);
  else {
    if (noEnergy) why.push(words.whyNoEnergy);
    if (!down && !root.querySelector('[data-open="coup"]').hidden) why.push(words.whyNotDying);
  }
  root.querySelector("[data-why-not]").textContent = why.join(" ");
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
  for (const [box, left] of [
    ["[data-save]", "[data-save-left]"],
    ["[data-awake]", "[data-awake-left]"],
  ]) {
    const element = root.querySelector(box);
    if (element?.dataset.at) root.querySelector(left).textContent = mmss(msUntil(element.dataset.at));
  }
  for (const item of root.querySelectorAll("[data-statuses] li")) {
    if (item.dataset.until) {
      item.querySelector(".left").textContent = mmss(msUntil(item.dataset.until));
    }
  }
}

// A wound track, where the rule system's state has one (level, next save, what a failure
// costs) and the dice rolled; its markup is the rule system's part of the console. States
// without a `level` leave it hidden.
export function renderTrack(root, state, words, statusNames) {
  const panel = root.querySelector("[data-track]");
  if (!panel) return;
  panel.hidden = state.level === undefined;
  if (panel.hidden) return;
  const set = (selector, value) => {
    panel.querySelector(selector).textContent = value;
  };
  panel.querySelector("[data-level]").className = `wound wound-${state.wound}`;
  set("[data-level-word]", words[levelWord(state.level)] ?? state.level);
  set("[data-level-damage]", state.damage);
  set("[data-level-dead-at]", state.dead_at_damage);
  const extra = panel.querySelector("[data-extra-blindaje]");
  if (extra) {
    extra.hidden = !state.extra_blindaje;
    set("[data-extra-blindaje-left]", state.extra_blindaje ?? 0);
  }

  const save = panel.querySelector("[data-save]");
  save.hidden = !state.next_save_at;
  save.dataset.at = state.next_save_at ?? "";
  set("[data-failure-cost]", state.next_failure_damage);
  const worst = state.turns_until_death_worst_case;
  panel.querySelector("[data-turns]").hidden = worst === null || worst === undefined;
  set("[data-turns-left]", worst ?? "–");

  // Only where referees enter saves does one wait for them (the app rolls its own at once).
  panel.querySelector("[data-indefenso-save]").hidden = !(state.indefenso_save_due > 0);

  const awake = panel.querySelector("[data-awake]");
  awake.hidden = !state.awake_at || Boolean(state.died_at);
  awake.dataset.at = state.awake_at ?? "";

  const rolls = state.rolls ?? [];
  panel.querySelector("[data-rolls-box]").hidden = rolls.length === 0;
  panel.querySelector("[data-rolls]").replaceChildren(
    ...rolls
      .slice()
      .reverse()
      .map((roll) => {
        const item = document.createElement("li");
        const when = document.createElement("span");
        when.className = "muted";
        when.textContent = clockTime(roll.at);
        const what = document.createElement("strong");
        what.textContent = rollLabel(roll, words, statusNames);
        item.append(when, " ", what, " ", rollText(roll, words, statusNames));
        return item;
      }),
  );
}

// The key of a word in the page's <template data-words>: ("level", "malherido") → levelMalherido.
const wordKey = (prefix, value) => `${prefix}${value.charAt(0).toUpperCase()}${value.slice(1)}`;
const levelWord = (level) => wordKey("level", level);

function clockTime(iso) {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? "" : at.toLocaleTimeString([], { hour12: false });
}

function rollLabel(roll, words, statusNames) {
  if (roll.what === "save") return words.rollSave;
  if (roll.what === "indefenso") return words.rollIndefenso;
  if (roll.what === "dice") return words.rollDice;
  return statusNames[roll.what] ?? roll.what;
}

// "4 · 7 · 9 → middle 7 + 4 − 2 (Enfermo) = 9 / 12 ✖ failed" for a 1o3d10, with the
// modifiers it used; "d100 37" for a check.
export function rollText(roll, words, statusNames = {}) {
  if (roll.dice.length === 1 && roll.target === null) return `d100 ${roll.kept}`;
  const dice = roll.dice.join(" · ");
  const keep = roll.keep && (words[wordKey("keep", roll.keep)] ?? roll.keep);
  const kept = keep ? `${keep} ${roll.kept}` : `${roll.kept}`;
  const signed = (value) => `${value < 0 ? "−" : "+"} ${Math.abs(value)}`;
  const terms = [
    roll.bonus ? ` ${signed(roll.bonus)}` : "",
    ...(roll.modifiers ?? []).map((m) => ` ${signed(m.value)} (${statusNames[m.key] ?? m.key})`),
  ].join("");
  const sum = terms ? `${kept}${terms} = ${roll.total}` : kept;
  const target = roll.target === null ? "" : ` / ${roll.target}`;
  const outcome =
    roll.success === null ? "" : roll.success ? ` ✓ ${words.savePassed}` : ` ✖ ${words.saveFailed}`;
  return `${dice} → ${sum}${target}${outcome}`;
}

// What a condition's check means for the die rolled: the table row it falls in, or whether the
// percentage failed and what that costs.
export function checkOutcome(check, value, words, roll = null) {
  if (check.die === "1o3d10" && roll) {
    // A save against a difficulty: success ends the status.
    return { failed: !roll.success, text: `${rollText(roll, words)}. ${check.text}` };
  }
  if (check.table) {
    const row = check.table.find((r) => value >= r.from && value <= r.to);
    if (!row) return { failed: null, text: "" };
    const note = row.to >= 100 && check.note ? ` (${check.note})` : "";
    return { failed: null, text: `${row.from}–${row.to}: ${row.text}${note}` };
  }
  const failed = value <= check.fails_at_or_below;
  return failed
    ? { failed, text: `≤ ${check.fails_at_or_below}: ✖ ${words.checkFailed}. ${check.text}` }
    : { failed, text: `> ${check.fails_at_or_below}: ✓ ${words.checkPassed}` };
}

// What the phone worked out while entries wait (console/foresee.js): the entries the server
// will refuse, in words; a roll only the server makes, with what is at stake; entries left
// for after that roll; an undo only the server can apply. Hidden when nothing is to say.
export function renderForeseen(root, seen, words, what, refusal, statusNames = {}) {
  const box = root.querySelector("[data-foreseen]");
  if (!box) return;
  const lines = seen.refused.map((conflict) => {
    const line = document.createElement("li");
    line.dataset.refusedEntry = conflict.id;
    line.textContent = `✖ ${what(conflict.id)}: ${refusal(conflict)} · ${words.serverRefuses}`;
    return line;
  });
  if (seen.pending) {
    const line = document.createElement("li");
    line.dataset.toRoll = seen.pending.what;
    line.textContent = `🎲 ${toRollWords(seen.pending, words, statusNames)}`;
    lines.push(line);
    if (seen.unfolded.length) {
      const after = document.createElement("li");
      after.textContent = words.afterTheRoll.replace("%(n)s", seen.unfolded.length);
      lines.push(after);
    }
  }
  if (seen.unsure) {
    const line = document.createElement("li");
    line.textContent = `↶ ${words.undoUnsure}`;
    lines.push(line);
  }
  box.replaceChildren(...lines);
  box.hidden = lines.length === 0;
}

// "To be rolled by the server: a save at 12; a failure costs 4 points".
function toRollWords(pending, words, statusNames) {
  const stakes = pending.stakes ?? {};
  const fill = (text, values) => text.replace(/%\((\w+)\)s/g, (all, name) => String(values[name] ?? all));
  if (stakes.code === "save") {
    return fill(words.toRollSave, { target: stakes.target, points: stakes.failure_damage });
  }
  if (stakes.code === "deadly_save") return fill(words.toRollDeadly, { target: stakes.target });
  const named = stakes.key ? statusNames[stakes.key] ?? stakes.key : words.rollDice;
  return fill(words.toRoll, { what: named });
}
