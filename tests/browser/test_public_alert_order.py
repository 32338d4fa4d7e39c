"""The TV's alert list when the feed outruns the picture: an answer of /api/public may be
older than the frames that came while it travelled (the CI run that saw the out-of-turn
alert never appear: the page had taken a stale snapshot of the last hand and dropped the
new hand's alert as another hand's). The page's own model module, run in Chromium."""

from __future__ import annotations

from typing import Any

from tests.support.console_rig import WAIT, rig

SCRIPT = """async () => {
  const m = await import("/static/public/model.js");
  const rules = (hand, alerts) => ({ antennas: [], rules: { hand, in_hand: true,
    players: [], alerts, awards: [], results: [], clock: null } });
  const alert = (id, hand, t) => ({ type: "alert", id, hand, t, code: "action_out_of_turn",
    seat: 2, severity: "warning" });
  const seen = () => m.model.alerts.map((a) => a.id);
  const out = {};
  m.takeSnapshot(rules(1, []), true);
  out.newer = m.takeAlert(alert(7, 2, 100));       // hand 2's alert, the picture at hand 1
  out.afterNewer = seen();
  m.takeSnapshot(rules(1, []), false);             // a stale answer arrives after it
  out.afterStale = seen();
  m.takeSnapshot(rules(2, [alert(7, 2, 100), alert(8, 2, 101)]), false);
  out.afterFresh = seen();                         // no alert twice, the newest first
  out.again = m.takeAlert(alert(8, 2, 101));
  out.older = m.takeAlert(alert(5, 1, 90));        // the last hand's: not the room's now
  m.takeSnapshot(rules(3, []), false);             // the next hand: the list starts again
  out.nextHand = seen();
  return out;
}"""


async def test_an_alert_is_kept_when_the_picture_is_behind_the_feed(browser: Any) -> None:
    async with rig() as r:
        page = await browser.new_page()
        await page.goto(f"{r.hub.web_url}/login?lang=en")
        await page.wait_for_selector("#login-form:not([hidden])", timeout=WAIT)
        out = await page.evaluate(SCRIPT)
    assert out["newer"] is True and out["afterNewer"] == [7]
    assert out["afterStale"] == [7]
    assert out["afterFresh"] == [8, 7]
    assert out["again"] is False and out["older"] is False
    assert out["nextHand"] == []
