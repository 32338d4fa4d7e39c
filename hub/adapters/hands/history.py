"""The kept hands for the history page and the exports: :class:`StoreHistory`, the hands
store behind :class:`hub.app.hand_history.HandHistory`, and what ``feltwire history
export`` and the page's downloads share — a stored hand as the text of one format
through one perspective (:func:`export_text`).

Perspectives (docs/hand-histories.md): ``shown`` — what the table saw, a file anyone
may have; ``hero`` — one player's own file (their cards too); ``all`` — every card,
mucked and folded hands included (the producer's and the floor's).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from feltwire.protocol.history import PlayerFigures, SessionFigures
from hub.adapters.hands.reader import count_hands, hand_row, hand_rows, kept_hands, replay
from hub.adapters.hands.stats import Stats, player_stats, session_stats
from hub.adapters.hands.store import HandStore
from hub.app.errors import HandStoreError
from hub.app.hand_history import ExportFile, HandQuery, KeptHand
from hub.rules.errors import RulesError
from hub.rules.exports import SEPARATOR, hand_text
from hub.rules.pokerstars import Perspective

__all__ = ["StoreHistory", "export_text", "figures", "perspective"]

log = logging.getLogger(__name__)


def perspective(name: str, players: Sequence[str], hero: str | None = None) -> Perspective:
    """The perspective ``name`` (``shown``, ``hero``, ``all``) of a hand of ``players``
    (names in hand order); ``hero`` names the hero (a hand they were not dealt in: as
    ``shown``)."""
    if name == "all":
        return Perspective.everything()
    if name == "hero" and hero is not None:
        with contextlib.suppress(ValueError):
            return Perspective.hero(list(players).index(hero))
    return Perspective.shown()


def export_text(
    store: HandStore,
    row: dict[str, Any],
    fmt: str,
    view: str,
    *,
    hero: str | None = None,
    number: int = 1,
) -> tuple[str, str]:
    """The stored hand ``row`` (a ``hands`` row) as format ``fmt`` through the
    perspective ``view``, as the ``number``-th hand of its file: its table and the text.
    :class:`~hub.app.errors.HandStoreError` or :class:`~hub.rules.errors.RulesError`
    when the stored rows do not replay."""
    stored = replay(store, row)
    seen = perspective(view, stored.context.players, hero)
    return stored.context.table, hand_text(fmt, stored.hand, stored.context, seen, number=number)


def figures(stats: Stats) -> dict[str, Any]:
    """``stats``' counts and figures as the API's fields (the person flattened)."""
    out = stats.as_json()
    person = out.pop("player")
    return out | {"name": person["name"], "club_id": person["club_id"]}


class StoreHistory:
    """The history page's port (:class:`~hub.app.hand_history.HandHistory`) on a
    :class:`~hub.adapters.hands.store.HandStore`; a database error is a
    :class:`~hub.app.errors.HandStoreError`."""

    def __init__(self, store: HandStore) -> None:
        self.store = store

    def find(self, query: HandQuery, limit: int, offset: int) -> tuple[int, list[KeptHand]]:
        try:
            total = count_hands(self.store, query)
            rows = hand_rows(self.store, query, limit=limit, offset=offset)
            return total, kept_hands(self.store, rows)
        except SQLAlchemyError as exc:
            raise HandStoreError(f"hands store: the hands cannot be read ({exc})") from exc

    def get(self, hand_id: int) -> KeptHand | None:
        try:
            row = hand_row(self.store, hand_id)
            return None if row is None else kept_hands(self.store, [row], whole=True)[0]
        except SQLAlchemyError as exc:
            raise HandStoreError(f"hands store: hand {hand_id} cannot be read ({exc})") from exc

    def export(self, fmt: str, query: HandQuery, perspective: str) -> ExportFile:
        """The hands as one file; a hand whose rows do not replay is left out and named
        in ``failed`` (the others are written), a database error fails the whole file."""
        texts: list[str] = []
        failed: list[str] = []
        try:
            for row in hand_rows(self.store, query):
                number = len(texts) + 1
                try:
                    _, text = export_text(self.store, row, fmt, perspective, number=number)
                except (HandStoreError, RulesError) as exc:
                    log.warning("history export: %s", exc)
                    failed.append(f"{row['table_id']} #{row['number']}: {exc}")
                    continue
                texts.append(text)
        except SQLAlchemyError as exc:
            raise HandStoreError(f"hands store: the hands cannot be read ({exc})") from exc
        return ExportFile(SEPARATOR[fmt].join(texts), len(texts), tuple(failed))

    def player_figures(self, query: HandQuery) -> list[PlayerFigures]:
        try:
            found = player_stats(self.store, query)
        except SQLAlchemyError as exc:
            raise HandStoreError(f"hands store: the statistics cannot be read ({exc})") from exc
        return [PlayerFigures.model_validate(figures(s)) for s in found]

    def session_figures(self, query: HandQuery) -> list[SessionFigures]:
        try:
            found = session_stats(self.store, query)
        except SQLAlchemyError as exc:
            raise HandStoreError(f"hands store: the statistics cannot be read ({exc})") from exc
        return [SessionFigures.model_validate(figures(s)) for s in found]
