// The referee console: one or two taps per entry, online or not. Every entry goes to the
// phone's outbox first and is sent at once when there is a network (lib/outbox.js); until
// the server answers, the numbers show a preview of its effect, marked as such.
import { getJSON, newId, nowISO, poll } from "../lib/api.js";
import { startNetbar } from "../lib/netbar.js";
import { forget, outbox, queue, takeBack } from "../lib/outbox.js";
import * as roster from "../lib/roster.js";
import { listen, put } from "../lib/store.js";
import { preview } from "./preview.js";
import { setUpDice } from "./dice.js";
import { checkOutcome, renderState, tick } from "./render.js";

const root = document.querySelector(".console");
const page = JSON.parse(root.dataset.config);
const words = { ...root.querySelector("[data-words]").dataset };
const refusal = root.querySelector("[data-refusal]");
const done = root.querySelector("[data-done]");
const id = Number(location.pathname.split("/").at(-1));
const netbar = startNetbar(document.querySelector("[data-netbar]"));

function say(element, text) {
  for (const box of [refusal, done]) box.hidden = true;
  element.textContent = text;
  element.hidden = false;
}

// The character and its event: from the page when the server rendered it for this one;
// offline the page is the last console kept, and the phone's roster has the character.
// (The page's own copy may be a kept page's, older than the roster's: the roster first.)
async function load() {
  let character = await roster.character(id);
  if (!character && page.character?.id === id) {
    await put("events", page.event);
    await put("characters", { ...page.character, stateAt: Date.now() });
    return { character: page.character, event: page.event };
  }
  if (!character && navigator.onLine) {
    await roster.refreshRoster(page.api);
    character = await roster.character(id);
  }
  return character ? { character, event: await roster.event(character.event_id) } : null;
}

const loaded = await load();
if (!loaded) {
  say(refusal, `⚠ ${words.notOnPhone}`);
  throw new Error("character not on this phone's roster");
}
const { event } = loaded;
let character = loaded.character;
const config = {
  ruleset: event.ruleset,
  statuses: event.statuses,
  checks: event.checks,
  saves: event.saves,
  me: page.me,
  organiser: page.organiser,
  entries: `${page.api}/characters/${id}/entries`,
  state: `${page.api}/characters/${id}/state`,
};
const statusNames = Object.fromEntries(config.statuses.map((s) => [s.key, s.name]));
const seconds = Object.fromEntries(config.statuses.map((s) => [s.key, s.seconds]));

root.querySelector("[data-name]").textContent = character.name;
document.title = `${character.name} · ${words.console}`;
root.querySelector("[data-who]").textContent = [character.player, character.faction]
  .filter(Boolean)
  .join(" · ");

// --- What the screen shows: the server's last state, and the entries still on the phone ----

const itemWords = (item) => `${clock(item.entry.at)} ${words[`kind_${item.entry.kind}`] ?? item.entry.kind}`;
const clock = (iso) => new Date(iso).toLocaleTimeString([], { hour12: false });

async function render() {
  const items = (await outbox()).filter((item) => item.character === id);
  const waiting = items.filter((item) => item.status === "pending");
  const state = preview(character.state, waiting.map((item) => item.entry), seconds);
  renderState(root, state, words, statusNames);
  root.dataset.preview = String(waiting.length > 0);
  const note = root.querySelector("[data-pending-note]");
  note.hidden = waiting.length === 0;
  note.textContent = `⏳ ${words.previewNote.replace("%(n)s", waiting.length)}`;
  const refused = items.filter((item) => item.status === "refused");
  root.querySelector("[data-refused-box]").hidden = refused.length === 0;
  root.querySelector("[data-refused]").replaceChildren(
    ...refused.map((item) => {
      const line = document.createElement("li");
      const what = document.createElement("strong");
      what.textContent = itemWords(item);
      const ok = document.createElement("button");
      ok.type = "button";
      ok.dataset.dismiss = item.entry.id;
      ok.textContent = words.dismiss;
      line.append(what, ` — ${item.message} `, ok);
      return line;
    }),
  );
}

async function reload() {
  character = (await roster.character(id)) ?? character;
  await render();
}

listen(reload);

// Every entry: a client-made id and when it happened; the phone's clock when sent is added
// by the outbox. Resolves with the outbox item once the server answered, or still pending.
async function log(kind, fields = {}) {
  const entry = { id: newId(), kind, at: nowISO(), ...fields };
  await queue(id, entry, config.me, document.documentElement.lang);
  await render();
  await netbar.send();
  const item = (await outbox()).find((i) => i.entry.id === entry.id);
  await reload();
  if (item?.status === "stored") {
    say(done, `✓ ${words.stored}`);
    if (navigator.vibrate) navigator.vibrate(30);
  } else if (item?.status === "refused") {
    say(refusal, `⚠ ${words.conflict}: ${item.message}`);
  } else {
    say(done, `⏳ ${words.queued}`);
  }
  refresh();
  return item;
}

