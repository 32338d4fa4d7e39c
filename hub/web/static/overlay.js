// feltwire broadcast overlay (an OBS browser source, producer token in the URL).
// The hub folds every released overlay frame into its picture of the table and sends that
// picture in the snapshot and in a "state" frame after each change; this page only draws
// the latest picture (overlay/picture.js), each frame offset_ms after it arrived
// (overlay/delay.js). Seat panels carry data-seat="n" with [data-field=name|stack|bet].
// With ?preview=1 (the producer's preview, never on air) a box says what a delayed feed
// waits for (overlay/preview.js). The branding and the producer's switches (the chip
// leaderboard, the plates' statistics) come in the snapshot and in "settings" frames, at
// once (overlay/settings.js); the plates' figures in "plate_stats" frames, through the
// offset like the pictures (overlay/plates.js).
//
// This is the page's entry module; its parts are under overlay/, the shared library under
// lib/.

import { movingText, openFeed } from "./lib/feed.js";
import { exposeForTests, i18n } from "./lib/i18n.js";
import { enqueue, startDelay } from "./overlay/delay.js";
import { draw, redraw } from "./overlay/picture.js";
import { drawPlates, platesSwitch, takePlateStats } from "./overlay/plates.js";
import { previewPicture, previewSnapshot, startPreview } from "./overlay/preview.js";
import { settingsPicture, startSettings, takeSettings } from "./overlay/settings.js";
import { STRINGS } from "./overlay/strings.js";

i18n.add(STRINGS);
exposeForTests();

const params = new URLSearchParams(location.search);
const stage = document.getElementById("stage");
const setupEl = document.getElementById("setup");

// the stage is designed at 1920x1080 and scaled to the source's size
function fit() {
  const scale = Math.min(window.innerWidth / 1920, window.innerHeight / 1080);
  const left = (window.innerWidth - 1920 * scale) / 2;
  const top = (window.innerHeight - 1080 * scale) / 2;
  stage.style.transform = "translate(" + left + "px," + top + "px) scale(" + scale + ")";
  document.body.dataset.scale = scale.toFixed(4);
}
window.addEventListener("resize", fit);
fit();

function drawFrame(state) {
  draw(state);
  previewPicture(state);
  settingsPicture(state);
  drawPlates(state);
}

startDelay(params, document.getElementById("offset"), (frame) => {
  if (frame.type === "snapshot") takePlateStats(frame.plate_stats);
  if (frame.type === "plate_stats") takePlateStats(frame);
  if (frame.type === "snapshot" && frame.state) drawFrame(frame.state);
  else if (frame.type === "state") drawFrame(frame.state);
});
setupEl.hidden = params.get("setup") !== "1";
document.addEventListener("keydown", (e) => {
  if (e.key === "s" || e.key === "S") setupEl.hidden = !setupEl.hidden;
});

i18n.apply();
i18n.onChange(redraw);

function setStatus(key, moving) {
  document.body.dataset.status = key;
  const status = document.getElementById("status");
  if (key === "moving") {
    delete status.dataset.i18n; // the hub's name is in it: not redrawn by i18n.apply()
    status.textContent = movingText(moving.hub);
    return;
  }
  status.dataset.i18n = "status." + key;
  status.textContent = i18n.t("status." + key);
}

const query = { token: params.get("token") || "" };
if (params.get("table")) query.table = params.get("table");
startPreview(params, query);
startSettings(query);
openFeed({
  path: "/ws/overlay",
  query,
  table: document.body.dataset.table,
  onStatus: setStatus,
  onFrame: (frame) => {
    if (frame.type === "snapshot") previewSnapshot(frame);
    // the branding and the producer's switches: at once, never behind the delay
    if (frame.type === "snapshot" || frame.type === "settings") {
      takeSettings(frame.settings);
      platesSwitch(frame.settings);
    }
    if (["snapshot", "state", "plate_stats"].includes(frame.type)) enqueue(frame);
  },
});
