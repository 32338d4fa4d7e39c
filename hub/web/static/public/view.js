// The public table view's drawing, apart from the seats (seats.js): the hand number and
// the feed's state, the board (in the order it was dealt: the hub sends a board antenna's
// cards as they came) and the pot, the tournament clock with its countdown (a paused
// clock shows the time left), the last hand's pots — main and side pots labelled, each
// winner by name with the hand that won — and the current hand's alerts, newest first. A
// board antenna whose reader is offline shows a greyed "?" rather than empty slots only.
// Every number on the page is written by I.num, those inside the hub's texts too.

import { cardEl, unknownCardEl } from "../lib/cards.js";
import { el } from "../lib/dom.js";
import { movingText } from "../lib/feed.js";
import { i18n as I } from "../lib/i18n.js";
import { clockLeft, model } from "./model.js";
import { renderSeats } from "./seats.js";

const BOARD_SLOTS = 5;
let onLevelOver = () => {};
let lastAskedAt = 0;

/** Draw the hand number and whether the feed is live. */
export function renderHeader() {
  const r = model.rules;
  const hand = document.getElementById("hand-no");
  hand.textContent = r && r.hand ? I.t("public.hand", { n: r.hand }) : "";
  hand.dataset.hand = r && r.hand ? String(r.hand) : "";
  const status = document.getElementById("status");
  status.dataset.state = model.status;
  status.textContent =
    model.status === "moving" ? movingText(model.movingTo) : I.t("public.status." + model.status);
}

/** Draw the board's cards (empty slots up to five) and the pot. */
export function renderBoard() {
  const board = document.getElementById("board");
  const cards = [];
  let hasBoard = false;
  let offline = false; // a board antenna's reader is offline: what lies there is not known
  for (const a of model.antennas.values()) {
    if (a.kind !== "board") continue;
    hasBoard = true;
    offline = offline || !!a.unknown;
    (a.cards || []).forEach((c) => cards.push(c));
  }
  board.replaceChildren(...cards.map((c) => cardEl(c)));
  board.classList.toggle("unknown", offline);
  if (offline) board.appendChild(unknownCardEl(I.t("public.reader_offline")));
  for (let i = board.childElementCount; hasBoard && i < BOARD_SLOTS; i++) board.appendChild(el("div", "card slot"));
  const r = model.rules;
  document.getElementById("pot").textContent = I.num(r && r.in_hand ? r.pot : 0);
}

function blindsText(lv) {
  return I.num(lv.small_blind) + " / " + I.num(lv.big_blind) +
    (lv.ante ? " · " + I.t("public.ante", { n: I.num(lv.ante) }) : "");
}

/** Call `fn` when the running level's time is up (the hub's clock frame may be late). */
export function whenLevelRunsOut(fn) {
  onLevelOver = fn;
}

/** Draw the countdown (four times a second). */
export function renderCountdown() {
  const c = model.clock;
  if (!c) return;
  const left = clockLeft();
  const cd = document.getElementById("countdown");
  cd.textContent = c.started ? I.duration(left) : I.t("public.not_started");
  cd.dataset.seconds = String(Math.ceil(left));
  if (c.started && !c.paused && c.next && left <= 0 && performance.now() - lastAskedAt > 2000) {
    lastAskedAt = performance.now();
    onLevelOver();
  }
}

/** Draw the tournament clock: level, blinds, next level, paused. */
export function renderClock() {
  const box = document.getElementById("clock");
  const c = model.clock;
  box.hidden = !c;
  if (!c) return;
  box.classList.toggle("paused", !!c.paused);
  box.dataset.level = String(c.level);
  box.querySelector("[data-field=level]").textContent =
    I.t("public.level_of", { n: c.level, of: c.levels });
  box.querySelector("[data-field=blinds]").textContent = blindsText(c);
  box.querySelector("[data-field=next]").textContent =
    c.next ? blindsText(c.next) : I.t("public.last_level");
  document.getElementById("paused").hidden = !c.paused;
  renderCountdown();
}

/** A text of the hub with the page's numbers; the frame's English when it cannot be. */
function say(text, english) {
  return I.textNum(text) ?? english ?? "";
}

function potResult(pot) {
  const box = el("div", "pot-result");
  box.dataset.pot = String(pot.pot);
  box.classList.toggle("side-pot", pot.pot > 0);
  const head = el("p", "pot-name");
  head.append(el("span", "label", say(pot.pot_name, "")), el("span", "amount", I.num(pot.amount)));
  box.appendChild(head);
  pot.shares.forEach((share) => {
    const p = el("p", "award", say(share.text, share.message));
    p.dataset.seat = String(share.seat);
    p.dataset.key = share.text ? share.text.key : "";
    box.appendChild(p);
  });
  return box;
}

function renderAwards() {
  const box = document.getElementById("awards");
  const list = document.getElementById("award-list");
  list.replaceChildren();
  const a = model.awards;
  const res = model.results;
  const hand = a ? a.hand : res ? res.hand : 0;
  if (hand) list.appendChild(el("p", "award-hand", I.t("public.award_hand", { n: hand })));
  if (a && a.void) {
    list.appendChild(el("p", "award void", I.t("public.void", { n: a.hand })));
  } else if (res && res.hand === hand) {
    res.pots.forEach((pot) => list.appendChild(potResult(pot)));
  } else {
    ((a && a.lines) || []).forEach((line) => {
      const p = el("p", "award", say(line.text, line.message));
      p.dataset.key = line.text ? line.text.key : "";
      list.appendChild(p);
    });
  }
  box.hidden = !list.querySelector(".award");
}

function alertItem(a) {
  const li = el("li", "alert " + (a.severity || "info"));
  li.dataset.code = a.code;
  li.dataset.hand = a.hand ? String(a.hand) : "";
  const parts = {
    message: say(a.text, a.message),
    remedy: say(a.remedy_text, a.remedy),
  };
  const meta = [];
  if (a.seat) meta.push(I.t("public.seat_short", { n: a.seat }));
  if (a.rule && a.code !== "floor_called") meta.push(a.rule);
  li.append(el("span", "meta", meta.join(" · ")), el("span", "what", parts.message),
    el("div", "remedy", parts.remedy));
  return li;
}

/** Draw the current hand's alerts (at most three), newest first. */
export function renderAlerts() {
  const list = document.getElementById("alert-list");
  list.replaceChildren(...model.alerts.map(alertItem));
  document.getElementById("alerts").hidden = !model.alerts.length;
}

/** Draw the whole page. */
export function render() {
  renderHeader();
  renderClock();
  renderBoard();
  renderSeats();
  renderAwards();
  renderAlerts();
}
