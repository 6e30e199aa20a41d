// The create-table form: the password field matters only for a password table.
import "./entropy.js"; // the creator's share of the deal, sent with the form
const field = document.querySelector(".password-field");
const choices = document.querySelectorAll('input[name="visibility"]');

function update() {
  const chosen = document.querySelector('input[name="visibility"]:checked');
  field.hidden = !chosen || chosen.value !== "password";
}

if (field && choices.length) {
  choices.forEach((choice) => choice.addEventListener("change", update));
  update();
}
