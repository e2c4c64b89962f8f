// A rule system's own kinds of entry that the console offers as a form (declared once on the
// server: larp_app.rules.kinds.EntryKind with console "form"; the event kit carries each with
// its label and fields). Each gets a button in the "More" dialog, which opens the kind's
// fields: a number for an integer, a tick for a yes/no, a line of text otherwise.

function input(field) {
  const label = document.createElement("label");
  const control = document.createElement("input");
  control.name = field.name;
  control.dataset.field = field.type;
  if (field.type === "boolean") {
    control.type = "checkbox";
    label.className = "check";
    label.append(control, ` ${field.label}`);
    return label;
  }
  if (field.type === "integer" || field.type === "number") {
    control.inputMode = "numeric";
  } else {
    control.maxLength = 200;
  }
  control.required = field.required;
  label.append(`${field.label} `, control);
  return label;
}

function value(control) {
  if (control.dataset.field === "boolean") return control.checked;
  const text = control.value.trim();
  if (text === "") return undefined;
  const isNumber = control.dataset.field === "integer" || control.dataset.field === "number";
  return isNumber && Number.isFinite(Number(text)) ? Number(text) : text;
}

export function setUpDeclaredKinds(root, kinds, log) {
  const place = root.querySelector("[data-declared-kinds]");
  const dialog = root.querySelector('[data-dialog="declared"]');
  if (!place || !dialog) return;
  const title = dialog.querySelector("[data-declared-title]");
  const fields = dialog.querySelector("[data-declared-fields]");
  const send = dialog.querySelector("[data-declared-log]");
  let current = null;
  place.replaceChildren(
    ...kinds.map((kind) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "big";
      button.dataset.declaredKind = kind.key;
      button.textContent = kind.label;
      button.addEventListener("click", () => {
        button.closest("dialog")?.close();
        current = kind;
        title.textContent = kind.label;
        fields.replaceChildren(...kind.fields.map(input));
        dialog.showModal();
      });
      return button;
    }),
  );
  send.addEventListener("click", () => {
    if (!current) return;
    const entry = {};
    for (const control of fields.querySelectorAll("input")) {
      const read = value(control);
      if (read !== undefined) entry[control.name] = read;
    }
    dialog.close();
    log(current.key, entry);
  });
}
