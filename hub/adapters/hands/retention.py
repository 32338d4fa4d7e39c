"""The hands store's retention (docs/hands.md, "Secrecy and retention"): how long the
cards nobody at the table saw are kept, and how long hands are kept at all.

:func:`apply_retention` does both in one transaction, for the hands that ended before
the cut-offs (their wall-clock end, ``hands.ended_at``):

* ``hidden_cards_days`` — the hole cards of folded and mucked hands, the burns and the
  discards (``cards.visibility`` ``dealer`` or ``mucked``) are erased: the card becomes
  unknown (``NULL``). The hand stays whole — seats, actions, the board, the hands shown,
  pots and awards — so it still replays (an unknown card where the erased one was), is
  still exported (``??`` even with every card) and still counts in the statistics;
* ``keep_days`` — the hands are deleted with everything hanging off them (the people,
  ``players``, stay).

A hub applies its ``[hands]`` settings when it starts and every
:data:`EVERY_SECONDS` after (:mod:`hub.bootstrap`); ``feltwire history prune`` applies
them at once. The event logs hold the same cards as inputs; they are the hub's recovery
record and are not rewritten — ``feltwire history import-log`` applies the settings to
what it rebuilds, so an erased card does not come back through it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, select, update

from hub.adapters.hands import schema
from hub.adapters.hands.store import HandStore
from hub.config import HandsSettings

__all__ = ["DAY", "EVERY_SECONDS", "Retention", "apply_retention"]

DAY = 86_400.0
"""Seconds in a day, as the settings count them."""
EVERY_SECONDS = 3_600.0
"""How often a running hub applies the retention settings."""
HIDDEN = ("dealer", "mucked")
"""The visibilities of the cards nobody at the table saw (``cards.visibility``)."""


@dataclass(frozen=True, slots=True)
class Retention:
    """What one application of the settings did."""

    erased_cards: int
    """Cards nobody saw, made unknown."""
    deleted_hands: int
    """Hands deleted whole."""


def apply_retention(store: HandStore, settings: HandsSettings, now: float) -> Retention:
    """Erase the hidden cards of hands older than ``settings.hidden_cards_days`` and
    delete the hands older than ``settings.keep_days`` (0: never, each), as of ``now``
    (seconds since the epoch); one transaction."""
    h, c = schema.hands, schema.cards
    erased = deleted = 0
    with store.engine.begin() as conn:
        if settings.keep_days:
            old = h.c.ended_at < now - settings.keep_days * DAY
            deleted = conn.execute(delete(h).where(old)).rowcount or 0
        if settings.hidden_cards_days:
            cutoff = now - settings.hidden_cards_days * DAY
            ended = select(h.c.id).where(h.c.ended_at < cutoff).scalar_subquery()
            erase = (
                update(c)
                .where(c.c.hand_id.in_(ended), c.c.visibility.in_(HIDDEN), c.c.card.is_not(None))
                .values(card=None)
            )
            erased = conn.execute(erase).rowcount or 0
    return Retention(erased, deleted)
