// The phone's roster refreshed off the page's thread (lib/roster.js refreshRoster): the page
// posts the API's address, this answers as refreshHere does (or says why it could not).
import { refreshHere } from "./roster.js";

self.onmessage = async (event) => {
  try {
    self.postMessage({ answer: await refreshHere(event.data.api) });
  } catch (error) {
    self.postMessage({ failed: String(error?.message ?? error) });
  }
};
