// The dealer console's alert list: the alerts still open, newest first — each with its
// seat, rule and hand, the message and the remedy in the current language, and an
// Acknowledge button. An acknowledged alert leaves the list, and so does one whose cause
// is gone (the hub says `cleared`: a doubled tag's card taken back); the seats an open
// alert names are lit on the table (table.js). Security alerts (a copied tag, a tag not
// in the deck, one card read twice) are marked as such.

import { el } from "../lib/dom.js";
import { i18n } from "../lib/i18n.js";
import { send } from "./api.js";
import { changed, store } from "./store.js";

const t = (key, values) => i18n.t(key, values);
const SECURITY = new Set(["uid_on_two_antennas", "unknown_tag", "duplicate_card"]);

/** The alerts of `state` still open: neither acknowledged nor cleared (oldest first). */
export function openAlerts(state) {
  return (state.alerts || []).filter((a) => !a.acknowledged && !a.cleared);
}

function seatsText(a) {
  const seats = a.seats && a.seats.length ? a.seats : a.seat ? [a.seat] : [];
  return seats.map((seat) => t("console.seatHand", { seat })).join(", ");
}

function alertItem(a) {
  const security = a.rule === "security" || SECURITY.has(a.code);
  const li = el("li", "alert " + a.severity + (security ? " security" : ""));
  li.dataset.id = a.id === null || a.id === undefined ? "" : String(a.id);
  li.dataset.key = a.key || "";
  li.dataset.code = a.code;
  li.dataset.seats = (a.seats || []).join(" ");
  const where = seatsText(a);
  const meta = el("span", "meta", (where ? where + " · " : "") + a.rule +
    (a.hand ? " · " + t("console.hand", { hand: a.hand }) : ""));
  const text = i18n.alertParts(a);
  li.append(meta, el("div", "what", text.message), el("div", "remedy", text.remedy));
  if (a.key || (a.id !== null && a.id !== undefined)) {
    const b = el("button", "ack", t("console.ack"));
    b.type = "button";
    b.addEventListener("click", () => {
      if (a.key) send("/api/console/alerts/ack", { key: a.key });
      else send("/api/console/alerts/" + a.id + "/ack", {});
    });
    li.append(b);
  }
  return li;
}

/** Draw the open alerts (rebuilt only when they changed). */
export function renderAlerts() {
  const list = document.getElementById("alert-list");
  const all = store.state.alerts || [];
  const open = openAlerts(store.state).reverse();
  if (!changed("alerts", [open, all.length], i18n.lang)) return;
  const items = open.length ? open.map(alertItem) : [el("li", "none", t("console.noAlerts"))];
  const done = all.length - open.length;
  if (done) items.push(el("li", "alerts-done", t("console.alertsDone", { count: done })));
  list.replaceChildren(...items);
}
