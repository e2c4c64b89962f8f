// The kind `dice`, where a rule system declares it: a 1o3d10 the referee asks for. The server
// rolls it from the event's seed and the entry (the rule system may lower it for a wound), and
// keeps it with the recent rolls; this shows the section, reads the choices and says what came out.
import { rollText } from "./render.js";

const BONUS = [-20, 30];

// Shown when the event's rule system declares the kind "dice" (the event kit's ``own_kinds``).
// `log(kind, fields)` records an entry and resolves with the server's answer ({state}), or
// with nothing to show yet (offline, refused).
export function setUpDice(root, ownKinds, log, words) {
  const box = root.querySelector("[data-dice]");
  if (!box || !ownKinds.includes("dice")) return;
  box.hidden = false;
  const bonus = box.querySelector("[data-dice-bonus-value]");
  const result = box.querySelector("[data-dice-result]");
  let level = 0;

  async function roll() {
    result.hidden = true;
    const target = box.querySelector("[data-dice-target]").value;
    const fields = { level, bonus: Number(bonus.textContent) };
    if (target) fields.target = Number(target);
    const answer = await log("dice", fields);
    const rolled = answer?.state?.rolls?.findLast((r) => r.what === "dice");
    if (!rolled) return;
    result.className = rolled.success === false ? "flash error" : "flash info";
    result.textContent = `${words.rollDice}: ${rollText(rolled, words)}`;
    result.hidden = false;
  }

  box.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.diceLevel !== undefined) {
      level = Number(button.dataset.diceLevel);
      for (const choice of box.querySelectorAll("[data-dice-level]")) {
        choice.setAttribute("aria-pressed", String(choice === button));
      }
    } else if (button.dataset.diceBonus !== undefined) {
      const value = Number(bonus.textContent) + Number(button.dataset.diceBonus);
      bonus.textContent = Math.min(BONUS[1], Math.max(BONUS[0], value));
    } else if (button.dataset.diceRoll !== undefined) {
      roll();
    }
  });
}
