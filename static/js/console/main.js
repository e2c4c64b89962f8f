// The referee console: one or two taps per entry, online or not. Every entry goes to the
// phone's outbox first and is sent at once when there is a network (lib/outbox.js); until
// the server answers, the numbers show what the server will answer, worked out on the phone by
// the same rules (./foresee.js), marked as not yet confirmed.
import { getJSON, newId, nowISO, poll } from "../lib/api.js";
import { startNetbar } from "../lib/netbar.js";
import { forget, outbox, queue, takeBack } from "../lib/outbox.js";
import * as roster from "../lib/roster.js";
import { newest } from "../lib/fresh.js";
import { plural } from "../lib/plural.js";
import { streamFor } from "../lib/push.js";
import { listen, put } from "../lib/store.js";
import { dismissVoided, keepVoided, voided, voidedWords } from "../lib/voided.js";
import { foresee, loadFold, refusalWords } from "./foresee.js";
import { setUpDeclaredKinds } from "./declared.js";
import { createFeedback } from "./feedback.js";
import {
  applyVocabulary,
  numbersLine,
  renderActionRules,
  renderAllowed,
  renderForeseen,
  renderState,
  renderWoundRules,
  rollWords,
  tick,
} from "./render.js";

const root = document.querySelector(".console");
const page = JSON.parse(root.dataset.config);
// The console's words, and those of every rule system's part of it.
const words = Object.assign({}, ...[...root.querySelectorAll("[data-words]")].map((t) => t.dataset));
const feedback = createFeedback(root.querySelector("[data-feedback]"), root.querySelector(".console-head"));
const id = Number(location.pathname.split("/").at(-1));
const netbar = startNetbar(document.querySelector("[data-netbar]"));
let refresh = null; // polls the server's state: set once the console is ready

// The character and its event: from the page when the server rendered it for this one;
// offline the page is the last console kept, and the phone's roster has the character.
// (The page's own copy may be a kept page's, older than the roster's: the newer state wins.)
async function load() {
  let character = await roster.character(id);
  if (!character && page.character?.id === id) {
    await put("events", page.event);
    await put("characters", { ...page.character, stateAt: Date.now() });
    return { character: page.character, event: page.event };
  }
  if (character && page.character?.id === id) {
    character = { ...character, state: newest(character.state, page.character.state) };
  }
  if (!character && navigator.onLine) {
    await roster.refreshRoster(page.api);
    character = await roster.character(id);
  }
  if (!character) return null;
  // The page's kit, when it is this character's event, is in the page's language and newest.
  const event = page.event?.id === character.event_id ? page.event : await roster.event(character.event_id);
  return { character, event };
}

const loaded = await load();
if (!loaded) {
  feedback.error(words.notOnPhone);
  throw new Error("character not on this phone's roster");
}
const event = roster.inLanguage(loaded.event, document.documentElement.lang);
let character = loaded.character;
const config = {
  ruleset: event.ruleset,
  statuses: event.statuses,
  checks: event.checks,
  rules: event.rules ?? [], // a kit kept before rules were in it has none
  saves: event.saves,
  kinds: event.kinds ?? [], // the rule system's own kinds offered as a form
  ownKinds: event.own_kinds ?? [], // every kind of its own (its part of the console reads them)
  handled: event.handled_kinds ?? null, // the kinds its rules apply (null: a kit kept before)
  damageTypes: event.damage_types ?? [], // those a hit may name, physical first
  words: event.words ?? null, // the rule system's words (null: a kit kept before they were in it)
  me: page.me,
  organiser: page.organiser,
  entries: `${page.api}/characters/${id}/entries`,
  state: `${page.api}/characters/${id}/state`,
};
// Why the server would refuse an entry: the app's codes, and the rule system's own in its words.
const refusals = { ...page.refusals, ...(event.refusals ?? {}) };
const statusNames = Object.fromEntries(config.statuses.map((s) => [s.key, s.name]));
let checkButtons = []; // the "More" sheet's checks, one per condition with a check
root.dataset.saves = config.saves ?? "";
// The rule system's fold, to work out what the server will answer (null: show its last state).
const foldContext = await loadFold(page.fold_module, event, character.sheet);
let foreseen = null; // what the screen shows while entries wait: foresee()'s answer

