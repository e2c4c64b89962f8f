// The referee's scanner: the camera reads a badge's QR code (or the referee types its short
// code), the API names the character, and its console opens. The camera and the QR decoder
// are lib/camera.js's, shared with the organiser's check-in desk.
//
// With no network the badge is looked up on the phone's roster (hashes only, lib/roster.js)
// and the console opens from the service worker's copy.
import { ApiError, getJSON } from "./lib/api.js";
import { closeCamera, makeDetector, openCamera, watchFrames } from "./lib/camera.js";
import { startNetbar } from "./lib/netbar.js";
import { characters, events, findBadge } from "./lib/roster.js";
import { folded } from "./lib/search.js";

const root = document.querySelector("[data-scanner]");
const view = root.querySelector(".scan-view");
const video = view.querySelector("video");
const status = root.querySelector("[data-status]");
const refusal = root.querySelector("[data-refusal]");
const torch = root.querySelector("[data-torch]");
const form = root.querySelector("form[data-code]");
const input = form.querySelector("input");
const config = root.dataset; // URLs, and every sentence already translated by the server

const IDLE_MS = 60_000; // no badge read this long: the camera stops, to save the battery
const SERVER_WAIT_MS = 3000; // at the edge of the Wi-Fi: the phone's roster answers instead
// A refused badge still in front of the camera is not asked about again until it has been
// out of sight this long: one refusal on screen (and in the organiser's log), not ten a second.
const REFUSED_QUIET_MS = 2000;

let stream = null;
let detector = null;
let scanning = false; // the detection loop is running
let busy = false; // a read is being looked up: no other read until it is answered
let refused = { text: null, seenAt: 0 };
let cameraTrouble = ""; // why there is no camera, said again after a refusal

// --- Feedback: a beep and a buzz, so the referee need not look at the screen -------------

// Browsers let a page make sound once it (or, in Chrome, the page it came from) was touched,
// and vibrate only once it was touched itself. Until then the words on screen carry the news.
let audio = null;
try {
  audio = new AudioContext();
} catch {
  // no WebAudio
}
const touched = () => navigator.userActivation?.hasBeenActive ?? true;

function tone(frequency, seconds, type = "sine") {
  if (audio?.state !== "running") return;
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  const start = audio.currentTime;
  oscillator.type = type;
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.25, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + seconds);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start(start);
  oscillator.stop(start + seconds + 0.02);
}

function feedback(kind) {
  const read = kind === "read";
  if (touched()) navigator.vibrate?.(read ? 80 : [60, 80, 60]);
  tone(read ? 1320 : 220, read ? 0.1 : 0.25, read ? "sine" : "square");
}

// A button to touch, offered only while the page may not beep: any touch will do.
const soundButton = root.querySelector("[data-sound]");
const offerSound = () => {
  soundButton.hidden = !audio || audio.state === "running" || touched();
};
audio?.resume().catch(() => {});
audio?.addEventListener("statechange", offerSound);
offerSound();
// The button goes once the touch that allowed sound has done its own work: hidden at the
// pointerdown, it would move the page under a finger still on its way to a button below.
for (const type of ["pointerdown", "keydown"]) {
  document.addEventListener(type, () => audio?.resume().catch(() => {}), { once: true });
}
for (const type of ["click", "keydown"]) {
  document.addEventListener(type, () => setTimeout(() => (soundButton.hidden = true)), {
    once: true,
  });
}

// --- Words on screen ---------------------------------------------------------------------

function say(text) {
  status.textContent = text;
}

function showRefusal(title, text) {
  refusal.querySelector("[data-refusal-title]").textContent = title;
  refusal.querySelector("[data-refusal-text]").textContent = text;
  refusal.hidden = false;
}

// --- Looking a badge up ------------------------------------------------------------------

function badgeUrl(text) {
  const url = config.api.replace("__TEXT__", encodeURIComponent(text));
  return config.event ? `${url}?event=${encodeURIComponent(config.event)}` : url;
}

function open(characterId) {
  stopCamera(); // read: the camera's work is done
  say(config.msgOpening);
  location.assign(config.console.replace("__ID__", characterId));
  return true; // busy stays set: the page is leaving
}

// No server: the phone's roster. It knows only the badges active when it was refreshed.
async function readOffline(text) {
  const character = await findBadge(text);
  const otherEvent = character && config.event && String(character.event_id) !== config.event;
  if (character && !otherEvent) return open(character.id);
  showRefusal(config.msgRefused, otherEvent ? config.msgOtherEvent : config.msgNotOnPhone);
  return false;
}

