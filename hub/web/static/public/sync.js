// The public table view kept in step with the hub: each frame of /ws/public updates the
// picture where the frame says enough (antennas, clock, turn, alerts) and otherwise asks
// /api/public for a fresh snapshot (coalesced: one request at a time, one more if frames
// came meanwhile), so the view never drifts from the rules.

import { i18n as I } from "../lib/i18n.js";
import { model, setClock, takeAlert, takeSnapshot } from "./model.js";
import { renderSeats } from "./seats.js";
import { render, renderAlerts, renderBoard, renderClock } from "./view.js";

const TABLE = document.body.dataset.table;
let refreshing = false;
let again = false;

/** Fetch a fresh snapshot and draw it (at most one request under way). */
export async function refresh() {
  if (refreshing) {
    again = true;
    return;
  }
  refreshing = true;
  try {
    do {
      again = false;
      const res = await fetch("/api/public?table=" + encodeURIComponent(TABLE));
      if (res.ok) {
        takeSnapshot(await res.json(), false);
        render();
      }
    } while (again);
  } catch {
    /* the hub is restarting: the WebSocket reconnects and resyncs */
  } finally {
    refreshing = false;
  }
}

function flashSeat(seat) {
  const box = document.querySelector('#seats .seat[data-seat="' + seat + '"]');
  if (!box) return;
  box.classList.add("alerted");
  setTimeout(() => box.classList.remove("alerted"), 3000);
}

/** A pot as the TV names it, from its award (the hub's result, with the hand shown,
 * replaces it at the next snapshot): each winner by name, main or side pot. */
function namedPot(ev) {
  const label = ev.pot ? { key: "award.pot.side", params: { pot: ev.pot } } : { key: "award.pot.main", params: {} };
  const shares = (ev.payouts || []).map((p) => {
    const name = model.names.get(p.seat) || I.t("public.seat", { n: p.seat });
    const whole = p.half === "whole";
    const params = whole ? { player: name, amount: p.amount } :
      { player: name, amount: p.amount, half: { key: "half." + p.half, params: {} } };
    const text = { key: whole ? "result.share.plain" : "result.share.half", params };
    return { seat: p.seat, name, amount: p.amount, half: p.half, text, message: ev.message };
  });
  return { pot: ev.pot, pot_name: label, amount: ev.amount, uncontested: ev.uncontested, shares };
}

function potAwarded(ev) {
  // the pot is read out as it is awarded (a winner uncalled may still show, R-SHOW-3)
  const a = model.awards;
  if (!a || a.hand !== ev.hand || a.void) model.awards = { hand: ev.hand, lines: [] };
  const lines = model.awards.lines;
  if (!lines.some((l) => l.message === ev.message)) lines.push({ text: ev.text, message: ev.message });
  const res = model.results;
  if (!res || res.hand !== ev.hand) model.results = { hand: ev.hand, pots: [] };
  const pots = model.results.pots.filter((p) => p.pot !== ev.pot);
  model.results.pots = [...pots, namedPot(ev)].sort((x, y) => x.pot - y.pot);
  render();
}

/** Take one frame of the public feed. */
export function onFrame(ev) {
  const r = model.rules;
  switch (ev.type) {
    case "snapshot":
      takeSnapshot(ev, true);
      render();
      break;
    case "antenna":
      model.antennas.set(ev.reader, ev);
      renderBoard();
      renderSeats();
      break;
    case "clock":
      setClock(ev);
      renderClock();
      break;
    case "turn":
      if (r) Object.assign(r, { acting: ev.acting, all_in: ev.all_in, folded: ev.folded });
      renderSeats();
      refresh();
      break;
    case "hand":
      if (r) Object.assign(r, { hand: ev.hand, in_hand: true, button: ev.button, acting: null });
      model.alerts = []; // the TV lists the current hand's alerts only
      render();
      refresh();
      break;
    case "hand_end":
      if (r) Object.assign(r, { in_hand: false, acting: null });
      model.awards = ev.voided ? { hand: ev.hand, void: true } : { hand: ev.hand, lines: ev.awards };
      render();
      refresh();
      break;
    case "alert":
      // a node gone or back: its antennas are unknown or known again (in the snapshot)
      if (ev.code === "node_offline" || ev.code === "node_online") refresh();
      if (takeAlert(ev)) renderAlerts();
      if (ev.seat) flashSeat(ev.seat);
      break;
    case "event":
      if (ev.event === "PotAwarded") potAwarded(ev);
      refresh();
      break;
    case "seats":
      refresh();
      break;
    default:
      break; // button presses, acknowledgements: nothing to show here
  }
}
