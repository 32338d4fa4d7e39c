"""Alert and award frames: what the dealer is told, as catalog texts and in English.

Every alert frame — the rules' (:func:`rules_alert_frame`) and the hub's own: a tag that
is not in the registered deck, one registered tag read on two antennas at once
(:func:`unknown_tag_alert`, :func:`doubled_tag_alert`), a node's stream, the event log —
is built by :func:`alert_frame`: ``text`` and ``remedy_text`` are the catalog's texts
(``{"key", "params"}``, what the pages render in their language), ``message`` and
``remedy`` their English renderings (for MQTT consumers and logs). A pot's award is an
:func:`award_line` the same way. Pure frames; a card is named only when every antenna it
lies on is face up.

>>> doubled_tag_alert("As", ["seat1", "seat2"], 5.0)["message"].startswith("one registered tag")
True
>>> frame = unknown_tag_alert("seat3", 2, 1.0)
>>> frame["seat"], frame["text"]["key"]
(3, 'alert.unknown_tag.idle.many.message')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from typing import ParamSpec

from feltwire.protocol import AlertFrame, PotAwardRecord, reader_kind, seat_of
from feltwire.protocol.texts import AwardLine
from feltwire.protocol.values import FrameModel
from feltwire.text import Text
from hub.messages import antenna, joined, render
from hub.rules.alerts import Alert, AlertCode
from hub.rules.procedure import PotAwarded
from hub.views.antennas import PUBLIC_KINDS
from hub.views.frames import Event, frame

__all__ = [
    "DOUBLED_UID_ALERT",
    "UNKNOWN_TAG_ALERT",
    "alert_frame",
    "alert_frame_model",
    "alert_key",
    "alert_readers",
    "alert_seats",
    "award_line",
    "award_line_model",
    "award_record",
    "award_record_model",
    "console_alerts",
    "doubled_tag_alert",
    "rules_alert_frame",
    "unknown_tag_alert",
]

UNKNOWN_TAG_ALERT = "unknown_tag"
"""The security alert's code for a tag not in the deck read while no hand runs (the same
code the dealing monitor uses in a hand)."""
DOUBLED_UID_ALERT = "uid_on_two_antennas"
"""The security alert's code: one registered tag read on two antennas at the same time."""

P = ParamSpec("P")


def alert_frame_model(
    code: str,
    rule: str,
    text: Text,
    remedy: Text,
    now: float,
    *,
    seat: int | None = None,
    severity: str = "warning",
    alert_id: int | None = None,
    hand: int | None = None,
    node: str | None = None,
    readers: list[str] | None = None,
) -> AlertFrame:
    """An alert frame: the texts and their English; ``alert_id`` the rules' number (None:
    the hub's own), and ``hand``, ``node``, ``readers`` where it concerns them (left out
    of the frame when not given)."""
    concerns = {"hand": hand, "node": node, "readers": readers}
    return AlertFrame.model_validate(
        {
            "t": now,
            "code": code,
            "severity": severity,
            "seat": seat,
            "rule": rule,
            "text": text.as_json(),
            "remedy_text": remedy.as_json(),
            "message": render(text),
            "remedy": render(remedy),
            "id": alert_id,
            **{k: v for k, v in concerns.items() if v is not None},
        }
    )


def _framed(build: Callable[P, FrameModel]) -> Callable[P, Event]:
    """The JSON-object builder of a model builder: :func:`frame` of what ``build`` makes,
    with ``build``'s parameters."""

    def framed(*args: P.args, **kwargs: P.kwargs) -> Event:
        return frame(build(*args, **kwargs))

    return framed


alert_frame = _framed(alert_frame_model)
"""A hub's own alert frame (``{"type": "alert", "id": None, …}``) as a JSON object:
:func:`alert_frame_model`, with its parameters."""


def rules_alert_frame(alert: Alert, alert_id: int, hand: int, now: float) -> Event:
    """The frame of an alert the rules raised: ``alert_id`` (what the dealer acknowledges)
    in hand ``hand``."""
    model = alert_frame_model(
        alert.code.value,
        alert.rule,
        alert.text,
        alert.remedy,
        now,
        seat=alert.seat,
        severity=alert.severity.value,
        alert_id=alert_id,
        hand=hand,
    )
    return frame(model)


def award_line_model(text: Text) -> AwardLine:
    """A pot's award read-out: the text and its English."""
    return AwardLine.model_validate({"text": text.as_json(), "message": render(text)})


award_line = _framed(award_line_model)
""":func:`award_line_model` as a JSON object (``{"text", "message"}``)."""


def award_record_model(event: PotAwarded) -> PotAwardRecord:
    """A ``PotAwarded`` event as the console's record of it: its fields, the read-out's
    English beside the text."""
    return PotAwardRecord.model_validate(event.as_dict() | {"message": render(event.text)})


award_record = _framed(award_record_model)
""":func:`award_record_model` as a JSON object."""


def unknown_tag_alert(reader: str, count: int, now: float) -> Event:
    """The alert for ``count`` tags not in the registered deck read on ``reader``."""
    where = antenna(reader)
    text = (
        Text("alert.unknown_tag.idle.one.message", {"reader": where})
        if count == 1
        else Text("alert.unknown_tag.idle.many.message", {"count": count, "reader": where})
    )
    return alert_frame(
        UNKNOWN_TAG_ALERT,
        "security",
        text,
        Text("alert.unknown_tag.idle.remedy"),
        now,
        seat=seat_of(reader),
        readers=[reader],
    )