async function read(text, source) {
  busy = true;
  if (source === "camera") feedback("read");
  say(config.msgLookingUp);
  try {
    const body = await getJSON(badgeUrl(text), SERVER_WAIT_MS);
    return open(body.character.id);
  } catch (error) {
    if (!(error instanceof ApiError) && (await readOffline(text))) return true;
    if (!(error instanceof ApiError)) {
      // refused by the phone's roster: said by readOffline
    } else if (error.status === 404) {
      showRefusal(config.msgRefused, error.message);
    } else if (error instanceof ApiError && error.status === 401) {
      showRefusal(config.msgNotChecked, config.msgLoggedOut);
    } else {
      showRefusal(config.msgNotChecked, error.message);
    }
    refused = { text, seenAt: Date.now() };
    feedback("refused");
    say(stream ? config.msgScanning : cameraTrouble);
    busy = false;
    return false;
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text || busy) return;
  if (!(await read(text, "typed"))) {
    input.focus();
    input.select(); // the typo is fixed by typing over it
  }
});

// --- The camera and the decoder ----------------------------------------------------------

function offerTorch(track) {
  const capable = track?.getCapabilities?.().torch;
  torch.hidden = !capable;
  torch.setAttribute("aria-pressed", "false");
  torch.textContent = config.msgTorchOff;
}

torch.addEventListener("click", async () => {
  const track = stream?.getVideoTracks()[0];
  const on = torch.getAttribute("aria-pressed") !== "true";
  try {
    await track.applyConstraints({ advanced: [{ torch: on }] });
    torch.setAttribute("aria-pressed", String(on));
    torch.textContent = on ? config.msgTorchOn : config.msgTorchOff;
  } catch {
    torch.hidden = true;
  }
});

async function scanLoop() {
  if (scanning) return;
  scanning = true;
  await watchFrames(detector, video, {
    running: () => stream && !document.hidden,
    ready: () => !busy,
    onRead: async (text) => {
      const now = Date.now();
      if (text === refused.text && now - refused.seenAt < REFUSED_QUIET_MS) {
        refused.seenAt = now;
      } else if (stream && !busy) {
        await read(text, "camera");
      }
    },
  });
  scanning = false;
}

function cameraFailed(message) {
  cameraTrouble = message;
  view.hidden = true; // the typed code moves up where the picture was
  say(message);
  input.focus();
}

async function startCamera(decoder) {
  try {
    stream = await openCamera();
  } catch (error) {
    cameraFailed(error?.reason === "denied" ? config.msgCameraDenied : config.msgCameraFailed);
    return;
  }
  video.srcObject = stream;
  view.hidden = false;
  video.play().catch(() => {});
  offerTorch(stream.getVideoTracks()[0]);
  try {
    detector ??= await decoder;
  } catch {
    stopCamera();
    cameraFailed(config.msgDecoderFailed);
    return;
  }
  say(config.msgScanning);
  resume.hidden = true;
  idleTimer = setTimeout(pause, IDLE_MS);
  scanLoop();
}

let idleTimer = null;
const resume = root.querySelector("[data-resume]");

function stopCamera() {
  clearTimeout(idleTimer);
  closeCamera(stream);
  stream = null;
  video.srcObject = null;
  torch.hidden = true;
}

// A minute without a badge: the camera goes off; one tap on the button brings it back.
function pause() {
  stopCamera();
  view.hidden = true;
  resume.hidden = false;
  say(config.msgPaused);
}

resume.addEventListener("click", () => {
  resume.hidden = true;
  startCamera(decoder);
});

// The decoder loads while the camera starts (and while the phone asks for permission).
const decoder = makeDetector(config.ponyfill, config.wasm);
decoder.catch(() => {}); // reported by startCamera, which awaits it
startCamera(decoder);

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && stream) scanLoop();
});
window.addEventListener("pagehide", stopCamera);
window.addEventListener("pageshow", (event) => {
  // Back from a console: the page comes out of the back-forward cache with the camera off.
  if (event.persisted) {
    busy = false;
    startCamera(decoder);
  }
});

startNetbar(document.querySelector("[data-netbar]"));

// --- Search by name over the phone's roster (works offline) ------------------------------

const search = root.querySelector("#scan-search-input");
const results = root.querySelector("[data-search-results]");
const MAX_RESULTS = 20;

let searches = 0; // a slower answer to an earlier letter never replaces a later one's

search.addEventListener("input", async () => {
  const asked = ++searches;
  const wanted = folded(search.value.trim());
  if (!wanted) {
    results.replaceChildren();
    return;
  }
  // Only the events the roster still lists (an archived one's characters may linger on the
  // phone; a withdrawn one is forgotten by roster.js).
  const [open, kept] = await Promise.all([events(), characters()]);
  if (asked !== searches) return;
  const listed = new Set(open.map((e) => String(e.id)));
  const found = kept
    .filter((c) => listed.has(String(c.event_id)))
    .filter((c) => !config.event || String(c.event_id) === config.event)
    .filter((c) => folded(`${c.name}\n${c.player ?? ""}`).includes(wanted))
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, MAX_RESULTS);
  results.replaceChildren(
    ...found.map((c) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = config.console.replace("__ID__", c.id);
      const name = document.createElement("strong");
      name.textContent = c.name;
      const who = document.createElement("span");
      who.className = "muted";
      who.textContent = [c.player, c.faction].filter(Boolean).join(" · ");
      link.append(name, " ", who);
      item.append(link);
      return item;
    }),
  );
});
