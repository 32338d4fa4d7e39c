// The dealer console's table: the hand line (hand, game, street, button, blinds), the
// board, the burn and the pot, and one box per seat of the table (name — never cut, it
// wraps —, stack and bet under their labels, cards as backs or shown faces, notes such
// as folded or all in). The antenna the next card goes on is lit (the seat, the burn or
// the board: state.next_deal), and so are the seats an alert names until it is
// acknowledged or its cause is gone. A card entered by hand is drawn on its seat (the
// hand's count, not only the antenna's). An antenna whose reader is offline (its node
// gone: the state marks it `unknown`) is drawn greyed with a "?" and "reader offline",
// never as an empty one. The hub never sends this page a hole card before showdown, so
// it cannot show one.

import { cardEl, unknownCardEl } from "../lib/cards.js";
import { el } from "../lib/dom.js";
import { i18n } from "../lib/i18n.js";
import { openAlerts } from "./alerts.js";
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

/** Where the next card goes: "seat" (with its number), "burn" or "board"; null when no
 * card is due. */
export function nextPlace(state) {
  const nd = state.next_deal;
  if (!nd) return null;
  if (nd.seat) return { where: "seat", seat: nd.seat };
  return { where: nd.kind === "burn" ? "burn" : "board" };
}

/** Draw the hand line, the board, the burn and the pot. */
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
  info.title = info.textContent;
  info.dataset.hand = String(state.hand);
  const place = nextPlace(state);
  const board = document.getElementById("board");
  board.replaceChildren(...state.board.map((c) => card(c)));
  const boardOffline = (state.antennas || []).some((a) => a.kind === "board" && a.unknown);
  board.classList.toggle("unknown", boardOffline);
  board.classList.toggle("next-card", Boolean(place && place.where === "board"));
  if (boardOffline) board.append(offlineMark());
  const burn = antenna("burn");
  const spot = document.getElementById("burn-spot");
  spot.hidden = !burn;
  spot.classList.toggle("next-card", Boolean(place && place.where === "burn"));
  const burned = [];
  for (let i = 0; i < (burn ? burn.count : 0); i++) burned.push(card(null));
  if (burn && burn.unknown) burned.push(offlineMark());
  document.getElementById("burn-cards").replaceChildren(...burned);
  document.getElementById("pot").textContent = i18n.num(state.pot);
}

function seatCount(seat) {
  const a = antenna("seat" + seat);
  return a ? a.count : 0;
}

function seatHead(state, seat, next, alerted) {
  const head = el("div", "seat-head");
  head.append(el("span", "seat-no", String(seat)));
  const badges = el("span", "badges");
  if (state.button === seat) badges.append(el("span", "badge btn", "D"));
  if (state.in_hand && state.small_blind === seat) badges.append(el("span", "badge", "SB"));
  if (state.in_hand && state.big_blind === seat) badges.append(el("span", "badge", "BB"));
  if (next) badges.append(el("span", "badge next", t("console.nextBadge")));
  if (alerted) badges.append(el("span", "badge alert", "!"));
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

/** The stack and the bet, each beside its label ("Stack 0 · Bet 18,022" for an all-in);
 * an empty seat has neither (its box keeps the same size). */
function chips(p) {
  const box = el("div", "chips");
  box.hidden = !p;
  const stack = el("span", "value", p ? i18n.num(p.stack) : "");
  stack.dataset.field = "stack";
  const bet = el("span", "value bet", p && p.bet ? i18n.num(p.bet) : "");
  bet.dataset.field = "bet";
  box.append(el("span", "label", t("console.stack")), stack, el("span", "label", t("console.betLabel")), bet);
  return box;
}

function seatCards(state, p, seat, offline) {
  const cards = el("div", "cards");
  const faces = (state.shown || []).find((s) => s.seat === seat);
  if (faces) {
    faces.cards.forEach((c) => cards.append(card(c)));
    return cards;
  }
  const up = p && p.up ? p.up : [];
  up.forEach((c) => cards.append(card(c)));
  // the antenna's cards, or the hand's when more (a card entered by hand is not on it)
  const held = Math.max(seatCount(seat), p && p.cards ? p.cards : 0);
  for (let i = up.length; i < held; i++) cards.append(card(null));
  if (offline) cards.append(offlineMark());
  return cards;
}

/** Draw a box for every seat of the table. */
export function renderSeats() {
  const state = store.state;
  const root = document.getElementById("seats");
  const seats = state.seating.seats;
  root.style.setProperty("--half", String(Math.max(2, Math.ceil(seats / 2))));
  const players = new Map(state.players.map((p) => [p.seat, p]));
  const place = nextPlace(state);
  const alerted = new Set(openAlerts(state).flatMap((a) => a.seats || []));
  const boxes = [];
  for (let seat = 1; seat <= seats; seat++) {
    const p = players.get(seat);
    const box = el("div", "seat");
    box.dataset.seat = String(seat);
    const next = Boolean(place && place.where === "seat" && place.seat === seat);
    const name = el("div", "name", p ? p.name : t("console.empty"));
    name.dataset.field = "name";
    const offline = Boolean((antenna("seat" + seat) || {}).unknown);
    box.append(
      seatHead(state, seat, next, alerted.has(seat)), name, chips(p), seatCards(state, p, seat, offline),
      seatNotes(p, offline),
    );
    box.classList.toggle("empty", !p);
    box.classList.toggle("unknown", offline);
    box.classList.toggle("acting", state.acting === seat);
    box.classList.toggle("next-card", next);
    box.classList.toggle("alerted", alerted.has(seat));
    box.classList.toggle("folded", Boolean(p && p.folded));
    box.classList.toggle("allin", Boolean(p && p.all_in));
    box.classList.toggle("out", Boolean(p && (!p.in_hand && state.in_hand)));
    boxes.push(box);
  }
  root.replaceChildren(...boxes);
}
