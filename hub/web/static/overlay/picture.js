// The broadcast overlay's picture of the table: the hub folds every released overlay frame
// into one picture (players, board, pot, last action, equity, awards) and this draws the
// latest one — seat panels (seat.js, placed by layout.js), the board and pot (main and
// side pots labelled), the last action, heads-up outs in card symbols, the ticker (table,
// hand number, blinds, the tournament clock: ticker.js) and, at the end of a hand, the winner banner and each pot's
// result (labelled, with the winning hand); an antenna whose reader is offline (the
// picture's `unknown`) as a greyed "?". The body's data-hand and data-frames tell tests and
// OBS scenes what is on screen.

import { isRed, rankText, suitSymbol } from "../lib/cards.js";
import { el } from "../lib/dom.js";
import { i18n } from "../lib/i18n.js";
import { place } from "./layout.js";
import { drawSeat, hideSeatsBut, nameOf, num, setCards } from "./seat.js";
import { drawTicker } from "./ticker.js";

const t = (key, values) => i18n.t(key, values);
const BOARD_READERS = ["board", "flop1", "flop2", "flop3", "turn", "river"];
let picture = null;

function actionText(a, bySeat) {
  if (!a) return "";
  const key = "act." + a.kind;
  const text = t(i18n.has(key) ? key : "act.bet",
    { name: nameOf(bySeat.get(a.seat) || { seat: a.seat }), amount: num(a.amount), to: num(a.to) });
  return a.all_in ? t("act.allin", { text: text }) : text;
}

/** A card as people read it: its rank and suit symbol ("A♥"), red for hearts and diamonds. */
function cardText(code) {
  const e = el("span", "sym" + (isRed(code) ? " red" : ""), rankText(code) + suitSymbol(code));
  e.dataset.card = code;
  return e;
}

// heads-up outs: the cards that would put the trailing player ahead, in card symbols
function drawOuts(s) {
  const outsEl = document.getElementById("outs");
  outsEl.replaceChildren();
  s.players.forEach((p) => {
    if (p.equity && p.equity.outs && p.equity.outs.length && p.equity.outs.length <= 12) {
      if (outsEl.childElementCount) outsEl.append(" · ");
      const line = el("span", "outs-line");
      line.dataset.seat = String(p.seat);
      line.append(t("outs.line", { name: nameOf(p) }) + " ");
      p.equity.outs.forEach((c, i) => line.append(...(i ? [" ", cardText(c)] : [cardText(c)])));
      outsEl.appendChild(line);
    }
  });
  outsEl.hidden = !outsEl.childElementCount || (s.rules && !s.in_hand); // not once a hand is over
}

function potName(pot) {
  return pot === 0 ? t("pot.main") : t("pot.side", { n: pot });
}

function awardLine(a, bySeat) {
  const line = el("p", "award");
  line.dataset.key = a.text ? a.text.key : "";
  if (a.pot === undefined) {
    line.textContent = i18n.awardText(a);
    return line;
  }
  line.dataset.pot = String(a.pot);
  const parts = (a.payouts || []).map((p) => {
    const key = p.half === "high" ? "wins.high" : p.half === "low" ? "wins.low" : "wins";
    const who = t(key, { name: nameOf(bySeat.get(p.seat) || { seat: p.seat }), amount: num(p.amount) });
    return p.hand_name ? t("wins.with", { text: who, hand: p.hand_name }) : who;
  });
  line.append(el("span", "pot-name", potName(a.pot) + " " + num(a.amount)), " ");
  line.append(parts.length ? parts.join(" · ") : i18n.awardText(a));
  return line;
}

function drawAwards(s, bySeat) {
  const awards = document.getElementById("awards");
  awards.replaceChildren();
  if (s.voided) awards.appendChild(el("p", "", t("voided", { hand: s.hand })));
  (s.awards || []).forEach((a) => awards.appendChild(awardLine(a, bySeat)));
  awards.hidden = !awards.childElementCount;
}

// the winner banner: the main pot's winner (its hand, the chips the seat took in all),
// or its split; the side pots are in the lines below
function drawBanner(s, bySeat) {
  const banner = document.getElementById("banner");
  const awarded = (s.awards || []).filter((a) => (a.payouts || []).length);
  const main = awarded.find((a) => a.pot === 0) || awarded[0];
  banner.hidden = !main || s.voided;
  if (banner.hidden) {
    banner.dataset.seat = "";
    return;
  }
  const won = new Map();
  awarded.forEach((a) => a.payouts.forEach((p) => won.set(p.seat, (won.get(p.seat) || 0) + p.amount)));
  const seats = [...new Set(main.payouts.map((p) => p.seat))];
  const name = (seat) => nameOf(bySeat.get(seat) || { seat: seat });
  banner.dataset.seat = seats.join(" ");
  document.getElementById("banner-title").textContent = seats.length === 1
    ? t("banner.wins", { name: name(seats[0]), amount: num(won.get(seats[0])) })
    : t("banner.split", { names: seats.map(name).join(" · ") });
  const hands = [...new Set(main.payouts.map((p) => p.hand_name).filter((h) => h))];
  document.getElementById("banner-hand").textContent = hands.join(" · ");
}

// the pot: one figure, or main and side pots labelled
function drawPot(s) {
  const pot = document.getElementById("pot");
  pot.textContent = num(s.pot || 0);
  pot.dataset.pot = String(s.pot || 0);
  // between hands no pot (the awards say where it went); no empty box without a board
  const potBox = document.querySelector(".pot-box");
  potBox.hidden = !s.rules || !s.in_hand;
  document.querySelector(".board-row").hidden = potBox.hidden && !(s.board || []).length;
  const pots = s.in_hand && s.pots && s.pots.length > 1 ? s.pots : [];
  const side = document.getElementById("pots");
  side.replaceChildren(...pots.map((amount, i) => {
    const e = el("span", "pot-part", potName(i) + " " + num(amount));
    e.dataset.pot = String(i);
    return e;
  }));
  side.hidden = !pots.length;
}

/** Draw picture `s` (a snapshot's or a "state" frame's state). */
export function draw(s) {
  picture = s;
  const bySeat = new Map(s.players.map((p) => [p.seat, p]));
  // the antennas whose reader is offline: their cards are not known (left out)
  const unknown = new Set(s.unknown || []);
  const offline = (seat) => unknown.has("seat" + seat) || unknown.has("up" + seat);
  s.players.forEach((p) => drawSeat(p, s, offline(p.seat)));
  place(hideSeatsBut(bySeat));
  document.body.dataset.players = String(s.players.length);
  const board = document.getElementById("board");
  const boardOffline = [...unknown].some((r) => BOARD_READERS.includes(r));
  setCards(board, s.board || [], boardOffline ? t("reader_offline") : "");
  board.classList.toggle("unknown", boardOffline);
  board.classList.remove("four", "many");
  drawPot(s);
  document.getElementById("action").textContent = s.in_hand ? actionText(s.last_action, bySeat) : "";
  drawOuts(s);
  drawAwards(s, bySeat);
  drawBanner(s, bySeat);
  drawTicker(s);
  document.body.dataset.hand = s.hand === null || s.hand === undefined ? "" : String(s.hand);
  document.body.dataset.frames = String((Number(document.body.dataset.frames) || 0) + 1);
}

/** Draw the last picture again (the language changed). */
export function redraw() {
  if (picture) draw(picture);
}