applyVocabulary(root, config.words, config.handled);
renderActionRules(root, config.rules);
root.querySelector("[data-name]").textContent = character.name;
document.title = `${character.name} · ${words.console}`;
root.querySelector("[data-who]").textContent = [character.player, character.faction]
  .filter(Boolean)
  .join(" · ");

// --- What the screen shows: the server's last state, and the entries still on the phone ----

const itemWords = (item) => `${clock(item.entry.at)} ${words[`kind_${item.entry.kind}`] ?? item.entry.kind}`;
const clock = (iso) => new Date(iso).toLocaleTimeString([], { hour12: false });

let heldItems = []; // this character's outbox items, as last read

// The numbers as the server will have them once it has the waiting entries: worked out on
// the phone at once (no storage read: a tap shows within a frame), marked as not confirmed.
function paint(items) {
  const waiting = items.filter((item) => item.status === "pending");
  foreseen = foresee(foldContext, character.state, waiting.map((item) => item.entry));
  const { state } = foreseen;
  renderState(root, state, words, statusNames, character.sheet, config.checks);
  renderForeseen(root, foreseen, words, (entryId) => {
    const item = waiting.find((i) => i.entry.id === entryId);
    return item ? entryWhat(item.entry) : "";
  }, (conflict) => refusalWords(refusals, conflict), statusNames);
  renderWoundRules(root, state, config.rules);
  root.dataset.preview = String(waiting.length > 0);
  renderAllowed(root, state, words, character.sheet);
  renderChecks(state);
  // Something waits on the "More" sheet (a save to enter): its button says so.
  const due = [...root.querySelectorAll('[data-dialog="more"] [data-attention]')].some((e) => !e.hidden);
  root.querySelector("[data-more-attention]").hidden = !due;
  // The note takes the place of the player's name on the header's first line: nothing moves.
  const note = root.querySelector("[data-pending-note]");
  note.textContent = waiting.length ? `⏳ ${plural(words, "previewNote", waiting.length)}` : "";
  root.querySelector("[data-who]").hidden = waiting.length > 0;
}

async function render() {
  const items = (await outbox()).filter((item) => item.character === id);
  heldItems = items;
  paint(items);
  // Entries the server refused: one red message at a time, the oldest first, until read.
  const refused = items.find((item) => item.status === "refused");
  if (refused && feedback.current?.key !== refused.entry.id) {
    feedback.error(`${words.conflict}: ${refused.message}`, {
      detail: itemWords(refused),
      key: refused.entry.id,
      onDismiss: () => forget(refused.entry.id).then(render),
    });
    return;
  }
  // Then entries of this referee's that were stored and later stopped counting (a late,
  // earlier-dated entry from another phone): told until dismissed, with what caused it.
  const gone = (await voided()).find((v) => v.character.id === id);
  const shown = feedback.current?.key;
  if (shown?.startsWith("voided:") && shown !== `voided:${gone?.id}`) feedback.clear(); // seen
  if (!refused && gone && feedback.current?.key !== `voided:${gone.id}`) {
    const { message, detail } = voidedWords(gone, words, clock);
    feedback.error(message, {
      detail,
      key: `voided:${gone.id}`,
      onDismiss: () => dismissVoided(page.api, gone.id).then(render),
    });
  }
}

// Take a state heard from anywhere, unless the one shown is newer. A state that did not come
// from the poll makes the poll ask afresh (no ETag): it must not keep answering "unchanged"
// about a state the screen no longer shows.
function hear(state, fromPoll = false) {
  const kept = newest(character.state, state);
  if (kept !== character.state) {
    character = { ...character, state: kept };
    if (!fromPoll) refresh?.forget();
  }
}

async function reload() {
  const kept = await roster.character(id);
  if (kept) {
    const shown = character.state;
    character = { ...kept, state: shown };
    hear(kept.state);
  }
  await render();
}

listen(reload);

