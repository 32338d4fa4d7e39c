// feltwire live feeds: a WebSocket to one of the hub's /ws/* feeds that reconnects by
// itself. After a drop it waits 1 s, then twice as long after each failed attempt (up to
// 30 s), and back to 1 s once a connection opened. The page learns the connection's state
// through onStatus: "live" when open, "reconnecting" while it waits (it starts as
// "connecting", which the page shows before calling openFeed), and "moving" (with
// {hub, origin}) when it leaves for another hub.
//
// A page follows its table across the hubs of a card room (several hubs, one PostgreSQL:
// each table served by one hub, taken by another when that hub dies). Each time its feed
// opens (and every minute while it stays open; every 5 s while the room's answer names no
// hub but its own — a hub that has just joined is not known to every hub at once, and
// the page must know it before its own hub dies) the page asks its hub's /tables and
// remembers the room's hubs for the tab (sessionStorage, this origin's): each table's
// `url` and the hubs the answer's Link header names. When the feed closes, before the
// next attempt, it asks /tables where its table is served now — its own hub first, then,
// if that one does not answer, the others it remembers (/tables is readable from any
// origin) — and when another hub serves it, and that hub confirms it, the page goes there
// with the same path and query (its token, its table): location.replace. A hub alone
// answers /tables without `url`: then the page only reconnects, as ever.

import { i18n } from "./i18n.js";

const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30000;
const ASK_TIMEOUT_MS = 3000;
const RELEARN_MS = 60000;
const RELEARN_SOON_MS = 5000;
const ROOM_KEY = "feltwire.room";

/** The ws: or wss: URL (matching the page's own scheme) of `path` on this hub, with the
 * query parameters given (an object or URLSearchParams; empty values are kept). */
export function feedUrl(path, query) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const q = new URLSearchParams(query || {}).toString();
  return proto + "//" + location.host + path + (q ? "?" + q : "");
}

/** The page's status while it moves to hub `hub` ("moving to hub hub-b…"), from the
 * catalog (page.moving) in the page's language. */
export function movingText(hub) {
  const text = { key: "page.moving", params: { hub: String(hub) } };
  return i18n.text(text) ?? "moving to hub " + hub + "…";
}

/** The origin of a hub's web address (http: or https: only), or null. */
function originOf(url) {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : null;
  } catch {
    return null;
  }
}

/** The hubs of the room this tab has learnt, as origins. */
function remembered() {
  try {
    const list = JSON.parse(sessionStorage.getItem(ROOM_KEY) || "[]");
    return Array.isArray(list) ? list.filter((o) => typeof o === "string") : [];
  } catch {
    return [];
  }
}

function remember(origins) {
  const all = [...new Set([...remembered(), ...origins])];
  try {
    sessionStorage.setItem(ROOM_KEY, JSON.stringify(all));
  } catch {
    /* storage may be off: the page still asks its own hub */
  }
}

/** /tables as the hub at `origin` answers it — {tables, room, hubs}: `room` whether it is
 * a hub of a room (its entries carry `url`), `hubs` the origins of the hubs it names —
 * or null when it does not answer (in time). */
async function askTables(origin) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ASK_TIMEOUT_MS);
  try {
    const ask = { cache: "no-store", credentials: "omit", signal: abort.signal };
    const res = await fetch(origin + "/tables", ask);
    if (!res.ok) return null;
    const tables = await res.json();
    if (!Array.isArray(tables)) return null;
    const urls = tables.map((t) => t && t.url);
    const links = (res.headers.get("Link") || "").matchAll(/<([^>]*)>[^,]*rel="?alternate/g);
    for (const m of links) urls.push(m[1]); // the room's hubs: <http://hub-b:8080/tables>
    const hubs = urls.filter((u) => typeof u === "string").map(originOf).filter((o) => o);
    return { tables, room: tables.some((t) => t && "url" in t), hubs };
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** Where `table` is served now when that is another hub that confirms it: {hub, origin};
 * null when it is served here, by nobody for now (it is moving), or nobody answers. */
async function elsewhere(table) {
  const here = location.origin;
  for (const origin of [here, ...remembered().filter((o) => o !== here)]) {
    const answer = await askTables(origin);
    if (answer === null) continue; // that hub is down too: ask the next
    remember(answer.hubs);
    const entry = answer.tables.find((t) => t && t.table === table);
    const there = entry && entry.url ? originOf(entry.url) : null;
    if (!there || there === here) return null;
    const confirm = there === origin ? answer : await askTables(there);
    const mine = confirm && confirm.tables.find((t) => t && t.table === table);
    return mine && mine.here === true ? { hub: entry.hub || there, origin: there } : null;
  }
  return null;
}

/** This page at `origin`: the same path, query (its token) and hash, and `table` named. */
function follow(origin, table) {
  let search = location.search;
  if (!new URLSearchParams(search).has("table")) {
    search += (search ? "&" : "?") + "table=" + encodeURIComponent(table);
  }
  location.replace(origin + location.pathname + search + location.hash);
}

/** Open the feed at `path` (e.g. "/ws/console") of `table` (the table the page shows) and
 * keep it open: each frame is parsed as JSON and given to onFrame; onStatus("live" |
 * "reconnecting" | "moving", {hub, origin} when moving) follows the connection and the
 * table. Returns {close()} to stop it for good. */
export function openFeed({ path, query, table, onFrame, onStatus }) {
  let delay = FIRST_DELAY_MS;
  let ws = null;
  let stopped = false;
  let timer = null;
  let relearn = null;
  let generation = 0; // the feed's connections, counted: a closed one's relearning stops
  let alone = false; // this page's hub said it is a hub alone: nothing to follow
  const say = (status, detail) => onStatus && onStatus(status, detail);

  /** Ask this hub's /tables and remember the room's hubs; whether to ask again soon (no
   * answer, or a room that names no hub but this one). */
  async function learn() {
    const answer = await askTables(location.origin);
    if (answer === null) return true;
    alone = !answer.room;
    if (!alone) remember(answer.hubs);
    return !alone && !answer.hubs.some((o) => o !== location.origin);
  }

  function keepLearning(mine) {
    learn().then((soon) => {
      if (stopped || alone || mine !== generation) return;
      relearn = setTimeout(() => keepLearning(mine), soon ? RELEARN_SOON_MS : RELEARN_MS);
    });
  }

  async function retry() {
    const started = Date.now();
    const wait = delay;
    delay = Math.min(MAX_DELAY_MS, delay * 2);
    const moved = alone || !table ? null : await elsewhere(table);
    if (stopped) return;
    if (moved) {
      say("moving", moved);
      follow(moved.origin, table);
      return;
    }
    timer = setTimeout(connect, Math.max(0, wait - (Date.now() - started)));
  }

  function connect() {
    timer = null;
    ws = new WebSocket(feedUrl(path, query));
    ws.onopen = () => {
      delay = FIRST_DELAY_MS;
      say("live");
      generation += 1;
      keepLearning(generation);
    };
    ws.onclose = () => {
      generation += 1;
      clearTimeout(relearn);
      if (stopped) return;
      say("reconnecting");
      retry();
    };
    ws.onmessage = (msg) => onFrame(JSON.parse(msg.data));
  }

  connect();
  return {
    close() {
      stopped = true;
      clearTimeout(relearn);
      if (timer !== null) clearTimeout(timer);
      if (ws) ws.close();
    },
  };
}
