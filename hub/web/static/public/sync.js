// The public table view kept in step with the hub: each frame of /ws/public updates the
// picture where the frame says enough (antennas, clock, turn, alerts) and otherwise asks
// /api/public for a fresh snapshot (coalesced: one request at a time, one more if frames
// came meanwhile), so the view never drifts from the rules.

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

function potAwarded(ev) {
  // the pot is read out as it is awarded (a winner uncalled may still show, R-SHOW-3)
  const a = model.awards;
  if (!a || a.hand !== ev.hand || a.void) model.awards = { hand: ev.hand, lines: [] };
  const lines = model.awards.lines;
  if (!lines.some((l) => l.message === ev.message)) lines.push({ text: ev.text, message: ev.message });
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
