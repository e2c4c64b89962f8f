// What a tap did, in one fixed place just above the action bar: a green ✓ with the new
// numbers, a red ✖ with the reason in words, ⏳ while an entry waits on the phone, or 🎲 with
// what a roll came to. One message at a time; each kind has its own vibration. A red message
// stays until the referee taps it (its `onDismiss` runs then); the others go by themselves.
//
// It covers, never pushes (nothing moves), and never the header nor the bar's main buttons:
// it stands in the room between the header's bottom and the bar's top; a message too long for
// that room (a small phone, a tall header) takes the steppers' place too, for as long as it
// shows. Measured whenever it shows, the page scrolls or a size changes; a message longer
// still scrolls inside it.
const LOOK = {
  ok: { symbol: "✓", buzz: [40], ms: 3000 },
  wait: { symbol: "◷", buzz: [20, 60, 20], ms: 4000 },
  roll: { symbol: "⚄", buzz: [40], ms: 8000 },
  error: { symbol: "✖", buzz: [120, 80, 120, 80, 120], ms: null },
};

export function createFeedback(box, head = null) {
  const text = box.querySelector("[data-feedback-text]");
  const detail = box.querySelector("[data-feedback-detail]");
  const symbol = box.querySelector("[data-feedback-symbol]");
  const bar = box.parentElement;
  let timer = null;
  let current = null; // {kind, key, onDismiss}

  const main = bar.querySelector(".bar-main");

  // The room between the header and the bar (and the steppers, if it must), as the page lies now.
  function fit() {
    if (box.hidden || !head) return;
    const top = head.getBoundingClientRect().bottom + 4;
    const barBox = bar.getBoundingClientRect();
    const above = barBox.top - 4 - top;
    box.style.maxHeight = "none";
    box.style.bottom = "";
    const wanted = box.offsetHeight; // its whole height, borders included (as max-height)
    if (wanted <= above || !main) {
      box.style.maxHeight = `${Math.max(0, above)}px`;
      return;
    }
    const floor = main.getBoundingClientRect().top - 4;
    box.style.bottom = `${barBox.bottom - floor}px`;
    box.style.maxHeight = `${Math.max(0, floor - top)}px`;
  }

  function show(kind, message, { detail: more = "", key = null, onDismiss = null, failed = false } = {}) {
    const look = LOOK[kind];
    clearTimeout(timer);
    current = { kind, key, onDismiss };
    box.dataset.kind = kind;
    box.dataset.failed = String(Boolean(failed)); // a roll that failed reads in red
    symbol.textContent = look.symbol;
    text.textContent = message;
    detail.textContent = more;
    box.hidden = false;
    fit();
    box.scrollTop = 0;
    if (navigator.vibrate) navigator.vibrate(look.buzz);
    if (look.ms) timer = setTimeout(clear, look.ms);
  }

  function clear() {
    clearTimeout(timer);
    box.hidden = true;
    current = null;
  }

  function dismiss() {
    const onDismiss = current?.onDismiss;
    clear();
    onDismiss?.();
  }

  box.addEventListener("click", dismiss);
  addEventListener("scroll", fit, { passive: true });
  addEventListener("resize", fit);
  if (head && typeof ResizeObserver === "function") new ResizeObserver(fit).observe(head);

  return {
    ok: (message, options) => show("ok", message, options),
    wait: (message, options) => show("wait", message, options),
    roll: (message, options) => show("roll", message, options),
    error: (message, options) => show("error", message, options),
    clear,
    fit,
    // The message on screen: {kind, key} or null.
    get current() {
      return current && { kind: current.kind, key: current.key };
    },
  };
}
