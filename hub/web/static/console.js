// feltwire dealer console: the hand, whose turn it is, the legal actions with the engine's
// amounts, undo and misdeal, manual card entry, seats, alerts and the pot award read-out.
// State comes from /ws/console (a console state, then public frames, each burst followed by
// a fresh state); inputs go to /api/console/* (console/api.js). The hub never sends this
// page a hole card before showdown, so it cannot show one.
//
// This is the page's entry module; its parts are under console/, the shared library under
// lib/.

import { movingText, openFeed } from "./lib/feed.js";
import { exposeForTests, i18n } from "./lib/i18n.js";
import { cancelPending, confirmAction, renderActions, setAmount } from "./console/actions.js";
import { renderAlerts } from "./console/alerts.js";
import { sayAgain } from "./console/api.js";
import { renderClock, wireClock } from "./console/clock.js";
import { closeModal } from "./console/controls.js";
import { manualCard, misdeal, onKey, renderManual, undo } from "./console/dealer.js";
import { renderSeating, wireSeating } from "./console/seating.js";
import { renderAwards, renderShowdown } from "./console/showdown.js";
import { render, setRenderer, show, store } from "./console/store.js";
import { STRINGS } from "./console/strings.js";
import { renderHand, renderSeats } from "./console/table.js";

const byId = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

i18n.add(STRINGS);
exposeForTests();

setRenderer(() => {
  const state = store.state;
  byId("live-warning").hidden = !state.live_hole_cards;
  renderHand();
  renderClock();
  renderSeats();
  renderActions();
  renderShowdown();
  renderAwards();
  renderAlerts();
  renderManual();
  renderSeating();
  byId("undo").disabled = !state.can_undo;
  byId("misdeal").disabled = !state.can_misdeal;
});

function setStatus(which, moving) {
  const status = byId("status");
  status.dataset.state = which;
  if (which === "moving") {
    delete status.dataset.i18n; // the hub's name is in it: not redrawn by i18n.apply()
    status.dataset.hub = moving.hub;
    status.textContent = movingText(moving.hub);
    return;
  }
  status.dataset.i18n = "console." + which;
  status.textContent = i18n.t("console." + which);
}

function wire() {
  byId("confirm-action").addEventListener("click", confirmAction);
  byId("cancel-action").addEventListener("click", cancelPending);
  const input = byId("amount-input");
  input.addEventListener("input", () => setAmount(input.value, false));
  input.addEventListener("change", () => setAmount(input.value, true));
  input.addEventListener("blur", () => setAmount(input.value, true));
  const range = byId("amount-range");
  range.addEventListener("input", () => {
    input.value = range.value;
    setAmount(range.value, true);
  });
  byId("undo").addEventListener("click", undo);
  byId("misdeal").addEventListener("click", misdeal);
  byId("modal-yes").addEventListener("click", () => closeModal(true));
  byId("modal-no").addEventListener("click", () => closeModal(false));
  byId("manual-enter").addEventListener("click", manualCard);
  wireSeating();
  wireClock();
  document.querySelector(".lang").replaceChildren(i18n.switcher());
  document.addEventListener("keydown", onKey);
  i18n.onChange(() => {
    setStatus(byId("status").dataset.state, { hub: byId("status").dataset.hub });
    sayAgain();
    render();
  });
}

i18n.apply();
wire();
const query = {};
for (const key of ["token", "table"]) if (params.get(key)) query[key] = params.get(key);
openFeed({
  path: "/ws/console",
  query,
  table: document.body.dataset.table,
  onStatus: setStatus,
  onFrame: (ev) => {
    if (ev.type === "console") show(ev);
  },
});
