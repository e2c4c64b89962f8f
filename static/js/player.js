// The player's page: its live part follows the server by itself (lib/live.js).
import { followLive } from "./lib/live.js";

const live = document.querySelector("[data-live-url]");
if (live) followLive(live, 5);