def doubled_tag_alert(card: str, readers: list[str], now: float) -> Event:
    """The alert for one registered tag (``card``) read on ``readers`` at once (a cloned
    or replayed tag); the card is named only when every one of them is face up."""
    where = joined([antenna(r) for r in readers])
    text = (
        Text("alert.uid_on_two_antennas.public.message", {"card": card, "readers": where})
        if all(reader_kind(r) in PUBLIC_KINDS for r in readers)
        else Text("alert.uid_on_two_antennas.hidden.message", {"readers": where})
    )
    return alert_frame(
        DOUBLED_UID_ALERT,
        "security",
        text,
        Text("alert.uid_on_two_antennas.remedy"),
        now,
        seat=next((s for s in map(seat_of, readers) if s is not None), None),
        readers=readers,
    )


def alert_key(frame: Event) -> str:
    """What the console acknowledges an alert by: a rules' alert by its id
    (``rules-3``), the hub's own — which have none — by their code and time.

    >>> alert_key({"id": 3, "code": "missing_burn", "t": 1.0})
    'rules-3'
    >>> alert_key({"id": None, "code": "uid_on_two_antennas", "t": 12.5})
    'hub-uid_on_two_antennas-12.5'
    """
    if frame.get("id") is not None:
        return f"rules-{frame['id']}"
    return f"hub-{frame['code']}-{float(frame['t'])!r}"


_TWO_READERS = ("reader_a", "reader_b")
"""The parameters of the rules' ``duplicate_card`` alert for one card read on two
antennas at once: the two antennas."""


def _doubled_in_hand(frame: Event) -> bool:
    """True for the rules' alert of one card read on two antennas at once (a
    ``duplicate_card`` whose text names the two antennas)."""
    params = (frame.get("text") or {}).get("params") or {}
    doubled = AlertCode.DUPLICATE_CARD.value
    return frame.get("code") == doubled and all(k in params for k in _TWO_READERS)


def _reader_id(text: object) -> str | None:
    """The reader id an ``antenna.*`` text names (``{"key": "antenna.seat", "params":
    {"n": 3}}`` is ``seat3``), None for another value."""
    if not isinstance(text, dict) or not str(text.get("key", "")).startswith("antenna."):
        return None
    kind = str(text["key"]).removeprefix("antenna.")
    n = (text.get("params") or {}).get("n")
    return f"{kind}{n}" if n is not None else kind if kind != "other" else None


def alert_readers(frame: Event) -> list[str]:
    """The antennas an alert concerns: its ``readers``, or — the rules' alert for a card
    read on two antennas — the two its text names.

    >>> alert_readers({"code": "duplicate_card", "text": {"key": "…", "params": {
    ...     "reader_a": {"key": "antenna.seat", "params": {"n": 1}},
    ...     "reader_b": {"key": "antenna.seat", "params": {"n": 4}}}}})
    ['seat1', 'seat4']
    """
    if frame.get("readers"):
        return list(frame["readers"])
    if not _doubled_in_hand(frame):
        return []
    params = frame["text"]["params"]
    found = [_reader_id(params.get(k)) for k in _TWO_READERS]
    return [r for r in found if r is not None]


def alert_seats(frame: Event) -> list[int]:
    """The seats an alert concerns, as people number them: its seat and the seats of the
    antennas it names (``seat3``, ``up5``), in order.

    >>> alert_seats({"seat": 3, "readers": ["seat3", "seat5", "board"]})
    [3, 5]
    """
    seats: list[int] = [] if frame.get("seat") is None else [int(frame["seat"])]
    for reader in alert_readers(frame):
        seat = seat_of(reader)
        if seat is not None and seat not in seats:
            seats.append(seat)
    return seats


def _cleared(frame: Event, antennas: Mapping[str, Sequence[str]]) -> bool:
    """True when a doubled card's cause is gone — the hub's doubled tag, the rules' card
    on two antennas: no card lies on all its antennas now (it was taken back). Other
    alerts are not cleared by the antennas."""
    readers = alert_readers(frame)
    doubled = frame.get("code") == DOUBLED_UID_ALERT or _doubled_in_hand(frame)
    if not doubled or len(readers) < 2:
        return False
    common = set(antennas.get(readers[0], ()))
    for reader in readers[1:]:
        common &= set(antennas.get(reader, ()))
    return not common


def console_alerts(
    alerts: Sequence[Event],
    acknowledged: Set[int],
    acknowledged_hub: Set[str],
    antennas: Mapping[str, Sequence[str]],
) -> list[Event]:
    """The alerts as the dealer console lists them (oldest first): each with whether the
    dealer acknowledged it (``acknowledged``: the rules' ids; ``acknowledged_hub``: the
    keys of the hub's own), whether its cause is gone (``antennas``: the cards on each
    antenna now), the seats it concerns and its :func:`alert_key`. The console shows
    the ones neither acknowledged nor cleared, their seats highlighted."""
    out = []
    for f in alerts:
        key = alert_key(f)
        acked = (f["id"] in acknowledged) if f.get("id") is not None else key in acknowledged_hub
        out.append(
            f
            | {
                "acknowledged": acked,
                "cleared": _cleared(f, antennas),
                "seats": alert_seats(f),
                "key": key,
            }
        )
    return out
