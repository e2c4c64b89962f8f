// Sistema Athkri's script for its part of the referee console (templates/console.html), loaded
// by the console for this rule system's characters (the page's `console_modules`), kept
// offline with its other static files. The kind `dice`: a 1o3d10 the referee asks for. The
// server rolls it from the event's seed and the entry (the rule system may lower it for a
// wound), and keeps it with the recent rolls. Its sheet opens from "More"; once rolled, the
// sheet closes and the console's answer says what came out (`said(roll)`), the state on
// screen again.
const BONUS = [-20, 30];

// Shown when the event's rule system declares the kind "dice" (the event kit's ``own_kinds``).
// `log(kind, fields)` records an entry and resolves with the server's answer ({state}), or
// with nothing to show yet (offline, refused).
export function setUp(root, { ownKinds, log, said }) {
  const box = root.querySelector("[data-dice]");
  const open = root.querySelector("[data-dice-open]");
  if (!box || !ownKinds.includes("dice")) return;
  if (open) open.hidden = false;
  const bonus = box.querySelector("[data-dice-bonus-value]");
  let level = 0;

  async function roll() {
    const difficulty = box.querySelector("[data-dice-target]").value;
    const fields = { level, bonus: Number(bonus.textContent) };
    if (difficulty) fields.difficulty = Number(difficulty);
    box.close?.();
    const answer = await log("dice", fields);
    const rolled = answer?.state?.rolls?.findLast((r) => r.what === "dice");
    if (rolled) said(rolled);
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
