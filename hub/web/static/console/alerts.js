// The dealer console's alert list: newest first, each with its seat, rule and hand, the
// message and the remedy in the current language, and an Acknowledge button (the hub's
// own alerts, which have no id, cannot be acknowledged).

import { el } from "../lib/dom.js";
import { i18n } from "../lib/i18n.js";
import { send } from "./api.js";
import { changed, store } from "./store.js";

const t = (key, values) => i18n.t(key, values);

function alertItem(a) {
  const li = el("li", "alert " + a.severity + (a.acknowledged ? " acked" : ""));
  li.dataset.id = String(a.id);
  li.dataset.code = a.code;
  const meta = el("span", "meta", (a.seat ? t("console.seatHand", { seat: a.seat }) + " · " : "") +
    a.rule + (a.hand ? " · " + t("console.hand", { hand: a.hand }) : ""));
  const text = i18n.alertParts(a);
  li.append(meta, el("div", "what", text.message), el("div", "remedy", text.remedy));
  if (a.acknowledged) li.append(el("span", "acked-note", t("console.acked")));
  else if (a.id !== null && a.id !== undefined) {
    const b = el("button", "ack", t("console.ack"));
    b.type = "button";
    b.addEventListener("click", () => send("/api/console/alerts/" + a.id + "/ack", {}));
    li.append(b);
  }
  return li;
}

/** Draw the alerts (rebuilt only when they changed). */
export function renderAlerts() {
  const list = document.getElementById("alert-list");
  const alerts = [...(store.state.alerts || [])].reverse();
  if (!changed("alerts", alerts, i18n.lang)) return;
  if (!alerts.length) {
    list.replaceChildren(el("li", "none", t("console.noAlerts")));
    return;
  }
  list.replaceChildren(...alerts.map(alertItem));
}
