// Told of changes by the push server (server-sent events; larp_app/push/server.py) instead of
// asking every few seconds. The page's `data-push` names the server (none: the page polls as
// ever); a stream tells only *when* to ask: the answer is asked of the app as always.

// The stream of a path of the push server, or null when the page has none or the browser
// cannot hold one.
export function streamFor(path) {
  const push = document.body?.dataset.push;
  return push && typeof EventSource !== "undefined" ? `${push}/push${path}` : null;
}

// Follow `url`: `changed()` on each change, and when the stream opens (what changed while it
// was closed); `lost()` when it is lost (the browser opens a cut stream again by itself; one
// refused, or ended by the server, is asked again after a minute). `open()`: it tells now.
export function tellMe(url, changed, lost) {
  let source = null;
  const start = () => {
    source = new EventSource(url, { withCredentials: true });
    source.onopen = changed;
    source.onmessage = changed;
    source.onerror = () => {
      lost();
      if (source.readyState === EventSource.CLOSED) setTimeout(start, 60_000);
    };
  };
  start();
  return { open: () => source?.readyState === EventSource.OPEN };
}
