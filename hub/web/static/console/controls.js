// The dealer console's controls: a big button with its keyboard key, and the confirm
// dialog (Yes / No, Enter / Esc) for undo, misdeal and a player leaving.

import { el } from "../lib/dom.js";

let modalYes = null;

/** A big button labelled `label`, its key shown as <kbd>; `cls` adds classes. */
export function button(id, label, key, onClick, cls) {
  const b = el("button", "big" + (cls ? " " + cls : ""));
  b.type = "button";
  if (id) b.id = id;
  b.append(el("span", "label", label));
  if (key) {
    b.append(" ");
    b.append(el("kbd", "", key));
  }
  b.addEventListener("click", onClick);
  return b;
}

/** Ask the dealer `text`; onYes runs when they answer yes. */
export function ask(text, onYes) {
  document.getElementById("modal-text").textContent = text;
  document.getElementById("modal").hidden = false;
  modalYes = onYes;
  document.getElementById("modal-yes").focus();
}

/** Close the dialog, with the dealer's answer. */
export function closeModal(yes) {
  const fn = modalYes;
  modalYes = null;
  document.getElementById("modal").hidden = true;
  if (yes && fn) fn();
}

/** Whether the dialog is open (it takes Enter and Esc). */
export function modalOpen() {
  return !document.getElementById("modal").hidden;
}
