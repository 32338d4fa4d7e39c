// The public table view's seats: a box for every seat that has a player or cards, with
// the name, stack and bet, the dealer button, the cards as backs (face-up stud cards as
// faces), and what the seat is doing (to act, folded, all in, shows n of the cards).
// How many cards a seat shows, never which: the public feed does not carry them. A seat
// whose reader is offline (the snapshot marks its antenna `unknown`) is greyed with a "?"
// and "Reader offline", not drawn as empty. At a showdown the seat to show is "to show",
// never "to act" (an all-in player acts no more). A player who busted out of a tournament
// keeps their name, greyed and "out", while their cards are still on the seat; the box
// goes when the cards do. Up to six seats lie in one row across the whole screen.

import { cardEl, unknownCardEl } from "../lib/cards.js";
import { el, field } from "../lib/dom.js";
import { i18n as I } from "../lib/i18n.js";
import { model } from "./model.js";

function seatNumbers() {
  const seats = new Set();
  const r = model.rules;
  if (r) r.players.forEach((p) => seats.add(p.seat));
  for (const a of model.antennas.values()) {
    const m = /^(seat|up)(\d+)$/.exec(a.reader);
    // an unknown antenna makes a seat only on a hub without rules (with them: the players)
    const offline = a.unknown && !r;
    if (m && (a.count > 0 || offline || (a.cards && a.cards.length))) seats.add(Number(m[2]));
  }
  return [...seats].sort((a, b) => a - b);
}

function labelled(cls, name) {
  const box = el("div", cls);
  box.append(el("span", "k"), el("span", "v"));
  box.querySelector(".v").dataset.field = name;
  return box;
}

function seatBox(n) {
  const box = el("div", "seat");
  box.dataset.seat = String(n);
  box.id = "seat-" + n;
  const head = el("div", "seat-head");
  const button = el("span", "dealer-button", "D");
  button.hidden = true;
  head.append(el("span", "seat-no", String(n)), button);
  const name = el("div", "name");
  name.dataset.field = "name";
  const money = el("div", "money");
  money.append(labelled("stack", "stack"), labelled("bet", "bet"));
  box.append(head, name, el("div", "cards"), money, el("div", "state"));
  return box;
}

function layout(root, count) {
  root.dataset.count = String(count);
  const cols = count <= 6 ? Math.max(count, 2) : count <= 8 ? 4 : 5;
  root.style.setProperty("--cols", String(cols));
  root.dataset.cols = String(cols);
  // up to six seats: one row under the felt, the whole screen wide (the side panel beside
  // the felt); more: rows beside the side panel
  document.querySelector("main").dataset.wide = String(count <= 6);
}

function drawCards(box, n) {
  const ant = model.antennas.get("seat" + n);
  const up = model.antennas.get("up" + n);
  const cards = box.querySelector(".cards");
  cards.replaceChildren();
  for (let i = 0; ant && i < ant.count; i++) cards.appendChild(cardEl(null));
  ((up && up.cards) || []).forEach((c) => cards.appendChild(cardEl(c)));
  cards.dataset.count = String(cards.childElementCount);
  if (offline(n)) cards.appendChild(unknownCardEl(I.t("public.reader_offline")));
}

/** True when seat n's reader (its hole or up-card antenna) is offline. */
function offline(n) {
  return ["seat", "up"].some((k) => (model.antennas.get(k + n) || {}).unknown);
}

function stateText(r, n, how) {
  if (how.offline) return I.t("public.reader_offline");
  if (how.busted) return I.t("public.out");
  // a hand shown (R-SHOW-3: perhaps only some cards): how many, never which
  const shown = ((r && r.shown) || []).find((s) => s.seat === n);
  if (shown) return shown.whole ? I.t("public.shown") : I.t("public.shown_part", { n: shown.count });
  if (how.acting) return I.t(how.showing ? "public.to_show" : "public.to_act");
  if (how.folded) return I.t("public.folded");
  if (how.allIn) return I.t("public.all_in");
  if (how.out) return I.t("public.sitting_out");
  return "";
}

function drawSeat(box, n, p) {
  const r = model.rules;
  const inHand = !!(r && r.in_hand);
  const showing = !!(r && (r.phase === "showdown" || r.phase === "complete"));
  const allIn = !!(p && p.in_hand && (p.all_in || (r.all_in || []).includes(n)));
  const how = {
    acting: inHand && r.acting === n,
    // whose turn at a showdown (or an all-in seat, which bets no more) is to show
    showing: showing || allIn,
    busted: !p && !!r && model.names.has(n),
    folded: !!(p && p.in_hand && (p.folded || (r.folded || []).includes(n))),
    allIn,
    out: !!(p && p.sitting_out),
    offline: offline(n),
  };
  box.classList.toggle("unknown", how.offline);
  box.classList.toggle("acting", how.acting && !how.showing);
  box.classList.toggle("showing", how.acting && how.showing);
  box.classList.toggle("busted", how.busted);
  box.classList.toggle("folded", how.folded);
  box.classList.toggle("allin", how.allIn && !how.folded);
  box.classList.toggle("out", how.out);
  box.classList.toggle("empty", !p && !how.busted);
  const button = box.querySelector(".dealer-button");
  button.hidden = !(r && r.hand && r.button === n);
  button.title = I.t("public.button");
  const name = p ? p.name : how.busted ? model.names.get(n) : I.t("public.seat", { n });
  field(box, "name").textContent = name;
  box.querySelector(".stack .k").textContent = I.t("public.stack");
  field(box, "stack").textContent = p ? I.num(p.stack) : "";
  box.querySelector(".bet .k").textContent = I.t("public.bet");
  const bet = p && inHand ? p.bet : 0;
  field(box, "bet").textContent = bet ? I.num(bet) : "";
  box.querySelector(".bet").classList.toggle("none", !bet);
  drawCards(box, n);
  box.querySelector(".state").textContent = stateText(r, n, how);
}

/** Draw the seats: boxes of seats gone are removed, the rest kept in seat order. */
export function renderSeats() {
  const root = document.getElementById("seats");
  const r = model.rules;
  const players = new Map(r ? r.players.map((p) => [p.seat, p]) : []);
  const wanted = seatNumbers();
  root.querySelectorAll(".seat").forEach((box) => {
    if (!wanted.includes(Number(box.dataset.seat))) box.remove();
  });
  layout(root, wanted.length);
  for (const n of wanted) {
    const box = root.querySelector('.seat[data-seat="' + n + '"]') || seatBox(n);
    root.appendChild(box); // keeps seat order
    drawSeat(box, n, players.get(n));
  }
}
