// The dealer console's tournament clock (state.clock; none in a cash game): the level,
// its blinds, the time left counted down on the page between the hub's states, and the
// Pause / Resume button (POST /api/clock/pause, /api/clock/resume: logged, the public
// view shows the clock paused too).

import { i18n } from "../lib/i18n.js";
import { send } from "./api.js";
import { store } from "./store.js";

const t = (key, values) => i18n.t(key, values);
const byId = (id) => document.getElementById(id);
let synced = { clock: null, at: 0 };

function left() {
  const c = synced.clock;
  if (!c) return 0;
  if (c.paused || !c.started) return c.time_left;
  return Math.max(0, c.time_left - (performance.now() - synced.at) / 1000);
}

function tick() {
  if (synced.clock) byId("clock-time").textContent = i18n.duration(left());
}

/** Draw the clock from the state (its time left is true now). */
export function renderClock() {
  const c = store.state.clock || null;
  const box = byId("clock");
  box.hidden = !c;
  if (!c) {
    synced = { clock: null, at: 0 };
    return;
  }
  synced = { clock: c, at: performance.now() };
  box.classList.toggle("paused", Boolean(c.paused));
  box.dataset.paused = String(Boolean(c.paused));
  byId("clock-level").textContent = t("console.level", {
    level: c.level, sb: i18n.num(c.small_blind), bb: i18n.num(c.big_blind),
  });
  const toggle = byId("clock-toggle");
  toggle.textContent = c.paused ? t("console.resume") : t("console.pause");
  toggle.dataset.action = c.paused ? "resume" : "pause";
  tick();
}

/** Wire the Pause / Resume button and the countdown. */
export function wireClock() {
  byId("clock-toggle").addEventListener("click", () => {
    const action = byId("clock-toggle").dataset.action;
    if (action) send("/api/clock/" + action, {});
  });
  setInterval(tick, 1000);
}
