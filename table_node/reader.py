"""The reader interface every antenna backend implements."""

from __future__ import annotations

from typing import Protocol


class Reader(Protocol):
    """One antenna: reports the uids of the tags lying on it right now.

    ``reader_id`` is the protocol's name for the antenna (``seat3``, ``board``, ``burn`` …).
    ``inventory()`` performs one sweep and returns upper-case hex uids.
    """

    @property
    def reader_id(self) -> str: ...

    def inventory(self) -> frozenset[str]: ...

    def close(self) -> None: ...