// Every entry: a client-made id and when it happened; the phone's clock when sent is added
// by the outbox. Resolves with the outbox item once the server answered, or still pending.
async function log(kind, fields = {}, said = words.stored) {
  const entry = { id: newId(), kind, at: nowISO(), ...fields };
  paint([...heldItems, { character: id, status: "pending", entry }]); // on screen at once
  await queue(id, entry, config.me, document.documentElement.lang);
  await render();
  await netbar.send();
  const item = (await outbox()).find((i) => i.entry.id === entry.id);
  if (item?.status === "stored" && item.state) hear(item.state);
  await reload();
  const refusal = item?.status === "pending" && foreseen?.refused.find((c) => c.id === entry.id);
  if (item?.status === "stored") {
    // The numbers of the state that includes this entry (or a newer one).
    feedback.ok(said, { detail: numbers(newest(item.state, character.state)) });
  } else if (refusal) {
    // Offline, the rules already say the server will refuse it: said at once, in words.
    feedback.error(`${words.serverRefuses}: ${refusalWords(refusals, refusal)}`, {
      detail: entryWhat(entry),
      key: `foreseen:${entry.id}`,
    });
  } else if (item?.status !== "refused") {
    // with the numbers the phone worked out (a refusal is on screen already: render)
    feedback.wait(words.queued, { detail: numbers(foreseen?.state ?? character.state) });
  }
  refresh?.();
  return item;
}

const numbers = (state) => numbersLine(state, words);

// What an entry was, in a few words: "Hit ×2 (3)", "Heal 3", "Status Fear".
function entryWhat(entry) {
  const kind = words[`kind_${entry.kind}`] ?? entry.kind;
  if (entry.kind === "hit") {
    const damage = (entry.damage ?? 1) > 1 ? ` (${entry.damage})` : "";
    const type = config.damageTypes.find((t) => t.key === entry.damage_type);
    return `${kind} ×${entry.blows ?? 1}${damage}${type ? ` · ${type.name}` : ""}`;
  }
  if (entry.key) return `${kind} ${statusNames[entry.key] ?? entry.key}`;
  if (entry.full) return `${kind} ${words.full}`;
  return entry.amount ? `${kind} ${entry.amount}` : kind;
}

// "Hit ×1, 2 min ago by you"
function entryWords(entry) {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(entry.at)) / 1000));
  const ago =
    seconds < 60
      ? words.secondsAgo.replace("%(n)s", seconds)
      : words.minutesAgo.replace("%(n)s", Math.floor(seconds / 60));
  const by = entry.author === config.me ? words.byYou : words.by.replace("%(who)s", entry.author);
  return `${entryWhat(entry)}, ${ago} ${by}`;
}

// Undo: an entry still on the phone is simply taken back; else the referee's last entry
// on the server (or, offline, the last one this phone sent). It names what it undoes, and
// asks first when that is more than a minute old.
const UNDO_ASKS_AFTER_MS = 60_000;
let undoTarget = null;

async function undoLast() {
  const mine = (await outbox()).filter((i) => i.character === id && i.entry.kind !== "undo");
  const waiting = mine.filter((i) => i.status === "pending").at(-1);
  if (waiting && (await takeBack(waiting.entry.id))) {
    await render();
    feedback.ok(words.takenBack, { detail: entryWords({ ...waiting.entry, author: waiting.author }) });
    return;
  }
  let target = null;
  try {
    const { entries } = await getJSON(config.entries, 5000);
    target = entries
      .filter((e) => e.kind !== "undo" && !e.undone && !e.conflict)
      .filter((e) => config.organiser || e.author === config.me)
      .at(-1);
  } catch {
    const item = mine.filter((i) => i.status === "stored").at(-1);
    target = item && { ...item.entry, author: item.author };
  }
  if (!target) {
    feedback.error(words.nothingToUndo);
    return;
  }
  undoTarget = target;
  if (Date.now() - Date.parse(target.at) > UNDO_ASKS_AFTER_MS) {
    root.querySelector("[data-undo-what]").textContent = `${words.undoAsk}: ${entryWords(target)}?`;
    root.querySelector('[data-dialog="undo"]').showModal();
    return;
  }
  await undoConfirmed();
}

function undoConfirmed() {
  const target = undoTarget;
  undoTarget = null;
  if (!target) return undefined;
  return log("undo", { target: target.id }, `${words.undone}: ${entryWords(target)}`);
}

// Blows, damage and the amount healed, repaired or restored: typed on the numeric keypad or
// stepped, always a whole number within the field's bounds (data-min, data-max).
const numberField = (name) => root.querySelector(`[data-${name}]`);

function bounded(field, value) {
  const [low, high] = [Number(field.dataset.min), Number(field.dataset.max)];
  const number = Number.parseInt(String(value).replace(/\D/g, ""), 10);
  return Number.isFinite(number) ? Math.min(high, Math.max(low, number)) : low;
}

