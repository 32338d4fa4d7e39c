"""A one-line progress bar on a terminal, for the commands that go through a table's
event log (``feltwire history import-log``, ``feltwire event-log copy``)."""

from __future__ import annotations

import time
from typing import TextIO

__all__ = ["Progress"]


class Progress:
    """``table: [#####.....] done/total UNIT[, N hands]`` on ``out`` when it is a
    terminal (nothing elsewhere), redrawn at most 10 times a second."""

    def __init__(self, out: TextIO, table: str, total: int, *, unit: str = "inputs") -> None:
        self.out, self.table, self.total = out, table, max(total, 1)
        self.unit = unit
        self.on = out.isatty()
        self.hands: int | None = None
        """Hands written so far, shown after the count (None: not shown)."""
        self._shown = 0.0
        self._drawn = False

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if self.on and (now - self._shown >= 0.1 or done >= self.total):
            self._shown, self._drawn = now, True
            width = 30
            filled = width * min(done, self.total) // self.total
            bar = "#" * filled + "." * (width - filled)
            hands = "" if self.hands is None else f", {self.hands} hands"
            print(
                f"\r{self.table}: [{bar}] {done}/{self.total} {self.unit}{hands}",
                end="",
                file=self.out,
                flush=True,
            )

    def end(self) -> None:
        """End the line (when one was drawn)."""
        if self._drawn:
            print(file=self.out, flush=True)
