// A button marked data-print prints the page (the CSP allows no inline handler).
for (const button of document.querySelectorAll("[data-print]")) {
  button.addEventListener("click", () => window.print());
}
