// feltwire hand history page: search the kept hands (table, dates, player, game), step
// through one hand street by street, download the selection as PHH, PokerStars text or
// Open Hand History. What it shows is the reader's role's: the dealer, the producer and
// the admin see every card the hub kept; anyone else (the public) only what the table
// saw — the hub sends nothing more (GET /api/history/*), so neither does this page.
//
// This is the page's entry module; its parts are under history/, the shared library
// under lib/. The section #stats shows the players' statistics of the same filters
// (history/stats.js).

import { el } from "./lib/dom.js";
import { exposeForTests, i18n } from "./lib/i18n.js";
import { filtersOf, getJson, withQuery } from "./history/api.js";
import { loadStats, startStats } from "./history/stats.js";
import { STRINGS } from "./history/strings.js";
import { renderHand, timeOf } from "./history/view.js";
import { STRINGS as SIGN_IN } from "./login/strings.js";

i18n.add(STRINGS);
// the roles' names are the sign-in page's
const roles = (lang) =>
  Object.fromEntries(Object.entries(SIGN_IN[lang]).filter(([key]) => key.startsWith("role.")));
i18n.add({ en: roles("en"), cs: roles("cs") });
exposeForTests();

const $ = (id) => document.getElementById(id);
const LIMIT = 25;
const state = { filters: {}, offset: 0, list: null, hand: null, step: 0, who: null };

function say(message) {
  $("message").textContent = message || "";
}

function renderRole() {
  const who = state.who;
  const staff = who && who.role && who.role !== "public";
  $("role").textContent = staff
    ? i18n.t("history.role.staff", { name: who.name, role: i18n.t("role." + who.role) })
    : i18n.t("history.role.public");
  $("role").dataset.role = staff ? who.role : "public";
  $("sign-in").hidden = !!staff;
}

function renderDownloads() {
  for (const a of document.querySelectorAll(".downloads a[data-format]")) {
    a.href = withQuery("/api/history/export", { format: a.dataset.format, ...state.filters });
  }
}

function renderList() {
  const list = $("hand-list");
  list.replaceChildren();
  const found = state.list;
  if (!found) return;
  const to = Math.min(found.offset + found.hands.length, found.total);
  $("found").textContent = found.total
    ? i18n.t("history.showing", { from: found.offset + 1, to, total: found.total })
    : "";
  $("page-prev").disabled = found.offset <= 0;
  $("page-next").disabled = to >= found.total;
  if (!found.hands.length) list.appendChild(el("li", "none", i18n.t("history.none")));
  for (const h of found.hands) {
    const li = el("li", "hand-row");
    li.dataset.hand = String(h.id);
    li.dataset.number = String(h.number);
    const b = el("button", "pick");
    b.type = "button";
    const when = h.started_at ? timeOf(h.started_at) : "";
    b.append(
      el("span", "what", h.table + " · " + i18n.t("history.hand", { n: h.number })),
      el("span", "game", h.game_name),
      el("span", "when", when),
      el("span", "pot", i18n.t("history.pot") + " " + i18n.num(h.pot)),
    );
    const players = el("span", "players");
    for (const p of h.players) {
      const who = el("span", "player" + (h.winners.includes(p.seat) ? " winner" : ""));
      who.textContent = p.name + " " + (p.net > 0 ? "+" : "") + i18n.num(p.net);
      players.appendChild(who);
    }
    b.append(players);
    b.addEventListener("click", () => openHand(h.id));
    if (state.hand && state.hand.summary.id === h.id) li.classList.add("open");
    li.appendChild(b);
    list.appendChild(li);
  }
}

function renderAll() {
  renderRole();
  renderDownloads();
  renderList();
  if (state.hand) renderHand(state.hand, state.step);
}

async function search() {
  say("");
  const params = { ...state.filters, limit: LIMIT, offset: state.offset };
  try {
    state.list = await getJson(withQuery("/api/history/hands", params));
  } catch (err) {
    state.list = null;
    $("hand-list").replaceChildren();
    say(err.message);
  }
  renderAll();
}

async function openHand(id) {
  say("");
  try {
    state.hand = await getJson("/api/history/hands/" + encodeURIComponent(id));
    state.step = 0;
    $("hand-empty").hidden = true;
    $("hand-body").hidden = false;
  } catch (err) {
    say(err.message);
  }
  renderAll();
  // on a phone the hand is below the list: bring it into view
  if (state.hand && !matchMedia("(min-width: 1000px)").matches) $("hand").scrollIntoView();
}

function step(by) {
  if (!state.hand) return;
  const last = state.hand.streets.length - 1;
  state.step = Math.max(0, Math.min(last, state.step + by));
  renderHand(state.hand, state.step);
}

async function loadTables() {
  try {
    const tables = await getJson("/api/tables");
    const known = $("tables");
    for (const t of tables) {
      const o = el("option");
      o.value = t.table;
      known.appendChild(o);
    }
  } catch {
    /* no suggestions: any table can still be typed */
  }
}

$("filters").addEventListener("submit", (ev) => {
  ev.preventDefault();
  state.filters = filtersOf($("filters"));
  state.offset = 0;
  search();
  loadStats(state.filters);
});
$("page-prev").addEventListener("click", () => {
  state.offset = Math.max(0, state.offset - LIMIT);
  search();
});
$("page-next").addEventListener("click", () => {
  state.offset += LIMIT;
  search();
});
$("step-prev").addEventListener("click", () => step(-1));
$("step-next").addEventListener("click", () => step(1));

$("lang").appendChild(i18n.switcher());
startStats();
i18n.onChange(renderAll);
i18n.apply();
renderAll();
Promise.all([
  getJson("/api/session").then((who) => (state.who = who), () => null),
  loadTables(),
]).then(async () => {
  await Promise.all([search(), loadStats(state.filters)]);
  document.body.dataset.ready = "true";
});
