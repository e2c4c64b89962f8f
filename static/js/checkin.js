// The check-in desk's camera: one tap starts it, a badge's QR code read fills the desk's
// lookup and submits it (the server finds the player, as for a pasted scan link or a typed
// code), and the camera stops. The camera and the decoder are the scanner's (lib/camera.js).
import { closeCamera, makeDetector, openCamera, watchFrames } from "./lib/camera.js";

const root = document.querySelector("[data-desk-camera]");
const config = root.dataset; // URLs, and every sentence already translated by the server
const view = root.querySelector(".scan-view");
const video = view.querySelector("video");
const status = root.querySelector("[data-status]");
const start = root.querySelector("[data-camera-start]");
const stop = root.querySelector("[data-camera-stop]");
const lookup = document.querySelector("form[data-desk-lookup]");
const input = lookup.querySelector("input[name=q]");

let stream = null;
let decoder = null; // loaded at the first tap: a desk may never use the camera

const say = (text) => (status.textContent = text);

function stopCamera() {
  closeCamera(stream);
  stream = null;
  video.srcObject = null;
  view.hidden = true;
  stop.hidden = true;
  start.hidden = false;
}

function found(text) {
  stopCamera(); // read: the camera's work is done
  say(config.msgLookingUp);
  input.value = text;
  lookup.requestSubmit();
}

async function startCamera() {
  start.hidden = true;
  say(config.msgStarting);
  decoder ??= makeDetector(config.ponyfill, config.wasm);
  decoder.catch(() => {}); // reported below, once the camera is on
  try {
    stream = await openCamera();
  } catch (error) {
    start.hidden = false;
    say(error?.reason === "denied" ? config.msgCameraDenied : config.msgCameraFailed);
    input.focus();
    return;
  }
  video.srcObject = stream;
  view.hidden = false;
  stop.hidden = false;
  video.play().catch(() => {});
  let detector;
  try {
    detector = await decoder;
  } catch {
    decoder = null; // tried again at the next tap
    stopCamera();
    say(config.msgDecoderFailed);
    return;
  }
  say(config.msgScanning);
  const mine = stream; // a stop and a new start make a new loop: this one ends
  await watchFrames(detector, video, {
    running: () => stream === mine && stream !== null,
    onRead: found,
  });
}

start.addEventListener("click", startCamera);
stop.addEventListener("click", () => {
  stopCamera();
  say("");
});
document.addEventListener("visibilitychange", () => {
  if (document.hidden && stream) stopCamera();
});
window.addEventListener("pagehide", () => {
  if (stream) stopCamera();
});
