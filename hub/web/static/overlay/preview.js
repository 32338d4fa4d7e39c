// The producer's preview status (docs/overlay.md, "Preview"): with ?preview=1, while the
// delayed feed has shown nothing of a hand yet, a box says what the overlay waits for —
// the delay, and the time until the first frames held back come out (from the snapshot,
// then from GET /api/overlay/delay every POLL_MS). Never without the flag: the page on
// air shows only the picture. #preview carries data-state (off | waiting | nothing-held)
// and data-next-s (seconds left, as drawn) for tests.

import { i18n } from "../lib/i18n.js";

const POLL_MS = 5000;
const box = document.getElementById("preview");
const text = document.getElementById("preview-status");
let on = false;
let query = "";
let delayS = 0;
let nextS = null;
let nextAt = 0; // Date.now() when nextS was read
let waiting = true; // nothing of a hand drawn yet
let ticker = null;
let poller = null;

function left() {
  return nextS === null ? null : Math.max(0, nextS - (Date.now() - nextAt) / 1000);
}

function show() {
  const visible = on && waiting && delayS > 0;
  box.hidden = !visible;
  if (!visible) {
    box.dataset.state = "off";
    return;
  }
  const delay = i18n.duration(delayS);
  const s = left();
  box.dataset.state = s === null ? "nothing-held" : "waiting";
  box.dataset.nextS = s === null ? "" : String(Math.ceil(s));
  text.textContent = s === null
    ? i18n.t("preview.nothing", { delay: delay })
    : i18n.t("preview.waiting", { delay: delay, left: i18n.duration(s) });
}

function take(status) {
  delayS = Number(status.delay_s) || 0;
  nextS = status.next_release_s === null || status.next_release_s === undefined
    ? null : Number(status.next_release_s);
  nextAt = Date.now();
  show();
}

async function poll() {
  try {
    const r = await fetch("/api/overlay/delay?" + query, { credentials: "same-origin" });
    if (r.ok) take(await r.json());
  } catch {
    /* the next poll tries again */
  }
}

function run() {
  const live = on && waiting && delayS > 0;
  if (live && ticker === null) {
    ticker = setInterval(show, 1000);
    poller = setInterval(poll, POLL_MS);
  } else if (!live && ticker !== null) {
    clearInterval(ticker);
    clearInterval(poller);
    ticker = poller = null;
  }
  show();
}

/** Start: `params` the page's query (?preview=1 turns it on), `feedQuery` what the feed
 * is opened with (token, table). */
export function startPreview(params, feedQuery) {
  on = params.get("preview") === "1";
  query = new URLSearchParams(feedQuery).toString();
  box.dataset.state = "off";
  i18n.onChange(show);
}

/** A snapshot came: the delay and the next release. */
export function previewSnapshot(frame) {
  take({ delay_s: frame.delay_s, next_release_s: frame.next_release_s });
  run();
}

/** A picture was drawn: once it has a hand (or players), the preview has nothing to say. */
export function previewPicture(s) {
  waiting = !(s && (s.hand !== null && s.hand !== undefined || (s.players || []).length));
  run();
}
