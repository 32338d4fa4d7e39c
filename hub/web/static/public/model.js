// The public table view's picture of the table, as the hub last told it: antennas, the
// rules' public state, the clock, the last hand's pot results, the current hand's alerts
// and the feed's state. Numbers of a hand (stacks, bets, pot) are always the hub's own:
// frames that change them make the page fetch /api/public again (sync.js).

/** The TV lists at most this many alerts, the newest first. */
export const MAX_ALERTS = 3;

/** What the page shows. */
export const model = {
  antennas: new Map(), // reader -> public antenna view (cards only when face up)
  rules: null, // TableService.public_state(): players, pot, acting, button, …
  clock: null, // the tournament clock's state
  clockAt: 0, // performance.now() when clock.time_left was true
  awards: null, // {hand, lines: [{text, message}]} or {hand, void: true}
  results: null, // {hand, pots: [PublicPotResult]}: the last hand's pots, winners named
  alerts: [], // the current hand's, newest first (security ones as the floor notice)
  names: new Map(), // seat -> the name last seen there (a player who busted keeps it)
  status: "connecting", // the feed's: connecting, live, reconnecting, moving
  movingTo: null, // the hub the page is moving to (its table is served there now)
};

/** Take a new clock state (its time_left is true now). */
export function setClock(c) {
  model.clock = c || null;
  model.clockAt = performance.now();
}

/** The hand whose pots the last-pot panel shows: the last one finished. */
function lastHand(r) {
  return r.in_hand ? r.hand - 1 : r.hand;
}

/** Take a snapshot (the feed's first frame, or /api/public's answer): the first one also
 * brings the last award read-outs; each brings the current hand's alerts and the pots'
 * results with the winners' names. */
export function takeSnapshot(snap, first) {
  model.antennas = new Map((snap.antennas || []).map((a) => [a.reader, a]));
  const r = snap.rules || null;
  model.rules = r;
  setClock(r ? r.clock : null);
  if (!r) return;
  (r.players || []).forEach((p) => model.names.set(p.seat, p.name));
  // the current hand's alerts (the last hand's until the next starts); a notice of no (a tag seen between hands) is kept until the next hand
  // hand that came live (a tag seen between hands) is kept until the next hand; an alert
  // the feed brought is kept unless the snapshot is of a later hand (an answer of
  // /api/public may be older than the frames taken while it travelled)
  const live = model.alerts.filter((a) => !a.hand || a.hand >= r.hand);
  const mine = (r.alerts || []).filter((a) => a.hand && a.hand === r.hand);
  const seen = new Set(live.map(alertKey));
  const merged = [...live, ...mine.filter((a) => !seen.has(alertKey(a)))];
  model.alerts = merged.sort((a, b) => b.t - a.t).slice(0, MAX_ALERTS);
  if (first && r.awards && r.awards.length) model.awards = { hand: lastHand(r), lines: r.awards };
  // the hub's results of the last hand replace what the page named from the awards
  // (never a newer hand's: a pot won uncontested is awarded before its hand ends)
  const last = lastHand(r);
  if (r.results && r.results.length && !(model.results && model.results.hand > last)) {
    model.results = { hand: last, pots: r.results };
  }
}

/** What tells two alerts apart: the rules' number, else the hub's own code and time. */
function alertKey(a) {
  return a.id ? "#" + a.id : a.code + "@" + a.t;
}

/** Take an alert of the feed: the current hand's (or a notice of none) go on the list,
 * newest first, at most MAX_ALERTS; an alert of another hand, or the hub's own about a
 * node, is not the room's. Returns whether the list changed. */
export function takeAlert(ev) {
  const r = model.rules;
  const current = r ? r.hand : 0;
  const notice = ev.code === "floor_called";
  // an alert of a hand later than the page's picture is the current hand's: the picture
  // (a snapshot still travelling) is behind the feed, not the alert
  if (ev.hand ? ev.hand < current : !notice) return false;
  if (model.alerts.some((a) => alertKey(a) === alertKey(ev))) return false;
  model.alerts.unshift(ev);
  model.alerts.length = Math.min(model.alerts.length, MAX_ALERTS);
  return true;
}

/** The seconds left in the clock's level, counted down locally since the last clock frame. */
export function clockLeft() {
  const c = model.clock;
  if (!c) return 0;
  if (c.paused || !c.started) return c.time_left;
  return Math.max(0, c.time_left - (performance.now() - model.clockAt) / 1000);
}
