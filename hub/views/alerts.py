"""The alerts the hub raises itself about the tags on the table (not the rules'): a tag
that is not in the registered deck, one registered tag read on two antennas at once. Pure
frames; a card is named only when every antenna it lies on is face up.

>>> doubled_tag_alert("As", ["seat1", "seat2"], 5.0)["message"].startswith("one registered tag")
True
>>> unknown_tag_alert("seat3", 2, 1.0)["seat"]
3
"""

from __future__ import annotations

from feltwire.protocol import reader_kind, seat_of
from hub.views.antennas import PUBLIC_KINDS
from hub.views.frames import Event

__all__ = ["DOUBLED_UID_ALERT", "UNKNOWN_TAG_ALERT", "doubled_tag_alert", "unknown_tag_alert"]

UNKNOWN_TAG_ALERT = "unknown_tag"
"""The security alert's code for a tag not in the deck read while no hand runs (the same
code the dealing monitor uses in a hand)."""
DOUBLED_UID_ALERT = "uid_on_two_antennas"
"""The security alert's code: one registered tag read on two antennas at the same time."""


def unknown_tag_alert(reader: str, count: int, now: float) -> Event:
    """The alert for ``count`` tags not in the registered deck read on ``reader``."""
    seat = seat_of(reader)
    tags = "a tag" if count == 1 else f"{count} tags"
    return {
        "type": "alert",
        "t": now,
        "code": UNKNOWN_TAG_ALERT,
        "severity": "warning",
        "seat": seat,
        "rule": "security",
        "message": f"{tags} not in the registered deck read on {reader}",
        "remedy": "take the foreign tag off the table and call the floor",
        "readers": [reader],
    }


def doubled_tag_alert(card: str, readers: list[str], now: float) -> Event:
    """The alert for one registered tag (``card``) read on ``readers`` at once (a cloned
    or replayed tag)."""
    public = all(reader_kind(r) in PUBLIC_KINDS for r in readers)
    where = " and ".join(readers)
    seat = next((s for s in map(seat_of, readers) if s is not None), None)
    return {
        "type": "alert",
        "t": now,
        "code": DOUBLED_UID_ALERT,
        "severity": "warning",
        "seat": seat,
        "rule": "security",
        "message": (
            f"the {card} is read on {where} at once"
            if public
            else f"one registered tag is read on {where} at once"
        )
        + ": a copied (cloned or spoofed) tag, or a card left between two antennas",
        "remedy": "check those places; take a copied card out of play and call the floor",
        "readers": readers,
    }