// Undo: an entry still on the phone is simply taken back; else the referee's last entry
// on the server (or, offline, the last one this phone sent).
async function undoLast() {
  const mine = (await outbox()).filter((i) => i.character === id && i.entry.kind !== "undo");
  const waiting = mine.filter((i) => i.status === "pending").at(-1);
  if (waiting && (await takeBack(waiting.entry.id))) {
    await render();
    say(done, `✓ ${words.takenBack}`);
    return;
  }
  let target = null;
  try {
    const { entries } = await getJSON(config.entries);
    target = entries
      .filter((e) => e.kind !== "undo" && !e.undone && !e.conflict)
      .filter((e) => config.organiser || e.author === config.me)
      .at(-1)?.id;
  } catch {
    target = mine.filter((i) => i.status === "stored").at(-1)?.entry.id;
  }
  if (!target) {
    say(refusal, `⚠ ${words.nothingToUndo}`);
    return;
  }
  await log("undo", { target });
}

const steppers = { blows: [1, 20], damage: [1, 100] };
const read = (name) => Number(root.querySelector(`[data-${name}]`).textContent);

function resetHit() {
  for (const name of Object.keys(steppers)) root.querySelector(`[data-${name}]`).textContent = 1;
  root.querySelector("[data-pierce]").checked = false;
}

const actions = {
  hit: () => {
    const fields = { blows: read("blows"), damage: read("damage") };
    if (root.querySelector("[data-pierce]").checked) fields.pierce = true;
    resetHit();
    return log("hit", fields);
  },
  heal: () => log("heal", { amount: 1 }),
  restore: () => log("restore_energy", { amount: 1 }),
  "repair-1": () => log("repair", { amount: 1 }),
  "repair-full": () => log("repair", { full: true }),
  coup: () => log("coup_de_grace"),
  note: () => {
    const text = root.querySelector("[data-note-text]");
    const value = text.value.trim();
    text.value = "";
    return value ? log("note", { text: value }) : undefined;
  },
  undo: undoLast,
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

root.querySelector("[data-advancements]").replaceChildren(
  ...character.advancements.map((a) =>
    pickerItem(`${a.name} · ${a.energy_cost} ${words.energyCost}`, () =>
      log("spend_energy", { amount: a.energy_cost, advancement: a.name }),
    ),
  ),
);
root.querySelector("[data-status-picker]").replaceChildren(
  ...config.statuses.map((s) =>
    pickerItem(s.seconds === null ? s.name : `${s.name} · ${s.seconds} s`, () =>
      log("status_on", { key: s.key }),
    ),
  ),
);

// A condition's random check (Athkri): the server rolls it; show the die and what it means.
const checkResult = root.querySelector("[data-check-result]");

async function rollCheck(check) {
  checkResult.hidden = true;
  const item = await log("roll", { key: check.key });
  const roll = item?.state?.rolls?.findLast((r) => r.what === check.key);
  if (!roll) return;
  const { failed, text } = checkOutcome(check, roll.kept, words, roll);
  const head = document.createElement("strong");
  head.dataset.checkDie = roll.kept;
  head.textContent = `${check.name} · ${check.die} ${roll.kept}`;
  const body = document.createElement("span");
  body.dataset.checkText = "";
  body.textContent = text;
  checkResult.className = failed ? "flash error" : "flash info";
  checkResult.replaceChildren(head, " ", body);
  checkResult.hidden = false;
}

if (config.checks?.length) {
  root.querySelector("[data-checks]").hidden = false;
  root.querySelector("[data-check-buttons]").replaceChildren(
    ...config.checks.map((check) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "big";
      button.dataset.roll = check.key;
      button.textContent = `${words.roll} ${check.name}`;
      button.addEventListener("click", () => rollCheck(check));
      return button;
    }),
  );
}
// Where referees roll the saves themselves, they enter each result.
root.querySelector("[data-referee-saves]").hidden = config.saves !== "referee";
setUpDice(root, config.ruleset, log, words);

root.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (!button) return;
  if (button.dataset.endStatus) {
    log("status_off", { key: button.dataset.endStatus });
  } else if (button.dataset.dismiss) {
    forget(button.dataset.dismiss).then(render);
  } else if (button.dataset.step) {
    const output = root.querySelector(`[data-${button.dataset.step}]`);
    const [low, high] = steppers[button.dataset.step];
    const value = Number(output.textContent) + Number(button.dataset.delta);
    output.textContent = Math.min(high, Math.max(low, value));
  } else if (button.dataset.open) {
    root.querySelector(`[data-dialog="${button.dataset.open}"]`).showModal();
  } else if (button.dataset.close !== undefined) {
    button.closest("dialog").close();
  } else if (button.dataset.saveResult) {
    log("save", { success: button.dataset.saveResult === "true" });
  } else if (button.dataset.action) {
    button.closest("dialog")?.close();
    actions[button.dataset.action]?.();
  }
});

// The server's state, kept fresh while online and kept on the phone for when it is not.
const refresh = poll(
  config.state,
  async (state) => {
    await roster.saveState(id, state);
    character = { ...character, state };
    await render();
  },
  2,
);
await render();
setInterval(() => tick(root), 250);
