// Show a character's state: numbers, wound level in words and a symbol, countdowns, statuses.
import { mmss, msUntil } from "../lib/clock.js";

// The event's rule system's words (its kit's `words`: larp_app/rules/vocabulary.py): what it
// calls its quantities, wound levels and own levels, and the figures it shows. Set once by
// applyVocabulary; a kit kept before words were in it has none, and keeps the page's own.
let vocabulary = { quantities: {}, wounds: {}, levels: {}, figures: {} };

// The console shows only what the rule system has: the quantities it names (each under its
// own name), the actions its rules apply (no Heal where it has none, no repair without armour).
export function applyVocabulary(root, said, handled) {
  if (!said) return;
  vocabulary = { quantities: {}, wounds: {}, levels: {}, figures: {}, ...said };
  for (const name of root.querySelectorAll("[data-quantity-name]")) {
    const quantity = vocabulary.quantities[name.dataset.quantityName];
    if (quantity) name.textContent = quantity.name;
  }
  for (const box of root.querySelectorAll("[data-quantity]")) {
    box.hidden = !vocabulary.quantities[box.dataset.quantity];
  }
  const offered = (kind) => !handled || handled.includes(kind);
  for (const button of root.querySelectorAll('[data-action="heal"]')) button.hidden = !offered("heal");
  const armour = Boolean(vocabulary.quantities.ap) && offered("repair");
  for (const button of root.querySelectorAll('[data-action="repair"], [data-action="repair-full"]')) {
    button.hidden = !armour;
  }
}

// "PS 4/24 · BL 0/0": the numbers of the quantities the rule system tracks, in its short words.
export function numbersLine(state, words) {
  const short = (key, fallback) => vocabulary.quantities[key]?.short ?? fallback;
  const tracked = (key) => !Object.keys(vocabulary.quantities).length || vocabulary.quantities[key];
  return [
    ...(tracked("hp") ? [`${short("hp", words.hpShort)} ${state.hp}/${state.hp_max}`] : []),
    ...(tracked("ap") ? [`${short("ap", words.apShort)} ${state.ap}/${state.ap_max}`] : []),
    ...(state.energy_max && tracked("energy")
      ? [`${short("energy", words.energyShort)} ${state.energy}/${state.energy_max}`]
      : []),
  ].join(" · ");
}

// The wound level in the rule system's words: its own level's word where its state has one.
export function woundWords(state) {
  const declared = vocabulary.wounds[state.wound];
  const own = state.level !== undefined ? vocabulary.levels[state.level] : undefined;
  return { icon: declared?.icon ?? "?", word: own ?? declared?.word ?? "" };
}

// `sheet`: the character's larp sheet as the phone holds it (maxima, what a break leaves);
// `checks`: the event's random checks, to say what each roll kept in the state meant.
export function renderState(root, state, words, statusNames, sheet = {}, checks = []) {
  const set = (selector, value) => {
    root.querySelector(selector).textContent = value;
  };
  const wound = root.querySelector("[data-wound]");
  wound.className = `wound wound-${state.wound}`;
  const shown = woundWords(state);
  set("[data-wound-icon]", shown.icon);
  set("[data-wound-word]", shown.word);
  // The figures the rule system shows beside the level ("damage 13 / 24").
  const figures = root.querySelector("[data-figures]");
  if (figures) {
    figures.textContent = Object.entries(vocabulary.figures)
      .filter(([key]) => state[key] !== undefined && state[key] !== null)
      .map(([key, f]) => `· ${f.name} ${state[key]}${f.of && state[f.of] != null ? `/${state[f.of]}` : ""}`)
      .join(" ");
  }
  set("[data-hp]", state.hp);
  set("[data-hp-max]", state.hp_max);
  set("[data-ap]", state.ap);
  set("[data-ap-max]", state.ap_max);
  set("[data-energy]", state.energy);
  set("[data-energy-max]", state.energy_max);
  root.querySelector("[data-armour-destroyed]").hidden = !state.armour_destroyed;
  if (state.armour_destroyed) set("[data-armour-broken-text]", armourBroken(sheet, words));

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
  renderTrack(root, state, words, statusNames, checks);
  tick(root);
}

const fill = (text, values) => text.replace(/%\((\w+)\)s/g, (all, name) => String(values[name] ?? all));

