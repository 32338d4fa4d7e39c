"""Turns antenna sweeps into inventory messages with a per-node sequence number.

The publisher only sends when an antenna's inventory changed. It writes through a
:class:`Transport` so tests can hand it an in-memory one and the node a paho client.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from feltwire.files import private_dir, private_file
from feltwire.outbox import Outbox
from feltwire.protocol import ReaderInventory, encode, reader_tags_topic


class Transport(Protocol):
    """Where messages go: an MQTT client, or a list in a test."""

    def publish(self, topic: str, payload: bytes, *, qos: int, retain: bool) -> None: ...


class SeqCounter:
    """The node's message sequence number, kept on disk when a state file is given.

    Without a file the count starts at the current time in milliseconds, so a restarted
    node still counts above what the hub saw before (unless it averaged more than 1,000
    messages a second). The file and its directory are the owner's only (0600, 0700).
    """

    def __init__(self, path: Path | None = None, clock: Callable[[], float] = time.time) -> None:
        self._path = path
        start = int(clock() * 1000)
        if path is not None:
            private_dir(path.parent)
        if path is not None and path.exists():
            private_file(path)
            try:
                start = int(path.read_text().strip()) + 1
            except ValueError:
                start = int(clock() * 1000)
        self._next = start

    def take(self) -> int:
        """The next sequence number (persisted before it is used)."""
        seq = self._next
        self._next += 1
        if self._path is not None:
            tmp = self._path.with_suffix(".tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as f:
                os.fchmod(fd, 0o600)  # a .tmp left looser by an older version
                f.write(str(seq))
            tmp.replace(self._path)
        return seq


def durable_state(state_dir: Path | None) -> tuple[SeqCounter, Outbox]:
    """The sequence counter and outbox of a node or bridge, kept in ``state_dir``
    (``seq`` and ``outbox.sqlite``) so both survive a restart; in memory when None.
    The directory is made 0700 and both files 0600 (tightened when looser)."""
    if state_dir is None:
        return SeqCounter(), Outbox(None)
    private_dir(state_dir)
    return SeqCounter(state_dir / "seq"), Outbox(state_dir / "outbox.sqlite")


class InventoryPublisher:
    """Publishes an antenna's inventory whenever it changes — and, with ``refresh_s``,
    again when it has not been sent for that long: a quiet antenna still reports, so the
    hub tells a reader that stopped sweeping (``reader_silent``) from one where nothing
    moves. Each message says ``refresh_s`` (the hub's measure of silence) and, when given,
    the node's MQTT ``keepalive_s`` (how soon the broker says it gone)."""

    def __init__(
        self,
        *,
        table: str,
        node: str,
        transport: Transport,
        seq: SeqCounter | None = None,
        clock: Callable[[], float] = time.time,
        refresh_s: float | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        keepalive_s: int | None = None,
    ) -> None:
        """``clock`` stamps the messages (wall time); ``monotonic`` times the refresh."""
        if refresh_s is not None and refresh_s <= 0:
            raise ValueError("refresh_s must be > 0 (None: only changes are sent)")
        self.table = table
        self.node = node
        self._transport = transport
        self._seq = seq if seq is not None else SeqCounter(clock=clock)
        self._clock = clock
        self._monotonic = monotonic
        self.refresh_s = refresh_s
        self.keepalive_s = keepalive_s
        self._last: dict[str, frozenset[str]] = {}
        self._sent_at: dict[str, float] = {}
        self.published = 0
        self.refreshed = 0
        """Inventories sent again unchanged (``refresh_s``)."""

    def update(self, reader: str, uids: frozenset[str]) -> bool:
        """Record a sweep of ``reader``; publish if it differs from the last one sent, or
        if that one is ``refresh_s`` old."""
        now = self._monotonic()
        unchanged = self._last.get(reader) == uids
        if unchanged and (
            self.refresh_s is None or now - self._sent_at.get(reader, now) < self.refresh_s
        ):
            return False
        msg = ReaderInventory(
            v=1,
            node=self.node,
            seq=self._seq.take(),
            ts=self._clock(),
            reader=reader,
            uids=sorted(uids),
            refresh_s=self.refresh_s,
            keepalive_s=self.keepalive_s,
        )
        self._transport.publish(
            reader_tags_topic(self.table, self.node, reader), encode(msg), qos=1, retain=True
        )
        self._last[reader] = uids
        self._sent_at[reader] = now
        self.published += 1
        self.refreshed += unchanged
        return True

    def refresh(self, reader: str) -> bool:
        """Send ``reader``'s last inventory again if it is ``refresh_s`` old (for a source
        that reports changes only, such as a reader board); False when nothing was sent
        for it yet, or no refresh is due."""
        last = self._last.get(reader)
        return last is not None and self.refresh_s is not None and self.update(reader, last)
