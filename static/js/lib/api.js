import { tellMe } from "./push.js";

// The JSON API, as the logged-in browser calls it: session cookie plus the page's CSRF token.

const csrf = () => document.querySelector('meta[name="csrf-token"]')?.content ?? "";

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message || `HTTP ${status}`);
    this.status = status;
    this.code = body?.error;
    this.fields = body?.fields || {};
  }
}

async function answer(response) {
  const body = response.headers.get("Content-Type")?.includes("json")
    ? await response.json()
    : null;
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

// A GET; with `timeoutMs`, a server that does not answer in time counts as no network.
export async function getJSON(url, timeoutMs = null) {
  const signal = timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined;
  return answer(await fetch(url, { credentials: "same-origin", signal }));
}

export async function postJSON(url, data) {
  return answer(
    await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(data),
    }),
  );
}

// Ask `url` (or what the function `url` gives at each ask) every `seconds` with
// If-None-Match; call `onChange(body)` only when it changed,
// `onReached()` whenever the server answered and `onFailed()` when it did not (no network,
// no answer within the timeout, or a server error). Returns a function that polls at once
// (after an action, or when the phone wakes up); its `forget()` drops the ETag, so that the
// next answer is a full one (when the page shows a state the poll did not give it).
// `stream`: the push server's stream of this answer's changes (lib/push.js `streamFor`), if
// any: while it is open, the answer is asked at once on each change and polled only every
// FALLBACK_SECONDS besides; whenever it is not, every `seconds` as ever.
const FALLBACK_SECONDS = 60;

export function poll(
  url,
  onChange,
  seconds = 2,
  onReached = () => {},
  onFailed = () => {},
  stream = null,
) {
  let etag = null;
  let timer = null;
  let due = 0;
  const schedule = (ms) => {
    clearTimeout(timer);
    due = Date.now() + ms;
    timer = setTimeout(tick, ms);
  };
  // Told of changes: asked every FALLBACK_SECONDS besides, a net under the stream.
  const next = () => schedule((told?.open() ? FALLBACK_SECONDS : seconds) * 1000);
  // The stream lost: asked again within `seconds`, not at the net's next turn.
  const sooner = () => {
    if (due - Date.now() > seconds * 1000) schedule(seconds * 1000);
  };
  const told = stream ? tellMe(stream, () => tick(), sooner) : null;
  const tick = async () => {
    clearTimeout(timer);
    try {
      const headers = etag ? { "If-None-Match": etag } : {};
      const signal = AbortSignal.timeout(Math.max(4000, seconds * 2000));
      const asked = typeof url === "function" ? url() : url;
      const response = await fetch(asked, { credentials: "same-origin", headers, signal });
      if (response.status === 200) {
        etag = response.headers.get("ETag");
        await onChange(await response.json());
      }
      if (response.status === 200 || response.status === 304) onReached();
      else if (response.status >= 500) onFailed();
    } catch {
      onFailed(); // offline, or no answer: try again at the next tick
    }
    next();
  };
  tick.forget = () => {
    etag = null;
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") tick();
  });
  tick();
  return tick;
}

// A client-made id for every entry.
export const newId = () => crypto.randomUUID();
export const nowISO = () => new Date().toISOString();
