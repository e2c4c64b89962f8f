// The referee console: one or two taps per entry, the state kept fresh from the JSON API.
import { ApiError, getJSON, newId, nowISO, poll, postJSON } from "../lib/api.js";
import { checkOutcome, renderState, tick } from "./render.js";

const root = document.querySelector(".console");
const config = JSON.parse(root.dataset.config);
const words = { ...root.querySelector("[data-words]").dataset };
const statusNames = Object.fromEntries(config.statuses.map((s) => [s.key, s.name]));
const refusal = root.querySelector("[data-refusal]");
const done = root.querySelector("[data-done]");
let refresh = () => {};

const show = (state) => renderState(root, state, words, statusNames);

function say(element, text) {
  for (const box of [refusal, done]) box.hidden = true;
  element.textContent = text;
  element.hidden = false;
}

// Every entry: a client-made id, when it happened, and the phone's clock when sent.
// Returns the server's answer ({entry, state}), or null when refused or offline.
async function log(kind, fields = {}) {
  const at = nowISO();
  const entry = { id: newId(), kind, at, sent_at: at, ...fields };
  let answer = null;
  try {
    answer = await postJSON(config.entries, entry);
    show(answer.state);
    say(done, `✓ ${words.stored}`);
    if (navigator.vibrate) navigator.vibrate(30);
  } catch (error) {
    if (error instanceof ApiError) say(refusal, `⚠ ${error.message}`);
    else say(refusal, `⚠ ${words.offline}`);
  }
  refresh();
  return answer;
}

async function undoLast() {
  const { entries } = await getJSON(config.entries);
  const mine = entries
    .filter((e) => e.kind !== "undo" && !e.undone && !e.conflict)
    .filter((e) => config.organiser || e.author === config.me);
  const last = mine.at(-1);
  if (!last) {
    say(refusal, `⚠ ${words.nothingToUndo}`);
    return;
  }
  await log("undo", { target: last.id });
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
  ...config.advancements.map((a) =>
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

// A condition's random check (Athkri): the app rolls it; show the die and what it means.
const checkResult = root.querySelector("[data-check-result]");

async function rollCheck(check) {
  checkResult.hidden = true;
  const answer = await log("roll", { key: check.key });
  const roll = answer?.state.rolls?.findLast((r) => r.what === check.key);
  if (!roll) return;
  const { failed, text } = checkOutcome(check, roll.kept, words);
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

root.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (!button) return;
  if (button.dataset.endStatus) {
    log("status_off", { key: button.dataset.endStatus });
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

refresh = poll(config.state, show, 2);
setInterval(() => tick(root), 250);
