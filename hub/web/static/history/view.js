// feltwire hand history: one kept hand, street by street — the board and each seat's cards
// as they were after the street (a card this reader may not see as its back), the street's
// actions, the pot after it, the pots' awards on the last street, the hand's alerts.

import { cardEl } from "../lib/cards.js";
import { el } from "../lib/dom.js";
import { i18n } from "../lib/i18n.js";

const $ = (id) => document.getElementById(id);

function text(t) {
  return (t && i18n.text(t)) || (t && t.key) || "";
}

const LOCALES = { en: "en-GB", cs: "cs-CZ" };

/** A time (seconds since the epoch) as the reader's language writes it. */
export function timeOf(t) {
  return new Date(t * 1000).toLocaleString(LOCALES[i18n.lang] || "en-GB");
}

/** The player at `seat` as people name them: "Ann (seat 3)". */
export function seatName(hand, seat) {
  const label = i18n.text({ key: "seat", params: { n: seat } }) || "seat " + seat;
  const p = hand.summary.players.find((x) => x.seat === seat);
  return p ? p.name + " (" + label + ")" : label;
}

function actionText(hand, a) {
  const who = a.seat ? seatName(hand, a.seat) : "";
  const params = { seat: who, amount: i18n.num(a.amount), to: i18n.num(a.to_amount), n: a.cards };
  const key = a.kind === "discard" && a.cards === 0 ? "act.stand_pat" : "act." + a.kind;
  const line = i18n.has(key) ? i18n.t(key, params) : who + " " + a.kind;
  return a.all_in ? line + " " + i18n.t("act.all_in") : line;
}

/** The cards `seat` held after street `upTo`: its hole cards dealt by then, less those it
 * threw away in a draw (a discard this reader may not see takes a hidden card). */
function held(hand, seat, upTo) {
  const cards = [];
  for (const s of hand.streets.slice(0, upTo + 1)) {
    for (const c of s.cards) {
      if (c.seat !== seat) continue;
      if (c.kind === "hole") cards.push(c);
      if (c.kind === "discard") {
        let i = cards.findIndex((h) => c.card && h.card === c.card);
        if (i < 0) i = cards.findIndex((h) => !h.card);
        if (i >= 0) cards.splice(i, 1);
      }
    }
  }
  return cards;
}

function cardOf(c) {
  const e = cardEl(c.card || "");
  if (c.visibility) e.dataset.visibility = c.visibility;
  if (c.up) e.classList.add("up");
  return e;
}

/** Draw `hand` (a HandView) at street `step` (0 … streets − 1). */
export function renderHand(hand, step) {
  const last = hand.streets.length - 1;
  const street = hand.streets[step];
  const s = hand.summary;
  const when = s.started_at ? timeOf(s.started_at) : "";
  $("hand-head").textContent =
    s.table + " · " + i18n.t("history.hand", { n: s.number }) + " · " + s.game_name + " · " + when;
  $("hand").dataset.hand = String(s.id);
  $("hand").dataset.step = String(step);
  $("street-name").textContent = text(street.name);
  $("street-of").textContent = i18n.t("history.step.of", { n: step + 1, of: last + 1 });
  $("step-prev").disabled = step <= 0;
  $("step-next").disabled = step >= last;
  $("street-pot").textContent = i18n.num(street.pot);
  $("street-pot").dataset.pot = String(street.pot);

  const board = $("board");
  board.replaceChildren();
  for (const st of hand.streets.slice(0, step + 1)) {
    for (const c of st.cards) if (c.kind === "board") board.appendChild(cardOf(c));
  }

  const seats = $("seats");
  seats.replaceChildren();
  for (const p of s.players) {
    const li = el("li", "seat");
    li.dataset.seat = String(p.seat);
    const head = el("div", "seat-head");
    head.append(el("span", "name", seatName(hand, p.seat)));
    if (hand.button === p.seat) head.append(el("span", "button", i18n.t("history.button")));
    const net = el("span", "net " + (p.net > 0 ? "won" : p.net < 0 ? "lost" : ""));
    net.textContent = (p.net > 0 ? "+" : "") + i18n.num(p.net);
    head.append(net);
    const cards = el("div", "cards");
    for (const c of held(hand, p.seat, step)) cards.appendChild(cardOf(c));
    li.append(head, cards);
    seats.appendChild(li);
  }

  const actions = $("actions");
  actions.replaceChildren();
  for (const a of street.actions) {
    const li = el("li", "action", actionText(hand, a));
    li.dataset.kind = a.kind;
    if (a.seat) li.dataset.seat = String(a.seat);
    li.dataset.amount = String(a.amount);
    actions.appendChild(li);
  }
  if (!street.actions.length) actions.appendChild(el("li", "none", i18n.t("history.no_actions")));

  $("awards-box").hidden = step !== last;
  const awards = $("awards");
  awards.replaceChildren();
  for (const w of hand.awards) {
    const pot = w.pot === 0 ? i18n.t("award.pot.0") : i18n.t("award.pot.n", { n: w.pot });
    const half = w.half === "whole" ? "" : " (" + i18n.t("award.half." + w.half) + ")";
    let line = pot + half + ": " + i18n.t("award.line", {
      seat: seatName(hand, w.seat), amount: i18n.num(w.amount),
    });
    if (w.hand_name) line += " — " + text(w.hand_name);
    const li = el("li", "award", line);
    li.dataset.seat = String(w.seat);
    awards.appendChild(li);
  }

  const alerts = $("alerts");
  alerts.replaceChildren();
  for (const a of hand.alerts) {
    const li = el("li", "alert " + a.severity, text(a.text) + " — " + text(a.remedy_text));
    li.dataset.code = a.code;
    alerts.appendChild(li);
  }
  if (!hand.alerts.length) alerts.appendChild(el("li", "none", i18n.t("history.no_alerts")));
}
