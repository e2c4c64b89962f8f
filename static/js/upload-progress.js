// Show upload progress for large sheet files, then show the server's preview page.
for (const form of document.querySelectorAll("form[data-upload-progress]")) {
  const bar = form.querySelector("progress");
  const text = form.querySelector("[data-progress-text]");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const request = new XMLHttpRequest();
    request.open("POST", form.action);
    bar.hidden = false;
    text.hidden = false;
    request.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) {
        bar.value = Math.round((100 * e.loaded) / e.total);
        text.textContent = `${bar.value} %`;
      }
    });
    request.upload.addEventListener("load", () => {
      bar.removeAttribute("value"); // indeterminate while the server checks every sheet
      text.textContent = text.dataset.checking || "…";
    });
    request.addEventListener("load", () => {
      document.open();
      document.write(request.responseText);
      document.close();
      history.replaceState(null, "", form.action);
    });
    request.addEventListener("error", () => form.submit());
    request.send(new FormData(form));
  });
}
