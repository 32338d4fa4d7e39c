// The broadcast overlay's ticker (top left): the room's logo and name (the table's
// [branding], settings.js), the hand's number, its blinds and ante and, at a table that
// runs a tournament clock, the level and the time left in it — the clock as of the
// delayed picture (the hub sends its time left as of the picture it releases), counted
// down here between frames, "Paused" while it stands. #ticker-clock carries data-paused,
// data-level and data-left (whole seconds, as drawn) for tests and OBS scenes.

import { i18n } from "../lib/i18n.js";

const t = (key, values) => i18n.t(key, values);
const num = (n) => i18n.num(n);
let synced = { clock: null, at: 0, from: null };
let timer = null;

function left() {
  const c = synced.clock;
  if (!c) return 0;
  const base = Number(c.time_left) || 0;
  if (c.paused || !c.started || c.ends_at === null || c.ends_at === undefined) return base;
  return Math.max(0, base - (Date.now() - synced.at) / 1000);
}

function tick() {
  const c = synced.clock;
  const el = document.getElementById("ticker-clock");
  if (!c) return;
  const s = left();
  el.dataset.left = String(Math.ceil(s));
  document.getElementById("ticker-time").textContent = c.paused
    ? t("ticker.paused", { left: i18n.duration(s) })
    : i18n.duration(s);
}

function sync(s) {
  // a new picture's clock is true now; a redraw (the language) keeps counting
  if (synced.from !== s) synced = { clock: s.clock || null, at: Date.now(), from: s };
  const c = synced.clock;
  const el = document.getElementById("ticker-clock");
  el.hidden = !c;
  if (timer !== null && (!c || c.paused)) {
    clearInterval(timer);
    timer = null;
  }
  if (!c) return;
  el.dataset.paused = String(!!c.paused);
  el.dataset.level = String(c.level);
  el.classList.toggle("paused", !!c.paused);
  document.getElementById("ticker-level").textContent = t("ticker.level", { n: c.level });
  tick();
  if (timer === null && !c.paused && c.ends_at !== null && c.ends_at !== undefined) {
    timer = setInterval(tick, 250);
  }
}

/** Draw the ticker of picture `s`: the hand's number and stakes (the clock's level's
 * blinds between hands), the tournament clock. */
export function drawTicker(s) {
  const parts = [];
  if (s.hand !== null && s.hand !== undefined) parts.push(t("ticker.hand", { n: s.hand }));
  const k = s.clock && !s.in_hand ? s.clock : s.stakes; // between hands: the level's
  if (k && k.small_blind !== null && k.big_blind !== null) {
    parts.push(t("ticker.blinds", { sb: num(k.small_blind), bb: num(k.big_blind) }));
  }
  if (k && k.ante) parts.push(t("ticker.ante", { n: num(k.ante) }));
  document.getElementById("ticker-hand").textContent = parts.join(" · ");
  document.getElementById("ticker").hidden = !s.rules;
  sync(s);
}
