// Forms marked data-time-zone carry this browser's time zone (e.g. Europe/Rome): the server
// then writes instants at the organiser's local time (the exports).
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "";
for (const input of document.querySelectorAll("input[data-time-zone]")) input.value = zone;
