// The broadcast overlay's picture of the table: the hub folds every released overlay frame
// into one picture (players, board, pot, last action, equity, awards) and this draws the
// latest one — seat panels (seat.js), the board and pot, the last action, heads-up outs and
// the award read-out at showdown; an antenna whose reader is offline (the picture's
// `unknown`) as a greyed "?". The body's data-hand and data-frames tell tests and OBS
// scenes what is on screen.

import { i18n } from "../lib/i18n.js";
import { drawSeat, hideSeatsBut, nameOf, num, setCards } from "./seat.js";

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

// heads-up outs: the cards that would put the trailing player ahead
function drawOuts(s) {
  const outsEl = document.getElementById("outs");
  const lines = [];
  s.players.forEach((p) => {
    if (p.equity && p.equity.outs && p.equity.outs.length && p.equity.outs.length <= 12) {
      lines.push(t("outs.line", { name: nameOf(p), cards: p.equity.outs.join(" ") }));
    }
  });
  outsEl.textContent = lines.join(" · ");
  outsEl.hidden = !lines.length || !s.in_hand;
}

function awardLine(a, bySeat) {
  const parts = (a.payouts || []).map((p) => {
    const key = p.half === "high" ? "wins.high" : p.half === "low" ? "wins.low" : "wins";
    return t(key, { name: nameOf(bySeat.get(p.seat) || { seat: p.seat }), amount: num(p.amount) });
  });
  const line = document.createElement("p");
  line.className = "award";
  line.dataset.key = a.text ? a.text.key : "";
  line.textContent = parts.length ? parts.join(" · ") : i18n.awardText(a);
  return line;
}

function drawAwards(s, bySeat) {
  const awards = document.getElementById("awards");
  awards.replaceChildren();
  if (s.voided) {
    const line = document.createElement("p");
    line.textContent = t("voided", { hand: s.hand });
    awards.appendChild(line);
  }
  (s.awards || []).forEach((a) => awards.appendChild(awardLine(a, bySeat)));
  awards.hidden = !awards.childElementCount;
}

/** Draw picture `s` (a snapshot's or a "state" frame's state). */
export function draw(s) {
  picture = s;
  const bySeat = new Map(s.players.map((p) => [p.seat, p]));
  hideSeatsBut(bySeat);
  // the antennas whose reader is offline: their cards are not known (left out)
  const unknown = new Set(s.unknown || []);
  const offline = (seat) => unknown.has("seat" + seat) || unknown.has("up" + seat);
  s.players.forEach((p) => drawSeat(p, s.equity, offline(p.seat)));
  const board = document.getElementById("board");
  const boardOffline = [...unknown].some((r) => BOARD_READERS.includes(r));
  setCards(board, s.board || [], boardOffline ? t("reader_offline") : "");
  board.classList.toggle("unknown", boardOffline);
  board.classList.remove("four");
  const pot = document.getElementById("pot");
  pot.textContent = num(s.pot || 0);
  document.querySelector(".pot-box").hidden = !s.rules;
  pot.dataset.pot = String(s.pot || 0);
  document.getElementById("action").textContent = s.in_hand ? actionText(s.last_action, bySeat) : "";
  drawOuts(s);
  drawAwards(s, bySeat);
  document.body.dataset.hand = s.hand === null || s.hand === undefined ? "" : String(s.hand);
  document.body.dataset.frames = String((Number(document.body.dataset.frames) || 0) + 1);
}

/** Draw the last picture again (the language changed). */
export function redraw() {
  if (picture) draw(picture);
}
