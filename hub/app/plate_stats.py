"""The players' statistics on the overlay's plates, when the producer turns them on
(the ``plate_stats`` switch): :class:`PlateStats`, one per table.

**What counts.** Each player's hands at this table that ended in the :data:`NIGHT_S`
seconds (12 hours: tonight) up to the delayed picture's time — the time of the latest
frame the overlay's delay has released (``as_of``, the hub's time, the hands'
``ended_t``). A hand ends on the overlay when its ``hand_end`` frame comes out of the
delay, and that frame's time is the hand's ``ended_t``: so a hand counts exactly when
the delayed picture has finished it, never while the picture still shows it running
(whatever the live table has played since). The figures are the history's
(:meth:`HandHistory.player_figures <hub.app.hand_history.HandHistory.player_figures>`,
``hub/adapters/hands/stats.py``), matched to the plates by the player's name.

**When.** Not per frame: the figures are counted again (in a thread, by the hands
store) when the delayed picture reaches a hand's end or a hand's start — the start
catches a hand the store had not written yet when its end came out (with no delay the
end is shown as it happens) — when the producer turns the switch on, and when an overlay
connects and none were counted yet. Each count goes to every open overlay as a
``plate_stats`` frame (:class:`~feltwire.protocol.overlay.PlateStatsFrame`), at once:
it holds nothing the delayed picture has not shown; the snapshot carries the latest.

>>> from hub.app.feeds import Broadcaster
>>> feed = Broadcaster()
>>> plates = PlateStats("t1", None, feed)
>>> feed.publish({"type": "hand_end", "t": 5.0})
>>> plates.as_of, plates.current()
(5.0, None)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

from feltwire.protocol.overlay import PlateFigures, PlateStatsFrame
from hub.app.errors import HandStoreError
from hub.app.hand_history import HandHistory, HandQuery

__all__ = ["NIGHT_S", "PlateStats"]

log = logging.getLogger(__name__)

NIGHT_S = 12 * 3600.0
"""How far back from the delayed picture the hands a plate counts ended: tonight."""
TRIGGERS = frozenset({"hand", "hand_end"})
"""The released frames after which the figures are counted again."""

Event = dict[str, Any]


class OverlayFeed(Protocol):
    """The overlay's feed as the plates use it: watched, published to."""

    def publish(self, frame: Event) -> None: ...

    def watch(self, watcher: Callable[[Event], None]) -> None: ...

    @property
    def last_t(self) -> float | None:
        """The time of the latest frame released (the delayed picture's)."""
        ...


class PlateStats:
    """The plates' statistics of one ``table`` (see the module): counted through
    ``history`` (None: the hub keeps no hands — no figures), sent on ``feed``."""

    def __init__(
        self,
        table: str,
        history: HandHistory | None,
        feed: OverlayFeed,
        *,
        night_s: float = NIGHT_S,
    ) -> None:
        self.table = table
        self.history = history
        self.feed = feed
        self.night_s = night_s
        self.enabled = False
        """The producer's switch (off until turned on)."""
        self.frame: Event | None = None
        """The latest figures counted (a ``plate_stats`` frame), None before the first."""
        self._wanted: float | None = None
        self._task: asyncio.Task[None] | None = None
        feed.watch(self.seen)

    @property
    def as_of(self) -> float | None:
        """The delayed picture's time: the latest released frame's (None: none released
        since the hub started — during its replay included)."""
        return self.feed.last_t

    def seen(self, event: Event) -> None:
        """A frame the overlay's feed sends (after the feed took its time): a hand's
        start or end released has the figures counted again."""
        if event.get("type") in TRIGGERS:
            self.refresh()

    def switch(self, on: bool) -> None:
        """The producer turned the plates' statistics on or off."""
        self.enabled = on
        if on:
            self.refresh()
        else:
            self.frame = None

    def current(self) -> Event | None:
        """The figures for a snapshot (None: switched off, or none counted yet); an
        overlay connecting before the first count has one started."""
        if self.enabled and self.frame is None:
            self.refresh()
        return self.frame if self.enabled else None

    def refresh(self) -> None:
        """Count the figures again as of the picture's time (in a task; one at a time,
        the latest time wins)."""
        as_of = self.as_of
        if not self.enabled or self.history is None or as_of is None:
            return
        if self.frame is not None and self.frame["as_of"] >= as_of:
            return
        self._wanted = as_of
        if self._task is not None and not self._task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a replay before the hub runs): the next frame
            return
        self._task = loop.create_task(self._count(), name=f"plate-stats-{self.table}")

    async def _count(self) -> None:
        history = self.history
        assert history is not None
        while self._wanted is not None and self.enabled:
            as_of, self._wanted = self._wanted, None
            query = HandQuery(table=self.table, ended_after=as_of - self.night_s, ended_by=as_of)
            try:
                found = await asyncio.to_thread(history.player_figures, query)
            except HandStoreError as exc:
                log.warning("table %s: the plates' statistics: %s", self.table, exc)
                continue
            if not self.enabled:
                return
            frame = PlateStatsFrame(
                table=self.table,
                as_of=as_of,
                night_s=self.night_s,
                players=[
                    PlateFigures(
                        name=p.name,
                        hands=p.hands,
                        vpip=p.vpip,
                        pfr=p.pfr,
                        three_bet=p.three_bet,
                        aggression=p.aggression,
                        wtsd=p.wtsd,
                        wsd=p.wsd,
                        net=p.net,
                    )
                    for p in found
                    if p.hands > 0
                ],
            ).model_dump()
            self.frame = frame
            self.feed.publish(frame)

    async def settled(self) -> None:
        """Wait for the count under way, if any (tests, shutdown)."""
        task = self._task
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)
