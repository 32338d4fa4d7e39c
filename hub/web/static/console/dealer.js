// The dealer console's own commands and keys: undo (the dialog names the action it takes
// back) and misdeal, each confirmed; a card typed in for a tag that will not read, on an
// antenna named as people name it (seat 1, the burn, the board — in Czech too), the one
// the next card goes on chosen at first; and the keyboard (F fold, C check or call, B/R
// bet or raise, A all in, U undo, Enter confirm, Esc cancel).

import { el } from "../lib/dom.js";
import { i18n } from "../lib/i18n.js";
import { actionLabel, cancelPending, choose, confirmAction } from "./actions.js";
import { send } from "./api.js";
import { ask, closeModal, modalOpen } from "./controls.js";
import { changed, store } from "./store.js";

const t = (key, values) => i18n.t(key, values);

/** Ask — naming the action ("Take back seat 4's raise to 60?") — then take it back. */
export function undo() {
  const state = store.state;
  if (!state || !state.can_undo) return;
  const last = state.last_action;
  const text = last
    ? t("console.confirmUndoWhat", { seat: last.seat, action: actionLabel(last.act, last.to) })
    : t("console.confirmUndo");
  ask(text, () => send("/api/console/undo", {}));
}

/** Ask, then declare a misdeal. */
export function misdeal() {
  if (store.state && store.state.can_misdeal) {
    ask(t("console.confirmMisdeal"), () => send("/api/console/misdeal", {}));
  }
}

/** An antenna as people name it: "Seat 3", "Seat 3 – up cards", "Burn", "Board",
 * "Flop card 2", "Turn", "River" (Czech too); an id outside the grammar as it is. */
export function readerName(reader) {
  const m = /^(seat|up|flop)([0-9]+)$/.exec(reader);
  if (m) return t("console.reader." + m[1], { n: m[2] });
  return i18n.has("console.reader." + reader) ? t("console.reader." + reader) : reader;
}

/** Draw the antenna choice of the manual card entry (every reader but the deck register
 * and the muck); it works only during a hand. The antenna the next card goes on is
 * chosen when the hand moves on to it. */
export function renderManual() {
  const state = store.state;
  const select = document.getElementById("manual-reader");
  const readers = (state.antennas || []).map((a) => a.reader).filter((r) => r !== "register" && r !== "muck");
  const current = select.value;
  if (changed("manual", readers, i18n.lang)) {
    select.replaceChildren(...readers.map((r) => {
      const o = el("option", "", readerName(r));
      o.value = r;
      return o;
    }));
    if (readers.includes(current)) select.value = current;
  }
  const next = state.next_deal ? state.next_deal.reader : "";
  if (changed("manual-next", next, "") && readers.includes(next) && document.activeElement !== select) {
    select.value = next;
  }
  document.getElementById("manual-enter").disabled = !state.in_hand;
}

/** Send the typed card (empty: a face-down hole card) as read on the chosen antenna. */
export async function manualCard() {
  const reader = document.getElementById("manual-reader").value;
  const code = document.getElementById("manual-card").value.trim();
  const data = await send("/api/console/card", { reader, card: code || null });
  if (data) document.getElementById("manual-card").value = "";
}

function typingIn(target) {
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement ||
    target instanceof HTMLTextAreaElement;
}

/** The console's keyboard (a keydown listener on the document). */
export function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (modalOpen()) {
    if (ev.key === "Enter") {
      ev.preventDefault();
      closeModal(true);
    } else if (ev.key === "Escape") {
      ev.preventDefault();
      closeModal(false);
    }
    return;
  }
  const target = ev.target;
  const inAmount = target && target.id === "amount-input";
  if (typingIn(target) && !inAmount) return; // the side panels' own fields
  if (ev.key === "Enter") {
    if (store.pending) {
      ev.preventDefault();
      confirmAction();
    }
    return;
  }
  if (ev.key === "Escape") {
    cancelPending();
    return;
  }
  if (inAmount) return; // digits go into the amount
  const k = ev.key.toLowerCase();
  const legal = store.state && store.state.legal;
  if (k === "f") choose("fold");
  else if (k === "c") choose(legal && legal.check ? "check" : "call");
  else if (k === "b" || k === "r") choose("bet");
  else if (k === "a") choose("all-in");
  else if (k === "u") undo();
  else return;
  ev.preventDefault();
}
