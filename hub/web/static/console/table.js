// The dealer console's table: the hand line (hand, game, street, button, blinds), the
// board and the pot, and one box per seat (name, stack, bet, cards as backs or shown
// faces, notes such as folded or all in). An antenna whose reader is offline (its node
// gone: the state marks it `unknown`) is drawn greyed with a "?" and "reader offline",
// never as an empty one. The hub never sends this page a hole card before showdown, so it
// cannot show one.

import { cardEl, unknownCardEl } from "../lib/cards.js";
import { el } from "../lib/dom.js";
import { i18n } from "../lib/i18n.js";
import { store } from "./store.js";

const t = (key, values) => i18n.t(key, values);
const card = (code) => cardEl(code, "span");

function antenna(reader) {
  return (store.state.antennas || []).find((x) => x.reader === reader);
}

function offlineMark() {
  return unknownCardEl(t("console.readerOffline"), "span");
}

function streetName(name) {
  return i18n.has("street." + name) ? t("street." + name) : name;
}

/** Draw the hand line, the board and the pot. */
export function renderHand() {
  const state = store.state;
  const info = document.getElementById("hand-info");
  if (state.in_hand) {
    let text = t("console.handInfo", {
      hand: state.hand, game: state.game_name, street: streetName(state.street), button: state.button,
    });
    if (state.small_blind || state.big_blind) {
      text += t("console.blinds", { sb: state.small_blind || "–", bb: state.big_blind || "–" });
    }
    info.textContent = text;
  } else {
    info.textContent = t("console.noHand");
  }
  info.dataset.hand = String(state.hand);
  const board = document.getElementById("board");
  board.replaceChildren(...state.board.map((c) => card(c)));
  const boardOffline = (state.antennas || []).some((a) => a.kind === "board" && a.unknown);
  board.classList.toggle("unknown", boardOffline);
  if (boardOffline) board.append(offlineMark());
  document.getElementById("pot").textContent = String(state.pot);
}

function seatCount(seat) {
  const a = antenna("seat" + seat);
  return a ? a.count : 0;
}

function seatHead(state, seat) {
  const head = el("div", "seat-head");
  head.append(el("span", "seat-no", String(seat)));
  const badges = el("span", "badges");
  if (state.button === seat) badges.append(el("span", "badge btn", "D"));
  if (state.in_hand && state.small_blind === seat) badges.append(el("span", "badge", "SB"));
  if (state.in_hand && state.big_blind === seat) badges.append(el("span", "badge", "BB"));
  head.append(badges);
  return head;
}

function seatNotes(p, offline) {
  const notes = el("div", "notes");
  if (offline) notes.append(el("span", "note offline", t("console.readerOffline")));
  if (p) {
    if (p.folded) notes.append(el("span", "note", t("console.folded")));
    if (p.all_in) notes.append(el("span", "note allin", t("console.allInBadge")));
    if (p.sitting_out) notes.append(el("span", "note", t("console.sittingOut")));
    if (p.owes && p.owes !== "nothing") notes.append(el("span", "note", t("console.owes", { what: p.owes })));
    if (p.pending) notes.append(el("span", "note", t("console.pending", { amount: p.pending })));
  }
  return notes;
}

/** Draw a box for every seat of the table. */
export function renderSeats() {
  const state = store.state;
  const root = document.getElementById("seats");
  const players = new Map(state.players.map((p) => [p.seat, p]));
  const shown = new Map((state.shown || []).map((s) => [s.seat, s.cards]));
  const boxes = [];
  for (let seat = 1; seat <= state.seating.seats; seat++) {
    const p = players.get(seat);
    const box = el("div", "seat");
    box.dataset.seat = String(seat);
    const name = el("div", "name", p ? p.name : t("console.empty"));
    name.dataset.field = "name";
    const stack = el("div", "stack", p ? String(p.stack) : "");
    stack.dataset.field = "stack";
    stack.title = t("console.stack");
    const bet = el("div", "bet", p && p.bet ? String(p.bet) : "");
    bet.dataset.field = "bet";
    bet.title = t("console.betLabel");
    const cards = el("div", "cards");
    const faces = shown.get(seat);
    const offline = Boolean((antenna("seat" + seat) || {}).unknown);
    if (faces) faces.forEach((c) => cards.append(card(c)));
    else {
      (p && p.up ? p.up : []).forEach((c) => cards.append(card(c)));
      for (let i = (p && p.up ? p.up.length : 0); i < seatCount(seat); i++) cards.append(card(null));
      if (offline) cards.append(offlineMark());
    }
    box.append(seatHead(state, seat), name, stack, bet, cards, seatNotes(p, offline));
    box.classList.toggle("empty", !p);
    box.classList.toggle("unknown", offline);
    box.classList.toggle("acting", state.acting === seat);
    box.classList.toggle("folded", Boolean(p && p.folded));
    box.classList.toggle("allin", Boolean(p && p.all_in));
    box.classList.toggle("out", Boolean(p && (!p.in_hand && state.in_hand)));
    boxes.push(box);
  }
  root.replaceChildren(...boxes);
}
