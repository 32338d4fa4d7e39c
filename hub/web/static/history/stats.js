// feltwire hand history: the players' statistics of the current filters (GET
// /api/history/stats — no card in them, so every reader gets them): one row a person, or
// with the sessions toggle one a session. Percentages and numbers in the reader's locale;
// "—" where a figure is null (nothing could count). Each cell is td[data-field=…] with
// data-value the API's raw figure (the browser tests compare them); rows are
// tr[data-name] (and data-table / data-started for a session).

import { el } from "../lib/dom.js";
import { i18n } from "../lib/i18n.js";
import { getJson, withQuery } from "./api.js";
import { timeOf } from "./view.js";

const LOCALES = { en: "en-GB", cs: "cs-CZ" };
const NONE = "—";
const $ = (id) => document.getElementById(id);

const COLUMNS = [
  ["hands", "count"],
  ["vpip", "pct"],
  ["pfr", "pct"],
  ["three_bet", "pct"],
  ["aggression", "factor"],
  ["wtsd", "pct"],
  ["wsd", "pct"],
  ["net", "signed"],
  ["chips_per_hour", "signed"],
  ["hands_per_hour", "rate"],
];

const state = { filters: {}, sessions: false, found: null, error: "" };

function locale() {
  return LOCALES[i18n.lang] || "en-GB";
}

/** A figure of the API as the reader's locale writes it ("—" for null). */
export function formatFigure(value, kind) {
  if (value === null || value === undefined) return NONE;
  const loc = locale();
  if (kind === "pct") {
    return new Intl.NumberFormat(loc, { style: "percent", maximumFractionDigits: 1 }).format(value / 100);
  }
  if (kind === "factor") return new Intl.NumberFormat(loc, { maximumFractionDigits: 2 }).format(value);
  if (kind === "rate") return new Intl.NumberFormat(loc, { maximumFractionDigits: 1 }).format(value);
  if (kind === "signed") {
    const n = new Intl.NumberFormat(loc, { maximumFractionDigits: 0 }).format(value);
    return value > 0 ? "+" + n : n;
  }
  return new Intl.NumberFormat(loc).format(value);
}

function head() {
  const row = $("stats-head");
  const first = [el("th", "name", i18n.t("history.stats.player"))];
  if (state.sessions) first.push(el("th", "session", i18n.t("history.stats.session")));
  row.replaceChildren(
    ...first,
    ...COLUMNS.map(([field]) => {
      const th = el("th", "fig", i18n.t("history.stats.col." + field));
      th.title = i18n.t("history.stats.title." + field);
      th.dataset.field = field;
      return th;
    }),
  );
  for (const th of row.children) th.scope = "col";
}

function cell(field, value, kind) {
  const td = el("td", "fig", formatFigure(value, kind));
  td.dataset.field = field;
  td.dataset.value = value === null || value === undefined ? "" : String(value);
  if (kind === "signed" && typeof value === "number") td.classList.add(value > 0 ? "won" : value < 0 ? "lost" : "even");
  return td;
}

function render() {
  head();
  const body = $("stats-body");
  body.replaceChildren();
  const found = state.found;
  const rows = !found ? [] : found.by_session ? found.sessions : found.players;
  $("stats-none").hidden = !found || rows.length > 0;
  $("stats-error").textContent = state.error;
  $("stats-found").textContent = found ? i18n.t(state.sessions ? "history.stats.sessions_found" : "history.stats.players_found", { n: rows.length }) : "";
  for (const r of rows) {
    const tr = el("tr", "stats-row");
    tr.dataset.name = r.name;
    const name = el("th", "name", r.name);
    name.scope = "row";
    name.dataset.field = "name";
    tr.appendChild(name);
    if (found.by_session) {
      tr.dataset.table = r.table;
      tr.dataset.started = String(r.started);
      const when = el("td", "session", r.table + " · " + timeOf(r.started));
      when.dataset.field = "session";
      tr.appendChild(when);
    }
    for (const [field, kind] of COLUMNS) tr.appendChild(cell(field, r[field], kind));
    body.appendChild(tr);
  }
}

/** Load the statistics of `filters` (the search's), per person or per session. */
export async function loadStats(filters) {
  state.filters = filters;
  const params = { ...filters, sessions: state.sessions ? "1" : "0" };
  try {
    state.found = await getJson(withQuery("/api/history/stats", params));
    state.error = "";
  } catch (err) {
    state.found = null;
    state.error = err.message;
  }
  render();
  document.getElementById("stats").dataset.stats = "ready";
}

/** Start: the sessions toggle reloads; a language change redraws. */
export function startStats() {
  const toggle = $("stats-sessions");
  toggle.addEventListener("change", () => {
    state.sessions = toggle.checked;
    document.getElementById("stats").dataset.stats = "loading";
    loadStats(state.filters);
  });
  i18n.onChange(render);
  render();
}
