// The dealer console at the end of a hand: who shows or mucks at showdown (the uncalled
// winner may show one card, R-SHOW-3), and the last hand's pot awards, void hand and
// chips bought during the hand (delivered at its end up to the maximum, R-BUY-4).

import { el } from "../lib/dom.js";
import { i18n } from "../lib/i18n.js";
import { send } from "./api.js";
import { button } from "./controls.js";
import { changed, store } from "./store.js";

const t = (key, values) => i18n.t(key, values);

function showOneCard(row, seat) {
  const code = el("input", "card-code");
  code.id = "show-card-code";
  code.maxLength = 3;
  code.placeholder = t("console.cardShown");
  const showOne = () => {
    if (code.value.trim()) send("/api/console/show", { seat, cards: [code.value.trim()] });
  };
  code.addEventListener("keydown", (e) => {
    if (e.key === "Enter") showOne();
  });
  row.append(code, button("show-card", t("console.showCard"), "", showOne, "show"));
}

function showdownRow(sd, seat) {
  const row = el("div", "showdown-seat" + (sd.next === seat ? " next" : ""));
  row.dataset.seat = String(seat);
  row.append(el("span", "who", t("console.showdownSeat", { seat })));
  if (sd.show.includes(seat)) {
    row.append(button("", t("console.show"), "", () => send("/api/console/show", { seat }), "show"));
  }
  if (sd.muck.includes(seat)) {
    row.append(button("", t("console.muck"), "", () => send("/api/console/muck", { seat }), "muck"));
  }
  // R-SHOW-3: the winner whose bet nobody called turns up one card; the dealer names it
  if (sd.part && sd.show.includes(seat)) showOneCard(row, seat);
  return row;
}

/** Draw the show and muck buttons of the seats still to decide. */
export function renderShowdown() {
  const root = document.getElementById("showdown");
  const sd = store.state.showdown;
  root.hidden = !sd;
  if (!changed("showdown", sd, i18n.lang)) return;
  if (!sd) {
    root.replaceChildren();
    return;
  }
  const seats = [...new Set([...sd.show, ...sd.muck])].sort((a, b) => a - b);
  root.replaceChildren(...seats.map((seat) => showdownRow(sd, seat)));
}

/** Draw the last hand's awards (or its void) and its top-ups. */
export function renderAwards() {
  const root = document.getElementById("awards");
  const last = store.state.last_hand;
  root.replaceChildren();
  if (last && last.voided) {
    root.append(el("p", "award void", t("console.void", { hand: last.hand })));
  } else if (last && last.awards.length) {
    root.append(el("h2", "", t("console.awardsFor", { hand: last.hand })));
    last.awards.forEach((a) => {
      const p = el("p", "award", i18n.awardText(a));
      p.dataset.pot = String(a.pot);
      root.append(p);
    });
  }
  ((last && last.top_ups) || []).forEach((u) => {
    const key = u.refused ? "console.topUpRefused" : "console.topUpAdded";
    const p = el("p", "award top-up" + (u.refused ? " refused" : ""), t(key, u));
    p.dataset.seat = String(u.seat);
    root.append(p);
  });
  root.hidden = !root.childElementCount;
}
