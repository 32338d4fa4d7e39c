// The overlay's branding and the producer's switches (hub/web/producer.py): the room's
// name and logo on the ticker (the logo served by the hub at settings.logo), and the chip
// leaderboard the producer turns on (the setup panel's checkbox, or POST
// /api/overlay/settings) — its figures are the delayed picture's stacks — and the plates'
// statistics switch (the figures themselves: overlay/plates.js). The snapshot
// carries the settings, a "settings" frame each change (at once, not behind the delay).
// #leaderboard lists li[data-seat] in stack order, [data-field=name|stack] inside.

import { el } from "../lib/dom.js";
import { i18n } from "../lib/i18n.js";
import { nameOf, num } from "./seat.js";

let settings = { name: null, logo: null, leaderboard: false, plate_stats: false };
let picture = null;
let query = "";
const box = document.getElementById("leaderboard");

function drawLeaderboard() {
  const list = document.getElementById("leaderboard-list");
  const players = picture && picture.rules
    ? picture.players.filter((p) => typeof p.stack === "number")
    : [];
  players.sort((a, b) => b.stack - a.stack || a.seat - b.seat);
  list.replaceChildren(...players.map((p, i) => {
    const li = el("li", "leader");
    li.dataset.seat = String(p.seat);
    const name = el("span", "leader-name", nameOf(p));
    name.dataset.field = "name";
    const stack = el("span", "leader-stack", num(p.stack));
    stack.dataset.field = "stack";
    stack.dataset.value = String(p.stack);
    li.append(el("span", "leader-rank", String(i + 1)), name, stack);
    return li;
  }));
  box.hidden = !settings.leaderboard || !players.length;
  document.body.dataset.leaderboard = String(!!settings.leaderboard);
}

function drawBrand() {
  const logo = document.getElementById("ticker-logo");
  if (settings.logo && logo.getAttribute("src") !== settings.logo) logo.src = settings.logo;
  logo.hidden = !settings.logo;
  if (settings.name) document.getElementById("ticker-table").textContent = settings.name;
  document.getElementById("leaderboard-on").checked = !!settings.leaderboard;
  document.getElementById("plate-stats-on").checked = !!settings.plate_stats;
}

/** Take the settings of a snapshot or a "settings" frame. */
export function takeSettings(s) {
  if (!s) return;
  settings = s;
  drawBrand();
  drawLeaderboard();
}

/** A picture was drawn: the leaderboard follows its stacks. */
export function settingsPicture(s) {
  picture = s;
  drawLeaderboard();
}

async function setSwitch(body) {
  const headers = { "Content-Type": "application/json" };
  const csrf = document.querySelector("meta[name=csrf-token]")?.content;
  if (csrf) headers["X-CSRF-Token"] = csrf;
  try {
    const r = await fetch("/api/overlay/settings?" + query, {
      method: "POST", credentials: "same-origin", headers, body: JSON.stringify(body),
    });
    if (r.ok) takeSettings((await r.json()).settings);
  } catch {
    /* the snapshot of the next connection says what is set */
  }
}

/** Start: `feedQuery` the feed's (token, table); the setup's checkboxes set the switches
 * (every open overlay gets the "settings" frame, this one too). */
export function startSettings(feedQuery) {
  query = new URLSearchParams(feedQuery).toString();
  const check = document.getElementById("leaderboard-on");
  check.addEventListener("change", () => setSwitch({ leaderboard: check.checked }));
  const plates = document.getElementById("plate-stats-on");
  plates.addEventListener("change", () => setSwitch({ plate_stats: plates.checked }));
  i18n.onChange(drawLeaderboard);
}
