// The players' statistics on their plates, when the producer turns them on (the
// plate_stats switch, hub/web/producer.py): "VPIP 24 · PFR 18 · 3B 6 · 120 hands", each
// player's hands at this table that ended in the 12 hours up to the delayed picture
// (hub/app/plate_stats.py). The hub counts them when the delayed picture reaches a hand's
// end or start and sends them as a "plate_stats" frame (and in the snapshot), which goes
// through the board-sync offset like the pictures. The line takes the equity row's place
// while that row has nothing to show (between hands, a folded seat, before the cards);
// it is [data-field=stats] with data-name, data-hands, data-vpip … (the raw figures).

import { i18n } from "../lib/i18n.js";

const NONE = "—";
let on = false;
let figures = new Map();
let picture = null;

function whole(x) {
  return x === null || x === undefined ? NONE : i18n.num(Math.round(x));
}

function line(f) {
  return i18n.t("plate.stats", {
    vpip: whole(f.vpip),
    pfr: whole(f.pfr),
    three_bet: whole(f.three_bet),
    hands: f.hands === 1 ? i18n.t("plate.hands.one") : i18n.t("plate.hands", { n: i18n.num(f.hands) }),
  });
}

/** Put each player's line on their plate (or hide it) for the picture `s`. */
export function drawPlates(s) {
  if (s) picture = s;
  const players = picture && picture.rules ? picture.players : [];
  for (const box of document.querySelectorAll("#seats .seat")) {
    const el = box.querySelector('[data-field="stats"]');
    if (!el) continue;
    const p = players.find((x) => String(x.seat) === box.dataset.seat);
    const f = on && p && p.name ? figures.get(p.name) : undefined;
    const show = !!f && !p.equity;
    el.hidden = !show;
    box.classList.toggle("with-stats", show);
    if (!f) {
      el.textContent = "";
      el.dataset.name = "";
      continue;
    }
    el.textContent = line(f);
    el.dataset.name = f.name;
    for (const k of ["hands", "vpip", "pfr", "three_bet", "aggression", "wtsd", "wsd", "net"]) {
      el.dataset[k] = f[k] === null ? "" : String(f[k]);
    }
  }
  document.body.dataset.plateStats = String(on);
}

/** The producer's switch (a snapshot's or a "settings" frame's settings). */
export function platesSwitch(settings) {
  on = !!(settings && settings.plate_stats);
  if (!on) figures = new Map();
  drawPlates(null);
}

/** A "plate_stats" frame (or a snapshot's; null: none counted). */
export function takePlateStats(frame) {
  if (!frame) return;
  figures = new Map(frame.players.map((f) => [f.name, f]));
  document.body.dataset.plateStatsAsOf = String(frame.as_of);
  drawPlates(null);
}

i18n.onChange(() => drawPlates(null));
