// Entries of this referee that the server stored and that later stopped counting (a late,
// earlier-dated entry from another phone, or an earlier entry undone). The server lists them
// with every sync answer (all of the referee's) and every console state (that character's);
// the phone keeps the last list and shows it until the referee dismisses each one.
import { announce, get, put } from "./store.js";

export const voided = async () => (await get("meta", "voided")) ?? [];

// Keep the server's list: the whole list (`characterId` null), or one character's part.
export async function keepVoided(list, characterId = null) {
  const others =
    characterId === null ? [] : (await voided()).filter((v) => v.character.id !== characterId);
  const next = [...others, ...list];
  const before = JSON.stringify(await voided());
  if (JSON.stringify(next) === before) return;
  await put("meta", next, "voided");
  announce({ type: "voided" });
}

// The referee has read it: the server stops listing it, and so does the phone.
export async function dismissVoided(api, entryId) {
  await put("meta", (await voided()).filter((v) => v.id !== entryId), "voided"); // at once
  const me = await (await fetch(`${api}/me`, { credentials: "same-origin" })).json();
  const response = await fetch(`${api}/conflicts/${encodeURIComponent(entryId)}/dismiss`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "X-CSRFToken": me.csrf_token },
  });
  if (!response.ok && response.status !== 404) throw new Error(`HTTP ${response.status}`);
  await put("meta", (await voided()).filter((v) => v.id !== entryId), "voided");
  announce({ type: "voided" });
}

// In words: "Hit 1 × 1 at 12:03" and "because of Kill at 11:58 (remo)".
export function voidedWords(item, words, clock) {
  const kind = (k) => words[`kind_${k}`] ?? k;
  const what = `${kind(item.kind)} ${item.summary ?? ""}`.trim();
  const cause = item.because
    ? ` · ${words.because} ${kind(item.because.kind)} ${clock(item.because.at)}` +
      (item.because.author ? ` (${item.because.author})` : "")
    : "";
  return { message: `${words.voided}: ${item.message}`, detail: `${clock(item.at)} ${what}${cause}` };
}