const read = (name) => {
  const field = numberField(name);
  const value = bounded(field, field.value);
  if (String(value) !== field.value) setStep(name, value);
  return value;
};

function setStep(name, value) {
  numberField(name).value = String(value);
  showNext();
}

// What the next Hit and Heal log, on the buttons themselves: a referee whose 3 blows went in
// sees at once that the next tap is one blow again (the amounts never stay: a forgotten
// "3" would silently triple the next blow of a fight).
function showNext() {
  const [blows, damage, amount] = ["blows", "damage", "amount"].map((n) => numberField(n).value);
  const hit = root.querySelector("[data-hit-copy]");
  hit.textContent = `${blows} × ${damage}`;
  hit.toggleAttribute("data-plain", blows === "1" && damage === "1");
  const heal = root.querySelector("[data-heal-copy]");
  heal.textContent = `+${amount}`;
  heal.toggleAttribute("data-plain", amount === "1");
  for (const copy of root.querySelectorAll("[data-amount-copy]")) copy.textContent = amount;
}

for (const field of root.querySelectorAll("[data-number]")) {
  const name = Object.keys(field.dataset).find((key) => !["number", "min", "max"].includes(key));
  // A tap selects the number, so the keypad replaces it; leaving the field keeps it in bounds.
  field.addEventListener("focus", () => field.select());
  field.addEventListener("input", showNext);
  field.addEventListener("change", () => setStep(name, bounded(field, field.value)));
  field.addEventListener("keydown", (event) => {
    if (event.key === "Enter") field.blur();
  });
}

function resetHit() {
  setStep("blows", 1);
  setStep("damage", 1);
  root.querySelector("[data-pierce]").checked = false;
}

// A hit of another damage type (heat, electricity...) where the rule system tells them apart:
// a button each in "More", beside the bar's Hit (physical, every blow's unless one is named).
root.querySelector("[data-typed-hits]").replaceWith(
  ...config.damageTypes.slice(1).map((type) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "big";
    button.dataset.action = "hit";
    button.dataset.damageType = type.key;
    button.textContent = `${words.kind_hit} · ${type.name}`;
    return button;
  }),
);
// Only what the rules allow: no coup de grâce where the rule system has none.
root.querySelector('[data-open="coup"]').hidden = config.handled?.includes("coup_de_grace") === false;

// Heal, repair and restore energy log one entry with the amount of the stepper.
function withAmount(kind) {
  const amount = read("amount");
  setStep("amount", 1);
  return log(kind, { amount });
}

const actions = {
  hit: (button) => {
    const fields = { blows: read("blows"), damage: read("damage") };
    if (root.querySelector("[data-pierce]").checked) fields.pierce = true;
    if (button?.dataset.damageType) fields.damage_type = button.dataset.damageType;
    resetHit();
    return log("hit", fields);
  },
  heal: () => withAmount("heal"),
  restore: () => withAmount("restore_energy"),
  repair: () => withAmount("repair"),
  "repair-full": () => log("repair", { full: true }),
  coup: () => log("coup_de_grace"),
  note: () => {
    const text = root.querySelector("[data-note-text]");
    const value = text.value.trim();
    text.value = "";
    return value ? log("note", { text: value }) : undefined;
  },
  undo: undoLast,
  "undo-confirmed": undoConfirmed,
};

function pickerItem(label, onPick) {
  const item = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "big";
  button.textContent = label;
  button.addEventListener("click", () => {
    button.closest("dialog").close();
    onPick();
  });
  item.append(button);
  return item;
}

// Each advancement with its cost; the ones the character cannot pay now are disabled, with
// the reason (render.js renderAllowed).
root.querySelector("[data-advancements]").replaceChildren(
  ...character.advancements.map((a) => {
    const item = pickerItem(`${a.name} · ${a.energy_cost} ${words.energyCost}`, () =>
      log("spend_energy", { amount: a.energy_cost, advancement: a.name }),
    );
    const button = item.querySelector("button");
    button.dataset.cost = a.energy_cost;
    const why = document.createElement("small");
    why.dataset.why = "";
    button.append(why);
    return item;
  }),
);
// A status that lasts says how long; one of 0 seconds is instant, and says so.
const statusLabel = (s) =>
  s.seconds === null ? s.name : s.seconds === 0 ? `${s.name} · ${words.instant}` : `${s.name} · ${s.seconds} s`;

