// The new-tournament form: an arena asks for its length, a Swiss event for its rounds, and only
// a password event for a password.
const form = document.getElementById("organise-form");

/** @param {string} name */
function chosen(name) {
  const input = /** @type {HTMLInputElement | null} */ (
    form?.querySelector(`input[name="${name}"]:checked`)
  );
  return input ? input.value : "";
}

/** @param {string} name @param {boolean} shown */
function show(name, shown) {
  const field = /** @type {HTMLElement | null} */ (form?.querySelector(`[data-field="${name}"]`));
  if (field) field.hidden = !shown;
}

function update() {
  const format = chosen("format");
  show("duration_minutes", format !== "swiss");
  show("rounds", format === "swiss");
  show("password", chosen("access") === "password");
}

if (form) {
  form.addEventListener("change", update);
  update();
}