// "armour destroyed: −4; Corpo +2 stays": what a break took, and what its rule system leaves.
export function armourBroken(sheet, words) {
  const kept = sheet.armour_kept ?? [];
  const stays = kept.reduce((sum, part) => sum + part.points, 0);
  const lost = fill(words.armourLost, { n: Math.max(0, (sheet.ap_max ?? 0) - stays) });
  const left = kept.map((part) => fill(words.armourStays, { source: part.source, n: part.points }));
  return [lost, ...left].join("; ");
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
export function renderAllowed(root, state, words, sheet = {}) {
  const dead = state.wound === "dead";
  const down = !dead && (state.wound === "dying" || state.hp <= 0);
  const noEnergy = !state.energy_max;
  const enable = (selector, allowed) => {
    for (const button of root.querySelectorAll(selector)) button.disabled = !allowed;
  };
  enable('[data-action="hit"], [data-action="heal"]', !dead);
  enable('[data-action="undo"], [data-open="more"], [data-open="note"]', true);
  enable('[data-action="repair-full"], [data-open="status"]', !dead);
  // A destroyed armour is mended only by replacing it (the sheet says why, below).
  enable('[data-action="repair"]', !dead && !state.armour_destroyed);
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
    if (state.armour_destroyed) why.push(fill(words.whyArmourDestroyed, { n: sheet.ap_max ?? state.ap_max }));
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
// costs) and the dice rolled; its markup is the rule system's part of the console, in the
// header (level, save), the body (turns left, rolls) and the "More" sheet (the saves a
// referee enters). States without a `level` leave it hidden.
export function renderTrack(root, state, words, statusNames, checks = []) {
  const panel = root.querySelector("[data-track]");
  if (!panel) return;
  const body = root.querySelector("[data-track-body]");
  const tracked = state.level !== undefined;
  panel.hidden = !tracked;
  if (body) body.hidden = !tracked;
  const refereeSaves = root.querySelector("[data-referee-saves]");
  if (!tracked) {
    for (const part of [refereeSaves, ...root.querySelectorAll("[data-due]")]) if (part) part.hidden = true;
    return;
  }
  const set = (selector, value) => {
    root.querySelector(selector).textContent = value;
  };
  // A figure of the state shown while it is not 0 (`data-shown-while`), its value inside.
  for (const part of panel.querySelectorAll("[data-shown-while]")) {
    const value = state[part.dataset.shownWhile];
    part.hidden = !value;
    const out = part.querySelector("[data-value]");
    if (out) out.textContent = value ?? 0;
  }

  const save = root.querySelector("[data-save]");
  save.hidden = !state.next_save_at;
  save.dataset.at = state.next_save_at ?? "";
  set("[data-failure-cost]", state.next_failure_damage);
  const worst = state.turns_until_death_worst_case;
  root.querySelector("[data-turns]").hidden = worst === null || worst === undefined;
  set("[data-turns-left]", worst ?? "–");
  // Where referees enter saves, the "More" sheet offers them while one is due.
  if (refereeSaves) refereeSaves.hidden = save.hidden || root.dataset.saves !== "referee";

  // What waits for a referee (a save to enter): each part marked with the figure of the
  // state that counts what is due (`data-due`) shows while it is above 0.
  for (const part of root.querySelectorAll("[data-due]")) part.hidden = !(state[part.dataset.due] > 0);

  const awake = root.querySelector("[data-awake]");
  awake.hidden = !state.awake_at || Boolean(state.died_at);
  awake.dataset.at = state.awake_at ?? "";

  const rolls = state.rolls ?? [];
  root.querySelector("[data-rolls-box]").hidden = rolls.length === 0;
  if (body) body.hidden = rolls.length === 0 && root.querySelector("[data-turns]").hidden;
  root.querySelector("[data-rolls]").replaceChildren(
    ...rolls
      .slice()
      .reverse()
      .map((roll) => {
        const item = document.createElement("li");
        const when = document.createElement("span");
        when.className = "muted";
        when.textContent = clockTime(roll.at);
        item.append(when, " ", rollWords(roll, words, statusNames, checks));
        return item;
      }),
  );
}

// A roll as it reads everywhere (the answer, the recent rolls): what was rolled, its dice,
// and what it meant. "Grabbed · <die> 2 · 3 · 9 → middle 3 + 2 = 5 / 12 ✖ failed: <what that
// means>", "Confused · d100 67: 61–80: <the table's row>". The die of several dice is named by
// the check, else by the rule system's part of the console (its words' `die`).
export function rollWords(roll, words, statusNames = {}, checks = []) {
  const line = document.createElement("span");
  const what = document.createElement("strong");
  const check = checks.find((c) => c.key === roll.what);
  what.textContent = rollLabel(roll, words, statusNames);
  const many = roll.dice.length > 1;
  const die = check?.die ?? (many ? words.die : "d100");
  const told = [die, many ? rollText(roll, words, statusNames) : roll.kept].filter((t) => t !== undefined && t !== "");
  line.append(what, ` · ${told.join(" ")}`);
  if (check) {
    const meaning = checkOutcome(check, roll.kept, words, roll).text;
    if (meaning) {
      const text = document.createElement("span");
      text.dataset.rollMeaning = "";
      text.textContent = `: ${meaning}`;
      line.append(text);
    }
  }
  return line;
}

// The key of a word in the page's <template data-words>: ("roll", "save") → rollSave.
const wordKey = (prefix, value) => `${prefix}${value.charAt(0).toUpperCase()}${value.slice(1)}`;

function clockTime(iso) {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? "" : at.toLocaleTimeString([], { hour12: false });
}

function rollLabel(roll, words, statusNames) {
  // "save" → the words' rollSave: the console's and its rule system's part's; else a condition.
  return words[wordKey("roll", roll.what)] ?? statusNames[roll.what] ?? roll.what;
}

// "4 · 7 · 9 → middle 7 + 4 − 2 (<condition>) = 9 / 12 ✖ failed" for several dice of which
// one is kept, with the modifiers it used; "d100 37" for a check.
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
  if (roll && roll.target !== null && roll.target !== undefined) {
    // A roll against a difficulty (its dice are told beside it): success ends the status.
    return { failed: roll.success === false, text: check.text };
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
