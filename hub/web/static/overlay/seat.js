// The broadcast overlay's seat panels: cards (outlined when shown; R-SHOW-3: only those a
// winner turned up), name, stack, bet and chips won, the button / all-in / fold badges and
// the equity bar with the hand's name, hi-lo split and outs; a seat whose reader is offline
// (the picture's `unknown`) greyed with a "?" and an "offline" badge. Each panel is
// .seat[data-seat="n"] with [data-field=name|stack|bet|won|equity|…] (OBS scenes and the
// browser tests select them).

import { cardEl, unknownCardEl } from "../lib/cards.js";
import { field } from "../lib/dom.js";
import { percent } from "../lib/format.js";
import { i18n } from "../lib/i18n.js";

const t = (key, values) => i18n.t(key, values);
const seatsEl = document.getElementById("seats");

const PANEL =
  '<div class="cards" data-field="cards"></div>' +
  '<div class="info">' +
  '  <div class="top"><span data-field="name"></span>' +
  '    <span class="badge button" hidden></span>' +
  '    <span class="badge allin" hidden></span>' +
  '    <span class="badge fold" hidden></span>' +
  '    <span class="badge offline" hidden></span></div>' +
  '  <div class="chips"><span data-field="stack"></span>' +
  '    <span class="bet-chip" hidden><span data-field="bet"></span></span>' +
  '    <span class="won-chip" hidden>+<span data-field="won">0</span></span></div>' +
  '  <div class="eq"><div class="bar"><div class="fill"></div></div>' +
  '    <span data-field="equity"></span></div>' +
  '  <div class="sub"><span data-field="hand-name"></span><span data-field="hilo"></span>' +
  '    <span data-field="outs"></span></div>' +
  "</div>";

/** A number in the current language ("" for none). */
export function num(n) {
  return typeof n === "number" ? i18n.num(n) : "";
}

/** A player's name, or "Seat n" for a seat without one. */
export function nameOf(p) {
  return p && p.name ? p.name : t("seat", { n: p ? p.seat : "?" });
}

/** Put `cards` in `box` (redrawn only when they changed; "four" when more than two), then
 * a "?" titled `offline` when the antenna's reader is offline (`offline` not empty). */
export function setCards(box, cards, offline = "") {
  const key = JSON.stringify([cards, offline]);
  if (box.dataset.cards === key) return;
  box.dataset.cards = key;
  box.replaceChildren(...cards.map((c) => cardEl(c)));
  if (offline) box.appendChild(unknownCardEl(offline));
  box.classList.toggle("four", cards.length > 2);
}

function panel(seat) {
  let box = seatsEl.querySelector('.seat[data-seat="' + seat + '"]');
  if (box) return box;
  box = document.createElement("div");
  box.className = "seat";
  box.dataset.seat = String(seat);
  box.dataset.pos = String(seat);
  box.innerHTML = PANEL;
  seatsEl.appendChild(box);
  return box;
}

/** Hide the panels of seats the picture does not have. */
export function hideSeatsBut(seats) {
  seatsEl.querySelectorAll(".seat").forEach((box) => {
    box.hidden = !seats.has(Number(box.dataset.seat));
  });
}

function badge(box, which, on) {
  const b = box.querySelector(".badge." + which);
  b.hidden = !on;
  b.textContent = t(which);
}

function drawCards(box, p, offline) {
  setCards(field(box, "cards"), p.cards || [], offline ? t("reader_offline") : "");
  // R-SHOW-3: a winner who showed only some cards: those are outlined, not the rest
  const up = p.shown_cards || [];
  const cards = p.cards || [];
  box.classList.toggle("part", !!p.shown && up.length < cards.length);
  field(box, "cards").querySelectorAll(".card").forEach((c, i) => c.classList.toggle("turned", up.includes(cards[i])));
}

function drawEquity(box, eq, stale) {
  const eqEl = field(box, "equity");
  const fill = box.querySelector(".fill");
  box.querySelector(".eq").hidden = !eq;
  if (eq) {
    eqEl.textContent = percent(eq.equity) + (eq.exact ? "" : " ~");
    eqEl.dataset.equity = String(eq.equity);
    eqEl.dataset.exact = String(!!eq.exact);
    eqEl.classList.toggle("quick", !eq.exact);
    eqEl.classList.toggle("stale", stale);
    fill.style.width = percent(eq.equity);
    fill.classList.toggle("quick", !eq.exact);
  } else {
    eqEl.textContent = "";
    eqEl.dataset.equity = "";
    eqEl.dataset.exact = "";
    fill.style.width = "0";
  }
  field(box, "hand-name").textContent = eq && eq.hand_name ? eq.hand_name : "";
  field(box, "hilo").textContent = eq && eq.high !== undefined && eq.low !== undefined
    ? t("hilo", { high: percent(eq.high), low: percent(eq.low) }) : "";
  let outs = "";
  if (eq && eq.outs && eq.outs.length) {
    outs = eq.outs.length === 1 ? t("outs.one") : t("outs", { n: eq.outs.length });
    if (eq.split_outs && eq.split_outs.length) outs += " " + t("split", { n: eq.split_outs.length });
  }
  field(box, "outs").textContent = outs;
}

/** Draw one player's panel; `eqInfo` is the picture's equity status ({stale}); `offline`:
 * the seat's reader is offline. */
export function drawSeat(p, eqInfo, offline = false) {
  const box = panel(p.seat);
  box.hidden = false;
  field(box, "name").textContent = nameOf(p);
  field(box, "stack").textContent = num(p.stack);
  field(box, "bet").textContent = p.bet ? num(p.bet) : "";
  box.querySelector(".bet-chip").hidden = !p.bet;
  field(box, "stack").dataset.value = String(p.stack === null ? "" : p.stack);
  field(box, "bet").dataset.value = String(p.bet || 0);
  field(box, "won").textContent = num(p.won || 0);
  box.querySelector(".won-chip").hidden = !p.won;
  drawCards(box, p, offline);
  box.classList.toggle("unknown", offline);
  box.dataset.unknown = String(offline);
  box.classList.toggle("folded", !!p.folded);
  box.classList.toggle("allin", !!p.all_in);
  box.classList.toggle("acting", !!p.acting);
  box.classList.toggle("shown", !!p.shown);
  box.classList.toggle("won", !!p.won);
  box.dataset.folded = String(!!p.folded);
  box.dataset.allIn = String(!!p.all_in);
  box.dataset.acting = String(!!p.acting);
  badge(box, "button", p.button);
  badge(box, "allin", p.all_in);
  badge(box, "fold", p.folded);
  badge(box, "offline", offline);
  drawEquity(box, p.equity, !!(eqInfo && eqInfo.stale));
}