root.querySelector("[data-status-picker]").replaceChildren(
  ...config.statuses.map((s) =>
    pickerItem(statusLabel(s), () =>
      log("status_on", { key: s.key }),
    ),
  ),
);

// A status's random check (where its catalogue has one): offered on the "More" sheet for the
// conditions the character has; the server rolls it, and the answer says the die and what it
// means (kept with the recent rolls too).
const sayRoll = (roll) => {
  const line = rollWords(roll, words, statusNames, config.checks);
  const check = config.checks?.find((c) => c.key === roll.what);
  const failed =
    roll.success === false || (check?.fails_at_or_below && roll.kept <= check.fails_at_or_below);
  feedback.roll(line.textContent, { failed });
};

async function rollCheck(check) {
  const item = await log("roll", { key: check.key });
  const roll = item?.state?.rolls?.findLast((r) => r.what === check.key);
  if (roll) sayRoll(roll);
}

checkButtons = (config.checks ?? []).map((check) => {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "big";
  button.dataset.roll = check.key;
  button.hidden = true;
  button.textContent = `${words.roll} ${check.name}`;
  button.addEventListener("click", () => {
    button.closest("dialog")?.close();
    rollCheck(check);
  });
  return button;
});
root.querySelector("[data-check-buttons]").replaceChildren(...checkButtons);

// Only the checks of the conditions the character has now.
function renderChecks(state) {
  const held = new Set(state.statuses.map((s) => s.key));
  for (const button of checkButtons) {
    button.hidden = !held.has(button.dataset.roll);
    button.disabled = state.wound === "dead";
  }
}
// The rule system's own script for its part of the console, where it ships one (its
// package's static console.js, kept offline like its fold): it gets what it needs to log.
const consoleModule = page.console_modules?.[event.ruleset];
if (consoleModule) {
  import(consoleModule)
    .then((module) =>
      module.setUp?.(root, { ownKinds: config.ownKinds, kinds: config.kinds, log, said: sayRoll, words }),
    )
    .catch((error) => console.error("the rule system's console script failed", error));
}
setUpDeclaredKinds(root, config.kinds, log);

root.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (!button) return;
  if (button.dataset.endStatus) {
    log("status_off", { key: button.dataset.endStatus });
  } else if (button.dataset.step) {
    const name = button.dataset.step;
    setStep(name, bounded(numberField(name), read(name) + Number(button.dataset.delta)));
  } else if (button.dataset.open) {
    button.closest("dialog")?.close();
    root.querySelector(`[data-dialog="${button.dataset.open}"]`).showModal();
  } else if (button.dataset.close !== undefined) {
    button.closest("dialog").close();
  } else if (button.dataset.saveResult) {
    button.closest("dialog")?.close(); // the answer then shows beside the state
    log("save", { success: button.dataset.saveResult === "true" });
  } else if (button.dataset.action) {
    button.closest("dialog")?.close();
    actions[button.dataset.action]?.(button);
  }
});

// The server's state, kept fresh while online and kept on the phone for when it is not.
// (Declared before the poll starts: its first answer may come before this line is done.)
refresh = poll(
  config.state,
  async (state) => {
    const { your_conflicts: gone = [], ...shown } = state;
    await keepVoided(gone, id);
    await roster.saveState(id, shown);
    hear(shown, true);
    await render();
  },
  2,
  () => netbar.reached(true),
  () => netbar.reached(false),
  streamFor(`/characters/${id}`),
);
await render();
root.dataset.ready = "true"; // the buttons work from now on

// The screen stays awake while a console is open (Wake Lock, where the browser has it; the
// lock is let go whenever the page is hidden, so it is asked for again when it shows).
async function stayAwake() {
  try {
    await navigator.wakeLock?.request("screen");
  } catch {
    // refused (battery saver) or not a secure context: the phone dims as usual
  }
}
stayAwake();
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") stayAwake();
});
setInterval(() => tick(root), 250);
// Time goes on on the phone too, with or without a signal: a countdown ends, energy comes
// back, a save falls due (worked out from what is held: no storage read).
setInterval(() => paint(heldItems), 1000);
