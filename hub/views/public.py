"""The public view's own projections (the TV in the room): what it shows of the hub's
alerts, and each pot's result with the winner's name and the hand that won it.

* :func:`public_alert` — a security alert (a tag not in the deck, one tag on two antennas:
  a cloned or spoofed tag) is the dealer's and the floor's business: the room sees only
  the neutral notice "the floor has been called to the table" (code
  :data:`FLOOR_CALLED`), never which seat, antenna or card; any other alert goes as it is.
* :func:`public_snapshot` — the public snapshot with its alerts so (the page lists the
  current hand's, at most three: ``static/public/model.js``).
* :func:`public_results` — each pot of a hand: main or side pot, who took what, and for
  a hand shown at a showdown the name of what it made ("Anna wins 1,973 with two pair").
  Only shown hands are named: a pot won uncontested names nobody's cards.

Pure: frames and the rules' state in, frames out.

>>> from hub.views.alerts import doubled_tag_alert
>>> notice = public_alert(doubled_tag_alert("As", ["seat1", "seat2"], 5.0))
>>> notice["code"], notice["seat"], notice["message"], "readers" in notice
('floor_called', None, 'the floor has been called to the table', False)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from feltwire.cards import CardIndex, card_index
from feltwire.protocol import PublicPotResult, PublicShare
from feltwire.text import Text
from hub.messages import render
from hub.rules.evaluator import (
    HandCategory,
    InvalidHandError,
    describe_27_low,
    describe_high,
    describe_low,
    high_category,
)
from hub.rules.games import Evaluation
from hub.rules.hand import Hand
from hub.rules.procedure import PotAwarded
from hub.rules.setup import HandSetup
from hub.rules.showdown import hand_value
from hub.views.alerts import DOUBLED_UID_ALERT, UNKNOWN_TAG_ALERT, alert_frame
from hub.views.frames import Event, frame
from hub.views.table import shown_view_model

__all__ = [
    "FLOOR_CALLED",
    "SECURITY_CODES",
    "hand_name",
    "is_security",
    "public_alert",
    "public_frame",
    "public_results",
    "public_snapshot",
]

FLOOR_CALLED: Final = "floor_called"
"""The code of the notice the room sees in place of a security alert."""
SECURITY_CODES: Final = frozenset({UNKNOWN_TAG_ALERT, DOUBLED_UID_ALERT})
"""Alert codes that are security alerts wherever they come from (the rules raise
``unknown_tag`` in a hand, the hub between hands; ``uid_on_two_antennas`` is the hub's)."""

_CATEGORY_KEYS: Final = {
    HandCategory.HIGH_CARD: "hand_name.high_card",
    HandCategory.PAIR: "hand_name.pair",
    HandCategory.TWO_PAIR: "hand_name.two_pair",
    HandCategory.THREE_OF_A_KIND: "hand_name.three_of_a_kind",
    HandCategory.STRAIGHT: "hand_name.straight",
    HandCategory.FLUSH: "hand_name.flush",
    HandCategory.FULL_HOUSE: "hand_name.full_house",
    HandCategory.FOUR_OF_A_KIND: "hand_name.four_of_a_kind",
    HandCategory.STRAIGHT_FLUSH: "hand_name.straight_flush",
}
_LOW: Final = re.compile(r"\b(\w)-(\w) low\b")
_HIGH_GAMES: Final = (Evaluation.HIGH, Evaluation.OMAHA_HIGH)


def is_security(alert: Event) -> bool:
    """True for a security alert: rule ``security`` or a code of :data:`SECURITY_CODES`."""
    return alert.get("rule") == "security" or alert.get("code") in SECURITY_CODES


def public_alert(alert: Event) -> Event:
    """``alert`` as the room may see it: a security alert becomes the floor notice (its
    time and hand kept; no seat, antenna, card or id), any other alert is unchanged."""
    if not is_security(alert):
        return alert
    return alert_frame(
        FLOOR_CALLED,
        "security",
        Text("notice.floor_called.message"),
        Text("notice.floor_called.remedy"),
        float(alert["t"]),
        severity="info",
        hand=alert.get("hand"),
    )


def public_frame(event: Event) -> Event:
    """A frame of the public feed as the public view's socket sends it: alerts through
    :func:`public_alert`, every other frame unchanged."""
    return public_alert(event) if event.get("type") == "alert" else event


def public_snapshot(snapshot: Event) -> Event:
    """The public snapshot (``/api/public``, the first frame of ``/ws/public``) with its
    recent alerts through :func:`public_alert`: a security alert as the floor notice."""
    rules = snapshot.get("rules")
    if not rules:
        return snapshot
    alerts = [public_alert(a) for a in rules.get("alerts", [])]
    return snapshot | {"rules": rules | {"alerts": alerts}}


def _indexes(codes: Iterable[str]) -> list[CardIndex]:
    return [card_index(c) for c in codes]


def _low_name(words: str) -> Text | None:
    m = _LOW.search(words)
    return Text("hand_name.low", {"ranks": f"{m.group(1)}-{m.group(2)}"}) if m else None


def hand_name(
    evaluation: Evaluation, hole: Sequence[CardIndex], board: Sequence[CardIndex], half: str
) -> Text | None:
    """What a shown hand made, as a ``hand_name.*`` text: the high hand's category, or a
    low ("a 7-5 low"); None when the cards do not make a hand this can name.

    >>> from feltwire.cards import card_index as c
    >>> board = [c(x) for x in ("Ts", "9s", "2h", "Kc", "8h")]
    >>> hand_name(Evaluation.HIGH, [c("Kd"), c("9d")], board, "whole").key
    'hand_name.two_pair'
    """
    try:
        high, low = hand_value(evaluation, hole, board)
        if evaluation in _HIGH_GAMES or (evaluation.hi_lo and half != "low"):
            if describe_high(high) == "Royal Flush":
                return Text("hand_name.royal_flush")
            return Text(_CATEGORY_KEYS[high_category(high)])
        if evaluation.hi_lo:
            return None if low is None else _low_name(describe_low(low))
        if evaluation is Evaluation.A5_LOW:
            return _low_name(describe_low(high))
        if evaluation is Evaluation.DEUCE_SEVEN_LOW:
            return _low_name(describe_27_low(high))
        if evaluation is Evaluation.BADUGI and len(hole) == 4:
            return Text("hand_name.badugi") if len({c & 3 for c in hole}) == 4 else None
    except (InvalidHandError, ValueError):
        return None
    return None


def result_share(name: str, amount: int, half: str, hand: Text | None) -> Text:
    """One winner's line: ``result.share.*`` with the name, the chips, the half of a split
    pot and the hand name when there is one."""
    params: dict[str, object] = {"player": name, "amount": amount}
    if half != "whole":
        params["half"] = Text(f"half.{half}")
    if hand is not None:
        params["hand_name"] = hand
    key = {
        (False, False): "result.share.plain",
        (False, True): "result.share.hand",
        (True, False): "result.share.half",
        (True, True): "result.share.half_hand",
    }[(half != "whole", hand is not None)]
    return Text(key, params)  # type: ignore[arg-type]


def public_results_models(
    pots: Sequence[PotAwarded], hand: Hand, setup: HandSetup, names: Mapping[int, str]
) -> list[PublicPotResult]:
    """Each pot of ``hand`` (its :class:`PotAwarded` events) as the public view shows it:
    labelled, each winner by name (``names``: table seat → name), and — for a contested
    pot — the hand each winner showed."""
    shown = {s.seat: s for s in shown_view_model(hand, setup) if s.whole}
    board = [c for c in hand.board if c >= 0]
    evaluation = hand.game.evaluation
    out = []
    for pot in pots:
        shares = []
        for p in pot.payouts:
            cards = shown.get(p.seat)
            named = None
            if not pot.uncontested and cards is not None:
                named = hand_name(evaluation, _indexes(cards.cards), board, p.half)
            name = names.get(p.seat) or render(Text("seat", {"n": p.seat}))
            text = result_share(name, p.amount, p.half, named)
            shares.append(
                PublicShare(
                    seat=p.seat,
                    name=name,
                    amount=p.amount,
                    half=p.half,
                    text=text.as_json(),
                    message=render(text),
                )
            )
        label = Text("award.pot.main") if pot.pot == 0 else Text("award.pot.side", {"pot": pot.pot})
        out.append(
            PublicPotResult(
                pot=pot.pot,
                pot_name=label.as_json(),
                amount=pot.amount,
                uncontested=pot.uncontested,
                shares=shares,
            )
        )
    return out


def public_results(
    pots: Sequence[PotAwarded], hand: Hand, setup: HandSetup, names: Mapping[int, str]
) -> list[Event]:
    """:func:`public_results_models` as JSON objects."""
    return [frame(r) for r in public_results_models(pots, hand, setup, names)]
