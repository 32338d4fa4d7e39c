// feltwire public table view — a TV in the room. It shows the board, the pot, every seat
// (name, stack, bet, folded, all-in, whose turn it is, how many cards it holds as backs),
// the tournament level, blinds and a live countdown, the last pot award and the dealer's
// recent alerts, in English or Czech.
//
// It renders the snapshot (/ws/public's first frame), then each frame of the public feed
// (public/sync.js). The countdown ticks locally from the clock's time_left and re-syncs on
// each clock frame. The public feed never carries a hole card, so neither does this page.
//
// This is the page's entry module; its parts are under public/, the shared library under
// lib/.

import { openFeed } from "./lib/feed.js";
import { exposeForTests, i18n } from "./lib/i18n.js";
import { model } from "./public/model.js";
import { STRINGS } from "./public/strings.js";
import { onFrame, refresh } from "./public/sync.js";
import { render, renderCountdown, renderHeader, whenLevelRunsOut } from "./public/view.js";

i18n.add(STRINGS);
exposeForTests();
whenLevelRunsOut(refresh);

document.getElementById("lang").appendChild(i18n.switcher());
i18n.onChange(render);
i18n.apply();
render();
openFeed({
  path: "/ws/public",
  query: { table: document.body.dataset.table },
  table: document.body.dataset.table,
  onFrame,
  onStatus: (status, moving) => {
    model.status = status;
    model.movingTo = moving ? moving.hub : null;
    renderHeader();
  },
});
setInterval(renderCountdown, 250);
