// The dealer console's seats panel: a row per seat with what the dealer may do there (sit
// down, top up, sit out, come back, leave), and the form for a name and an amount within
// the table's buy-in or top-up limits.

import { el } from "../lib/dom.js";
import { clamp } from "../lib/format.js";
import { i18n } from "../lib/i18n.js";
import { send } from "./api.js";
import { ask } from "./controls.js";
import { changed, store } from "./store.js";

const t = (key, values) => i18n.t(key, values);
const byId = (id) => document.getElementById(id);
const TITLES = { sit: "console.sitTitle", top_up: "console.topUpTitle", come_back: "console.comeBackTitle" };

function opButton(op, seat, label) {
  const b = el("button", "op", label);
  b.type = "button";
  b.dataset.op = op;
  b.addEventListener("click", () => seatOp(op, seat));
  return b;
}

function seatOps(state, p, seat) {
  const ops = el("span", "ops");
  if (!p) {
    if (!state.seating.full) ops.append(opButton("sit", seat, t("console.sit")));
  } else {
    if (p.can_top_up) ops.append(opButton("top_up", seat, t("console.topUp")));
    if (p.can_sit_out) ops.append(opButton("sit_out", seat, t("console.sitOut")));
    if (p.can_come_back) ops.append(opButton("come_back", seat, t("console.comeBack")));
    if (p.can_leave) ops.append(opButton("leave", seat, t("console.leave")));
  }
  return ops;
}

/** Draw the seat rows (rebuilt only when players or seating changed) and the form. */
export function renderSeating() {
  const state = store.state;
  if (changed("seating", [state.players, state.seating], i18n.lang)) {
    const players = new Map(state.players.map((p) => [p.seat, p]));
    const rows = [];
    for (let seat = 1; seat <= state.seating.seats; seat++) {
      const p = players.get(seat);
      const li = el("li", "seat-row");
      li.dataset.seat = String(seat);
      li.append(el("span", "seat-no", String(seat)));
      li.append(el("span", "who", p ? p.name + " · " + i18n.num(p.stack) : t("console.empty")));
      li.append(seatOps(state, p, seat));
      rows.push(li);
    }
    byId("seat-list").replaceChildren(...rows);
  }
  if (store.seatForm) renderSeatForm();
}

function seatLimits() {
  const form = store.seatForm;
  if (!form) return null;
  if (form.op === "sit") return store.state.seating.buy_in;
  const p = store.state.players.find((x) => x.seat === form.seat);
  return p ? p.top_up : null;
}

/** Draw the seat form for the operation under way (hidden when there is none). */
export function renderSeatForm() {
  const form = byId("seat-form");
  form.hidden = !store.seatForm;
  if (!store.seatForm) return;
  const { op, seat } = store.seatForm;
  byId("seat-form-title").textContent = t(TITLES[op], { seat });
  byId("seat-name-row").hidden = op !== "sit";
  byId("seat-country-row").hidden = op !== "sit";
  byId("seat-amount-row").hidden = op === "come_back";
  byId("seat-wait-row").hidden = op === "top_up";
  const limits = seatLimits();
  const amount = byId("seat-amount");
  const hint = byId("seat-amount-limits");
  if (limits && op !== "come_back") {
    amount.min = String(limits.min);
    if (limits.max === null) amount.removeAttribute("max");
    else amount.max = String(limits.max);
    hint.textContent = t("console.limits", {
      min: limits.min, max: limits.max === null ? t("console.noMax") : limits.max, rule: limits.rule,
    });
  } else {
    hint.textContent = "";
  }
}

function seatOp(op, seat) {
  if (op === "sit_out") {
    send("/api/console/seat", { op, seat });
    return;
  }
  if (op === "leave") {
    ask(t("console.confirmLeave", { seat }), () => send("/api/console/seat", { op, seat }));
    return;
  }
  store.seatForm = { op, seat };
  const amount = byId("seat-amount");
  byId("seat-name").value = "";
  byId("seat-country").value = "";
  byId("seat-wait").checked = false;
  renderSeatForm();
  const limits = seatLimits();
  amount.value = limits ? String(limits.min) : "";
  (op === "sit" ? byId("seat-name") : amount).focus();
}

async function submitSeatForm(ev) {
  ev.preventDefault();
  if (!store.seatForm) return;
  const { op, seat } = store.seatForm;
  const body = { op, seat };
  if (op === "sit") body.name = byId("seat-name").value.trim();
  // the player's country (ISO 3166 alpha-2, optional): a flag on the overlay's plate
  const country = byId("seat-country").value.trim().toUpperCase();
  if (op === "sit" && country) body.country = country;
  if (op === "sit" || op === "top_up") {
    const limits = seatLimits();
    const amount = byId("seat-amount");
    const hi = limits && limits.max !== null ? limits.max : Number.MAX_SAFE_INTEGER;
    body.amount = clamp(amount.value, limits ? limits.min : 1, hi);
    amount.value = String(body.amount);
  }
  if (op === "sit" || op === "come_back") body.wait = byId("seat-wait").checked;
  const data = await send("/api/console/seat", body);
  if (data) {
    store.seatForm = null;
    renderSeatForm();
  }
}

/** Wire the form's OK and Cancel. */
export function wireSeating() {
  byId("seat-form").addEventListener("submit", submitSeatForm);
  byId("seat-cancel").addEventListener("click", () => {
    store.seatForm = null;
    renderSeatForm();
  });
}
