"""How many alerts a table keeps: the recent ones the public snapshot repeats, and the
alerts by hand the console and the demo's tally read — bounded, so a hand stuck for
hours does not pile them up (:class:`hub.app.rules_desk.RulesDesk`)."""

from __future__ import annotations

from hub.rules.alerts import Alert

__all__ = ["ALERTS_KEPT", "ALERT_HANDS_KEPT", "RECENT_ALERTS", "keep_latest"]

RECENT_ALERTS = 20
"""How many alerts the public snapshot repeats for a page that opens late."""
ALERT_HANDS_KEPT = 4
"""How many hands :attr:`RulesDesk.alerts_by_hand` keeps the alerts of (the latest)."""
ALERTS_KEPT = 32
"""How many of a hand's latest alerts :attr:`RulesDesk.alerts_by_hand` keeps at least (up
to twice as many, then the older are dropped: a hand stuck for hours does not pile up)."""


def keep_latest(by_hand: dict[int, list[Alert]], number: int) -> None:
    """Bound ``by_hand`` after an alert of hand ``number`` went in: the latest
    :data:`ALERT_HANDS_KEPT` hands (by number), hand ``number``'s latest
    :data:`ALERTS_KEPT` alerts once it holds twice as many.

    >>> by_hand = {n: [] for n in range(1, ALERT_HANDS_KEPT + 2)}
    >>> keep_latest(by_hand, ALERT_HANDS_KEPT + 1); min(by_hand), len(by_hand)
    (2, 4)
    """
    alerts = by_hand.get(number)
    if alerts is not None and len(alerts) > 2 * ALERTS_KEPT:
        del alerts[:-ALERTS_KEPT]
    while len(by_hand) > ALERT_HANDS_KEPT:
        del by_hand[min(by_hand)]
