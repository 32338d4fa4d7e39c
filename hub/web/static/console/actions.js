// The dealer console's betting: whose turn it is — or, while cards are dealt, which card
// goes where next (the rules' dealing procedure says: state.next_deal) —, one button per
// legal action with the engine's amounts, the amount slider and field for a bet or raise
// with presets where the structure allows them (½ pot, pot, min, all in; fixed amounts as
// buttons in limit games), and the chosen action waiting for Confirm (Enter). An amount
// typed below the minimum is not raised to it behind the dealer's back: the page says so
// and sends nothing until it is a legal amount.

import { el } from "../lib/dom.js";
import { clamp } from "../lib/format.js";
import { i18n } from "../lib/i18n.js";
import { send } from "./api.js";
import { button } from "./controls.js";
import { changed, store } from "./store.js";

const t = (key, values) => i18n.t(key, values);
let legalKey = "";

/** An action as the console says it ("Raise to 60"), its amount in the reader's digits. */
export function actionLabel(act, raw) {
  const to = i18n.num(raw);
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
  if (!state.in_hand) return { kind: "wait", text: t("console.waiting") };
  if (legal) return { kind: "act", text: t("console.toAct", { seat: legal.seat }) };
  if (state.showdown && state.showdown.next) {
    const key = state.showdown.uncalled ? "console.toShowUncalled" : "console.toShow";
    return { kind: "act", text: t(key, { seat: state.showdown.next }) };
  }
  const nd = state.next_deal;
  if (nd) {
    const unread = (nd.unread || []).length ? t("console.unread", { seats: nd.unread.join(", ") }) : "";
    return { kind: "deal", text: i18n.text(nd.text) || nd.kind, unread };
  }
  return { kind: "wait", text: t("console.dealing", { phase: t("phase." + state.phase) }) };
}

function renderTurn(state) {
  const turn = turnText(state);
  const box = document.getElementById("turn");
  box.dataset.kind = turn.kind;
  const parts = [el("span", "what", turn.text)];
  if (turn.unread) parts.push(el("span", "unread", turn.unread));
  box.replaceChildren(...parts);
}

function actionButtons(legal) {
  const buttons = [];
  if (legal.fold) buttons.push(button("act-fold", t("console.fold"), "F", () => choose("fold"), "fold"));
  if (legal.check) buttons.push(button("act-check", t("console.check"), "C", () => choose("check")));
  if (legal.call !== null) {
    buttons.push(button("act-call", t("console.call", { amount: i18n.num(legal.call) }), "C", () => choose("call")));
  }
  if (legal.bring_in !== null) {
    buttons.push(button("act-bring-in", t("console.bringIn", { amount: i18n.num(legal.bring_in) }), "", () => choose("bring-in")));
  }
  if (legal.bet) {
    const word = t("console." + legal.bet.act);
    buttons.push(button("act-bet", word, legal.bet.act === "bet" ? "B" : "R", () => choose("bet")));
  }
  if (legal.all_in) {
    buttons.push(button("act-all-in", t("console.allIn", { amount: i18n.num(legal.all_in.to) }), "A", () => choose("all-in"), "allin"));
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
  renderTurn(state);
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
  // not while typing, nor over an amount typed below the minimum (it stays, said wrong)
  if (document.activeElement !== input && !(pending.note && pending.note.below)) input.value = String(pending.to);
  range.disabled = bet.min_to === bet.max_to;
  input.disabled = bet.fixed;
  document.getElementById("amount-min").textContent = t("console.min", { amount: i18n.num(bet.min_to) });
  document.getElementById("amount-max").textContent = t("console.max", { amount: i18n.num(bet.max_to) });
  fixedBox.replaceChildren();
  renderPresets(bet, pending);
  document.getElementById("amount-note").textContent = pending.note ? t(pending.note.key, pending.note.values) : "";
  input.classList.toggle("invalid", Boolean(pending.note && pending.note.below));
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

/** The presets the structure allows, each a total to bet or raise to within the
 * engine's range: no limit ½ pot, pot, min and all in; pot limit ½ pot, pot (its
 * maximum) and min; none in fixed limit (its sizes are buttons of their own). The pot
 * after the call is what a pot-sized raise adds to the call. */
export function presets(state, bet) {
  if (!bet || bet.fixed) return [];
  const legal = state.legal;
  const toCall = Math.max(0, state.current_bet - legal.bet_now);
  const potAfterCall = state.pot + toCall;
  const out = [];
  const add = (key, to) => {
    if (to < bet.min_to || to > bet.max_to || out.some((x) => x.to === to)) return;
    out.push({ key, to });
  };
  add("console.presetHalfPot", state.current_bet + Math.floor(potAfterCall / 2));
  add("console.presetPot", state.current_bet + potAfterCall);
  add("console.presetMin", bet.min_to);
  if (state.structure === "no limit" && legal.all_in) add("console.presetAllIn", legal.all_in.to);
  return out;
}

// rebuilt only when the presets change (a blur re-renders the panel as the finger comes
// down on a preset: rebuilding it then would swallow the tap)
function renderPresets(bet, pending) {
  const box = document.getElementById("amount-presets");
  const list = presets(store.state, bet);
  if (changed("presets", list, i18n.lang)) {
    box.replaceChildren(...list.map((p) => {
      const b = el("button", "preset", t(p.key, { amount: i18n.num(p.to) }));
      b.type = "button";
      b.dataset.amount = String(p.to);
      b.dataset.preset = p.key.replace("console.preset", "").toLowerCase();
      b.addEventListener("click", () => {
        if (!store.pending) return;
        store.pending.to = p.to;
        store.pending.note = null;
        document.getElementById("amount-input").value = String(p.to);
        renderAmount();
        renderPending();
      });
      return b;
    }));
  }
  box.querySelectorAll(".preset").forEach((b) => {
    b.classList.toggle("selected", pending.to === Number(b.dataset.amount) && !pending.note);
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

/** Take a typed or slid amount. Too much is cut to the maximum, and the page says so;
 * too little stays as typed, marked, with the minimum said (`final`: typing ended) —
 * nothing is sent until the amount is legal. */
export function setAmount(value, final) {
  const bet = store.state && store.state.legal && store.state.legal.bet;
  const pending = store.pending;
  if (!bet || !pending) return;
  const input = document.getElementById("amount-input");
  const n = Math.round(Number(value));
  pending.note = null;
  if (!Number.isFinite(n) || String(value).trim() === "") {
    if (final) pending.note = { key: "console.amountMissing", values: { min: i18n.num(bet.min_to) }, below: true };
  } else if (n > bet.max_to) {
    pending.to = bet.max_to;
    input.value = String(bet.max_to);
    pending.note = { key: "console.amountCut", values: { typed: i18n.num(n), max: i18n.num(bet.max_to) } };
  } else if (n < bet.min_to) {
    if (final) {
      const key = bet.act === "raise" ? "console.belowMinRaise" : "console.belowMinBet";
      pending.note = { key, values: { typed: i18n.num(n), min: i18n.num(bet.min_to) }, below: true };
    }
  } else {
    pending.to = n;
  }
  document.getElementById("amount-range").value = String(pending.to);
  renderAmount();
  renderPending();
  if (!final && n < bet.min_to) input.classList.add("invalid");
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
    if (pending.note && pending.note.below) return; // said on the page: below the minimum
    to = clamp(pending.to, legal.bet.min_to, legal.bet.max_to);
    if (legal.bet.fixed && !(legal.bet.amounts || []).includes(to)) return;
  }
  store.pending = null;
  renderPending();
  await send("/api/console/action", { seat: legal.seat, act, to });
}
