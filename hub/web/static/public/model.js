// The public table view's picture of the table, as the hub last told it: antennas, the
// rules' public state, the clock, the last pot award, recent alerts and the feed's state.
// Numbers of a hand (stacks, bets, pot) are always the hub's own: frames that change them
// make the page fetch /api/public again (sync.js).

export const MAX_ALERTS = 5;

/** What the page shows. */
export const model = {
  antennas: new Map(), // reader -> public antenna view (cards only when face up)
  rules: null, // TableService.public_state(): players, pot, acting, button, …
  clock: null, // the tournament clock's state
  clockAt: 0, // performance.now() when clock.time_left was true
  awards: null, // {hand, lines: [{text, message}]} or {hand, void: true}
  alerts: [], // newest first
  status: "connecting",
};

/** Take a new clock state (its time_left is true now). */
export function setClock(c) {
  model.clock = c || null;
  model.clockAt = performance.now();
}

/** Take a snapshot (the feed's first frame, or /api/public's answer); the first one also
 * brings the recent alerts and the last awards. */
export function takeSnapshot(snap, first) {
  model.antennas = new Map((snap.antennas || []).map((a) => [a.reader, a]));
  const r = snap.rules || null;
  model.rules = r;
  setClock(r ? r.clock : null);
  if (first && r) {
    model.alerts = (r.alerts || []).slice(-MAX_ALERTS).reverse();
    if (r.awards && r.awards.length) {
      model.awards = { hand: r.in_hand ? r.hand - 1 : r.hand, lines: r.awards };
    }
  }
}

/** The seconds left in the clock's level, counted down locally since the last clock frame. */
export function clockLeft() {
  const c = model.clock;
  if (!c) return 0;
  if (c.paused || !c.started) return c.time_left;
  return Math.max(0, c.time_left - (performance.now() - model.clockAt) / 1000);
}
