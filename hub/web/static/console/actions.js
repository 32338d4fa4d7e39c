// The dealer console's betting: whose turn it is, one button per legal action with the
// engine's amounts, the amount slider and field for a bet or raise (fixed amounts as
// buttons in limit games), and the chosen action waiting for Confirm (Enter).

import { clamp } from "../lib/format.js";
import { i18n } from "../lib/i18n.js";
import { send } from "./api.js";
import { button } from "./controls.js";
import { changed, store } from "./store.js";

const t = (key, values) => i18n.t(key, values);
let legalKey = "";

function actionLabel(act, to) {
  if (act === "fold") return t("console.fold");
  if (act === "check") return t("console.check");
  if (act === "call") return t("console.call", { amount: to });
  if (act === "bring-in") return t("console.bringIn", { amount: to });
  if (act === "all-in") return t("console.allIn", { amount: to });
  if (act === "bet") return t("console.betTo", { amount: to });
  if (act === "raise") return t("console.raiseTo", { amount: to });
  return t("console.completeTo", { amount: to });
}

function turnText(state) {
  const legal = state.legal;
  if (!state.in_hand) return t("console.waiting");
  if (legal) return t("console.toAct", { seat: legal.seat });
  if (state.showdown && state.showdown.next) {
    const key = state.showdown.uncalled ? "console.toShowUncalled" : "console.toShow";
    return t(key, { seat: state.showdown.next });
  }
  return t("console.dealing", { phase: t("phase." + state.phase) });
}

function actionButtons(legal) {
  const buttons = [];
  if (legal.fold) buttons.push(button("act-fold", t("console.fold"), "F", () => choose("fold"), "fold"));
  if (legal.check) buttons.push(button("act-check", t("console.check"), "C", () => choose("check")));
  if (legal.call !== null) {
    buttons.push(button("act-call", t("console.call", { amount: legal.call }), "C", () => choose("call")));
  }
  if (legal.bring_in !== null) {
    buttons.push(button("act-bring-in", t("console.bringIn", { amount: legal.bring_in }), "", () => choose("bring-in")));
  }
  if (legal.bet) {
    const word = t("console." + legal.bet.act);
    buttons.push(button("act-bet", word, legal.bet.act === "bet" ? "B" : "R", () => choose("bet")));
  }
  if (legal.all_in) {
    buttons.push(button("act-all-in", t("console.allIn", { amount: legal.all_in.to }), "A", () => choose("all-in"), "allin"));
  }
  return buttons;
}

/** Draw whose turn it is and the action buttons (rebuilt only when the legal actions
 * changed); a new set of legal actions drops the action chosen before. */
export function renderActions() {
  const state = store.state;
  const legal = state.legal;
  const key = legal ? JSON.stringify(legal) + "#" + state.hand : "";
  if (key !== legalKey) {
    legalKey = key;
    store.pending = null;
  }
  document.getElementById("turn").textContent = turnText(state);
  if (changed("actions", key, i18n.lang)) {
    document.getElementById("actions").replaceChildren(...(legal ? actionButtons(legal) : []));
  }
  renderAmount();
  renderPending();
}

/** Draw the amount controls while a bet or raise is chosen. */
export function renderAmount() {
  const pending = store.pending;
  const box = document.getElementById("amount");
  const legal = store.state.legal;
  const bet = legal && legal.bet;
  const on = Boolean(bet && pending && pending.act === bet.act);
  box.hidden = !on;
  if (!on) return;
  const range = document.getElementById("amount-range");
  const input = document.getElementById("amount-input");
  const fixedBox = document.getElementById("amount-fixed");
  for (const e of [range, input]) {
    e.min = String(bet.min_to);
    e.max = String(bet.max_to);
  }
  range.value = String(pending.to);
  if (document.activeElement !== input) input.value = String(pending.to); // not while typing
  range.disabled = bet.min_to === bet.max_to;
  input.disabled = bet.fixed;
  document.getElementById("amount-min").textContent = t("console.min", { amount: bet.min_to });
  document.getElementById("amount-max").textContent = t("console.max", { amount: bet.max_to });
  fixedBox.replaceChildren();
  range.hidden = Boolean(bet.fixed);
  if (!bet.fixed) return;
  (bet.amounts || [bet.min_to]).forEach((amount) => {
    const b = button("", String(amount), "", () => {
      if (store.pending) store.pending.to = amount;
      renderAmount();
      renderPending();
    });
    b.classList.toggle("selected", pending.to === amount);
    b.dataset.amount = String(amount);
    fixedBox.append(b);
  });
}

/** Draw the chosen action waiting for Confirm. */
export function renderPending() {
  const pending = store.pending;
  const box = document.getElementById("pending");
  box.hidden = !pending;
  if (!pending) return;
  document.getElementById("pending-text").textContent =
    t("console.pendingFor", { seat: store.state.legal.seat, action: actionLabel(pending.act, pending.to) });
}

/** Choose an action (a button or its key); Enter or Confirm sends it. */
export function choose(which) {
  const legal = store.state && store.state.legal;
  if (!legal) return;
  let pending;
  if (which === "fold" && legal.fold) pending = { act: "fold", to: 0 };
  else if (which === "check" && legal.check) pending = { act: "check", to: 0 };
  else if (which === "call" && legal.call !== null) pending = { act: "call", to: legal.call };
  else if (which === "bring-in" && legal.bring_in !== null) pending = { act: "bring-in", to: legal.bring_in };
  else if (which === "all-in" && legal.all_in) pending = { act: "all-in", to: legal.all_in.to };
  else if (which === "bet" && legal.bet) pending = { act: legal.bet.act, to: legal.bet.min_to };
  else return;
  store.pending = pending;
  renderAmount();
  renderPending();
  if (which === "bet" && !legal.bet.fixed) {
    const input = document.getElementById("amount-input");
    input.focus();
    input.select();
  }
}

/** Drop the chosen action (Esc or Cancel). */
export function cancelPending() {
  store.pending = null;
  renderAmount();
  renderPending();
}

/** Take a typed or slid amount: too much is cut to the maximum at once, too little waits
 * for the end of typing (`final`). */
export function setAmount(value, final) {
  const bet = store.state && store.state.legal && store.state.legal.bet;
  const pending = store.pending;
  if (!bet || !pending) return;
  const input = document.getElementById("amount-input");
  const n = Math.round(Number(value));
  const fix = final || !Number.isFinite(n) || n > bet.max_to;
  pending.to = clamp(n, bet.min_to, bet.max_to);
  input.classList.toggle("invalid", !fix && n < bet.min_to);
  if (fix) input.value = String(pending.to);
  document.getElementById("amount-range").value = String(pending.to);
  renderPending();
}

/** Send the chosen action to the hub. */
export async function confirmAction() {
  const legal = store.state && store.state.legal;
  const pending = store.pending;
  if (!pending || !legal) return;
  const act = pending.act;
  let to = 0;
  if (legal.bet && act === legal.bet.act) {
    const input = document.getElementById("amount-input");
    if (!legal.bet.fixed) setAmount(input.value, true);
    to = clamp(pending.to, legal.bet.min_to, legal.bet.max_to);
    if (legal.bet.fixed && !(legal.bet.amounts || []).includes(to)) return;
  }
  store.pending = null;
  renderPending();
  await send("/api/console/action", { seat: legal.seat, act, to });
}
