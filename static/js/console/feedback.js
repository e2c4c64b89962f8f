// What a tap did, in one fixed place just above the action bar (it covers, never pushes): a
// green ✓ with the new numbers, a red ✖ with the reason in words, or ⏳ while an entry waits
// on the phone. One message at a time; each kind has its own vibration. A red message stays
// until the referee dismisses it (its `onDismiss` runs then); the others fade on their own.
const LOOK = {
  ok: { symbol: "✓", buzz: [40], ms: 3000 },
  wait: { symbol: "⏳", buzz: [20, 60, 20], ms: 4000 },
  error: { symbol: "✖", buzz: [120, 80, 120, 80, 120], ms: null },
};

export function createFeedback(box) {
  const text = box.querySelector("[data-feedback-text]");
  const detail = box.querySelector("[data-feedback-detail]");
  const symbol = box.querySelector("[data-feedback-symbol]");
  let timer = null;
  let current = null; // {kind, key, onDismiss}

  function show(kind, message, { detail: more = "", key = null, onDismiss = null } = {}) {
    const look = LOOK[kind];
    clearTimeout(timer);
    current = { kind, key, onDismiss };
    box.dataset.kind = kind;
    symbol.textContent = look.symbol;
    text.textContent = message;
    detail.textContent = more;
    box.hidden = false;
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

  return {
    ok: (message, options) => show("ok", message, options),
    wait: (message, options) => show("wait", message, options),
    error: (message, options) => show("error", message, options),
    clear,
    // The message on screen: {kind, key} or null.
    get current() {
      return current && { kind: current.kind, key: current.key };
    },
  };
}
