// The camera and the QR decoder, shared by the referee's scanner (scan.js) and the organiser's
// check-in desk (checkin.js). The browser's own BarcodeDetector is used where there is one
// (Android Chrome); elsewhere (Chromium on Linux, Safari on iOS) the barcode-detector ponyfill
// over zxing-wasm, served from static/vendor: never from a CDN, since the event's Wi-Fi has no
// internet.

export const SCAN_EVERY_MS = 80;

// A detector of QR codes; ponyfill and wasm are the URLs of the vendor's module and its wasm.
export async function makeDetector(ponyfill, wasm) {
  if ("BarcodeDetector" in window) {
    try {
      const formats = await window.BarcodeDetector.getSupportedFormats();
      if (formats.includes("qr_code")) return new window.BarcodeDetector({ formats: ["qr_code"] });
    } catch {
      // a native detector that cannot read QR codes: use the ponyfill
    }
  }
  const { BarcodeDetector, prepareZXingModule } = await import(ponyfill);
  // Before the first detector is made: left alone, it fetches its wasm from a CDN.
  await prepareZXingModule({
    overrides: {
      locateFile: (path, prefix) => (path.endsWith(".wasm") ? wasm : prefix + path),
    },
    fireImmediately: true,
  });
  return new BarcodeDetector({ formats: ["qr_code"] });
}

// Why there is no camera: "denied" (not allowed) or "failed" (none, or it would not start).
export class CameraProblem extends Error {
  constructor(reason) {
    super(reason);
    this.reason = reason;
  }
}

// The back camera's stream; a CameraProblem when there is none.
export async function openCamera() {
  if (!navigator.mediaDevices?.getUserMedia) throw new CameraProblem("failed");
  try {
    return await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: {
        facingMode: { ideal: "environment" }, // "exact" fails on some phones
        width: { ideal: 1280 },
        height: { ideal: 720 },
      },
    });
  } catch (error) {
    const denied = error?.name === "NotAllowedError" || error?.name === "SecurityError";
    throw new CameraProblem(denied ? "denied" : "failed");
  }
}

export function closeCamera(stream) {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

// The text of the QR code in the video's current frame, or null.
export async function readFrame(detector, video) {
  if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) return null;
  try {
    const [code] = await detector.detect(video);
    return code?.rawValue || null;
  } catch {
    return null; // a frame the decoder cannot take: the next one will do
  }
}

// Read frames while running() says so; each text read goes to onRead (awaited), and no frame
// is read while ready() says no (a read being looked up).
export async function watchFrames(detector, video, { running, ready = () => true, onRead }) {
  while (running()) {
    if (ready()) {
      const text = await readFrame(detector, video);
      if (text) await onRead(text);
    }
    await new Promise((resolve) => setTimeout(resolve, SCAN_EVERY_MS));
  }
}
