"""Simulated antennas: virtual readers on which tags can be placed and lifted.

>>> board = SimulatedReader("board")
>>> board.place("045EED33C0DE80")
>>> sorted(board.inventory())
['045EED33C0DE80']
>>> board.lift("045EED33C0DE80"); board.inventory()
frozenset()
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from table_node.errors import NodeError


class SimulatedReader:
    """A virtual antenna holding a set of tags; thread-safe."""

    def __init__(self, reader_id: str) -> None:
        self._id = reader_id
        self._tags: set[str] = set()
        self._lock = threading.Lock()
        self.sweeps = 0

    @property
    def reader_id(self) -> str:
        """The protocol's name of this antenna."""
        return self._id

    def place(self, uid: str) -> None:
        """Put a tag on the antenna."""
        with self._lock:
            self._tags.add(uid.upper())

    def lift(self, uid: str) -> None:
        """Take a tag off the antenna; NodeError if it is not there."""
        with self._lock:
            try:
                self._tags.remove(uid.upper())
            except KeyError:
                raise NodeError(f"tag {uid} is not on {self._id}") from None

    def clear(self) -> frozenset[str]:
        """Take every tag off; returns what was there."""
        with self._lock:
            gone = frozenset(self._tags)
            self._tags.clear()
            return gone

    def inventory(self) -> frozenset[str]:
        """The tags on the antenna now."""
        with self._lock:
            self.sweeps += 1
            return frozenset(self._tags)

    def close(self) -> None:
        """Nothing to release for a virtual antenna."""


class SimulatedTable:
    """A set of virtual antennas, one per reader id, for a simulated table."""

    def __init__(self, reader_ids: Iterable[str]) -> None:
        self.readers: dict[str, SimulatedReader] = {r: SimulatedReader(r) for r in reader_ids}

    def reader(self, reader_id: str) -> SimulatedReader:
        """The antenna with that id; NodeError if the table has none."""
        try:
            return self.readers[reader_id]
        except KeyError:
            raise NodeError(f"this simulated table has no {reader_id!r} antenna") from None

    def move(self, uid: str, src: str | None, dst: str | None) -> None:
        """Move a tag from one antenna to another (None = off the table)."""
        if src is not None:
            self.reader(src).lift(uid)
        if dst is not None:
            self.reader(dst).place(uid)
