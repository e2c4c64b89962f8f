// The language this phone speaks: the one chosen on it with the switcher, else the one of the
// last page the server gave. With no network the switcher still works: the phone keeps the
// choice, shows the pages the service worker keeps in every language (templates/pwa/sw.js),
// and tells the server once it answers again. The page's own language is its <html lang>.
import { get, put } from "./store.js";

const CHOSEN = "language"; // meta: the phone's language
const UNSAID = "languageUnsaid"; // meta: true while the server has not heard the choice
const TELL_WAIT_MS = 8000;

// Read by the service worker too, to pick the copy of a page it answers offline with.
export const phoneLanguage = () => get("meta", CHOSEN);

// Tell the server the choice with the switcher's form: with the page's CSRF token, else a
// fresh one (a page kept for hours has a stale one). True once the server took it.
async function tell(form, lang) {
  const body = new FormData(form);
  body.set("lang", lang);
  const post = () =>
    fetch(form.action, {
      method: "POST",
      body,
      credentials: "same-origin",
      redirect: "manual", // taken: a redirect to the page, not worth fetching here
      signal: AbortSignal.timeout(TELL_WAIT_MS),
    });
  let answer = await post();
  if (answer.status === 400 && form.dataset.me) {
    const me = await fetch(form.dataset.me, { credentials: "same-origin" });
    if (!me.ok) return false; // not logged in: the next page the server gives brings a token
    body.set("csrf_token", (await me.json()).csrf_token);
    answer = await post();
  }
  return answer.ok || answer.type === "opaqueredirect";
}

async function told(form, lang) {
  try {
    return await tell(form, lang);
  } catch {
    return false; // no network, or no answer: said at the next page
  }
}

// Every page: its switcher takes the choice whether or not the server answers, and a choice
// the server has not shown yet is told to it as soon as a page can. It stays unsaid until a
// page comes from the server in it: an answer signed with the old language in flight at the
// same moment (a poll) may have undone it.
export async function followTheSwitcher(doc = document) {
  const form = doc.querySelector("form[data-language]");
  for (const each of doc.querySelectorAll("form[data-language]")) {
    each.addEventListener("submit", async (event) => {
      const lang = event.submitter?.value;
      if (!lang || each.dataset.plain) return;
      event.preventDefault();
      try {
        await put("meta", lang, CHOSEN);
        await put("meta", true, UNSAID);
      } catch {
        each.dataset.plain = "yes"; // no storage on this phone: the form as the server takes it
        each.requestSubmit(event.submitter);
        return;
      }
      await told(each, lang);
      again(); // from the server in the new language, or from the phone's copies
    });
  }
  const shown = doc.documentElement.lang;
  const [chosen, unsaid] = await Promise.all([get("meta", CHOSEN), get("meta", UNSAID)]);
  if (!unsaid) {
    // The server's choice (this device's, or the account's): the phone follows it. Offline
    // the page is a copy the phone chose, which says nothing new.
    if (navigator.onLine && shown && chosen !== shown) await put("meta", shown, CHOSEN);
    return;
  }
  if (!navigator.onLine || !form || !(await told(form, chosen))) return;
  const tries = Number(remembered(TRIES) ?? 0);
  if (chosen === shown || tries >= MAX_TRIES) {
    await put("meta", false, UNSAID); // shown by the server (or it will not: its own stays)
    remember(TRIES, null);
    if (chosen !== shown) await put("meta", shown, CHOSEN);
    return;
  }
  remember(TRIES, tries + 1);
  again();
}

// This page asked again (a GET: never a form sent twice), as the server or the phone's copy
// gives it now.
const again = () => location.replace(location.href.split("#")[0]);

// Pages asked again to show a choice the server was told, at most (a server that does not
// take it must not make the phone reload for ever).
const TRIES = "larp_app-language-tries";
const MAX_TRIES = 3;

function remembered(key) {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function remember(key, value) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, String(value));
  } catch {
    // private mode: one try a page
  }
}
