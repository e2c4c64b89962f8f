// Countdowns computed from timestamps at every tick: never a counter that drifts, and right
// again the moment a sleeping phone wakes up.

// Milliseconds until an ISO instant (negative once it has passed).
export const msUntil = (iso) => Date.parse(iso) - Date.now();

// "mm:ss" (or "h:mm:ss") of a duration in milliseconds, never negative.
export function mmss(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}

// Keep every element with data-until="ISO" showing the time left, four times a second.
export function tickCountdowns(root = document) {
  const update = () => {
    for (const el of root.querySelectorAll("[data-until]")) {
      el.textContent = mmss(msUntil(el.dataset.until));
    }
  };
  update();
  setInterval(update, 250);
  document.addEventListener("visibilitychange", update);
  return update;
}
