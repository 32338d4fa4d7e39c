// The broadcast overlay's seat panels: cards (outlined when shown; R-SHOW-3: only those a
// winner turned up), name, stack, bet and chips won, the button / SB / BB / all-in / fold
// badges and the equity bar with the hand's name, hi-lo split and outs; the player's flag
// (their country, ISO 3166 alpha-2, as an emoji) and photo (served by the hub) when their
// record has them, the plate as ever when not; a seat whose reader
// is offline (the picture's `unknown`) greyed with a "?" and an "offline" badge. Each panel
// is .seat[data-seat="n"] with [data-field=name|stack|bet|won|equity|blind|…] (OBS scenes
// and the browser tests select them); layout.js places it by the number of players. The
// cards box keeps a slot for every hole card the game deals, so the name never moves as
// the cards arrive. The producer's plate statistics (overlay/plates.js) take the equity
// row's place while it has nothing to show.

import { cardEl, unknownCardEl } from "../lib/cards.js";
import { field } from "../lib/dom.js";
import { percent } from "../lib/format.js";
import { i18n } from "../lib/i18n.js";

const t = (key, values) => i18n.t(key, values);
const seatsEl = document.getElementById("seats");
const TABLE = new URLSearchParams(location.search).get("table");
const TABLE_QUERY = TABLE ? "?table=" + encodeURIComponent(TABLE) : "";

const PANEL =
  '<div class="cards" data-field="cards"></div>' +
  '<div class="info">' +
  '  <div class="top"><img class="photo" data-field="photo" alt="" hidden>' +
  '    <span class="flag" data-field="flag" hidden></span><span data-field="name"></span>' +
  '    <span class="badge blind" data-field="blind" hidden></span>' +
  '    <span class="badge button" hidden></span>' +
  '    <span class="badge allin" hidden></span>' +
  '    <span class="badge fold" hidden></span>' +
  '    <span class="badge offline" hidden></span></div>' +
  '  <div class="chips"><span data-field="stack"></span>' +
  '    <span class="bet-chip" hidden><span data-field="bet"></span></span>' +
  '    <span class="won-chip" hidden>+<span data-field="won">0</span></span></div>' +
  '  <div class="eq"><div class="bar"><div class="fill"></div></div>' +
  '    <span data-field="equity"></span></div>' +
  '  <div class="stats-line" data-field="stats" hidden></div>' +
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

/** Put `cards` in `box` (redrawn only when they changed), then a "?" titled `offline`
 * when the antenna's reader is offline (`offline` not empty), then empty slots up to
 * `slots` cards ("four" when more than two fit, "many" when more than four). */
export function setCards(box, cards, offline = "", slots = 0) {
  const key = JSON.stringify([cards, offline, slots]);
  if (box.dataset.cards === key) return;
  const before = new Set([...box.querySelectorAll(".card[data-card]")].map((e) => e.dataset.card));
  box.dataset.cards = key;
  box.replaceChildren(...cards.map((c) => {
    const e = cardEl(c);
    if (c && !before.has(c)) e.classList.add("reveal"); // a card new here turns over
    return e;
  }));
  if (offline) box.appendChild(unknownCardEl(offline));
  const n = Math.max(slots, box.childElementCount);
  while (box.childElementCount < n) {
    const slot = document.createElement("div");
    slot.className = "card slot";
    box.appendChild(slot);
  }
  box.classList.toggle("four", n > 2 && n <= 4);
  box.classList.toggle("many", n > 4);
}

function panel(seat) {
  let box = seatsEl.querySelector('.seat[data-seat="' + seat + '"]');
  if (box) return box;
  box = document.createElement("div");
  box.className = "seat";
  box.dataset.seat = String(seat);
  box.innerHTML = PANEL;
  seatsEl.appendChild(box);
  return box;
}

/** Hide the panels of seats the picture does not have; the others in seat order. */
export function hideSeatsBut(seats) {
  const shown = [];
  seatsEl.querySelectorAll(".seat").forEach((box) => {
    box.hidden = !seats.has(Number(box.dataset.seat));
    if (!box.hidden) shown.push(box);
  });
  return shown.sort((a, b) => Number(a.dataset.seat) - Number(b.dataset.seat));
}

function badge(box, which, on) {
  const b = box.querySelector(".badge." + which);
  b.hidden = !on;
  b.textContent = t(which);
}

function drawCards(box, p, offline, slots) {
  setCards(field(box, "cards"), p.cards || [], offline ? t("reader_offline") : "", slots);
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
  // hi-lo games only: the figures are null (not sent) in the others
  field(box, "hilo").textContent = eq && typeof eq.high === "number" && typeof eq.low === "number"
    ? t("hilo", { high: percent(eq.high), low: percent(eq.low) }) : "";
  let outs = "";
  if (eq && eq.outs && eq.outs.length) {
    outs = eq.outs.length === 1 ? t("outs.one") : t("outs", { n: eq.outs.length });
    if (eq.split_outs && eq.split_outs.length) outs += " " + t("split", { n: eq.split_outs.length });
  }
  field(box, "outs").textContent = outs;
}

/** The flag emoji of an ISO 3166 alpha-2 country code ("CZ" → 🇨🇿; "" for none). */
export function flagOf(code) {
  if (!/^[A-Z]{2}$/.test(code || "")) return "";
  return String.fromCodePoint(...[...code].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

function drawFace(box, p) {
  const flag = field(box, "flag");
  flag.textContent = flagOf(p.country);
  flag.hidden = !flag.textContent;
  flag.dataset.country = p.country || "";
  flag.title = p.country || "";
  const photo = field(box, "photo");
  const src = p.photo ? "/overlay/photo/" + encodeURIComponent(p.photo) + TABLE_QUERY : "";
  if (src && photo.getAttribute("src") !== src) photo.src = src;
  if (!src) photo.removeAttribute("src");
  photo.hidden = !src;
  box.classList.toggle("with-photo", !!src);
}

/** Draw one player's panel; `s` is the picture (its equity status, blinds, the game's
 * hole cards); `offline`: the seat's reader is offline. */
export function drawSeat(p, s, offline = false) {
  const eqInfo = s.equity;
  const box = panel(p.seat);
  box.hidden = false;
  field(box, "name").textContent = nameOf(p);
  drawFace(box, p);
  field(box, "stack").textContent = num(p.stack);
  field(box, "bet").textContent = p.bet ? num(p.bet) : "";
  box.querySelector(".bet-chip").hidden = !p.bet;
  field(box, "stack").dataset.value = String(p.stack === null ? "" : p.stack);
  field(box, "bet").dataset.value = String(p.bet || 0);
  field(box, "won").textContent = num(p.won || 0);
  box.querySelector(".won-chip").hidden = !p.won;
  drawCards(box, p, offline, p.in_hand === false ? 0 : Math.max(s.hole_cards || 0, 2));
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
  const blind = p.seat === s.small_blind ? "sb" : p.seat === s.big_blind ? "bb" : "";
  const blindEl = field(box, "blind");
  blindEl.hidden = !blind || !s.in_hand;
  blindEl.textContent = blind ? t("blind." + blind) : "";
  blindEl.dataset.blind = blind;
  badge(box, "allin", p.all_in);
  badge(box, "fold", p.folded);
  badge(box, "offline", offline);
  drawEquity(box, p.equity, !!(eqInfo && eqInfo.stale));
}
