"""The node loop: sweep every reader, publish what changed."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence

from feltwire.publisher import InventoryPublisher
from table_node.reader import Reader

log = logging.getLogger(__name__)


class Node:
    """Sweeps its readers and publishes changed inventories.

    ``poll_once()`` does one sweep of every reader (call it directly to drive the node
    step by step); ``run()`` sweeps at a steady interval until ``stop`` is set.
    """

    def __init__(self, readers: Sequence[Reader], publisher: InventoryPublisher) -> None:
        self.readers = list(readers)
        self.publisher = publisher
        self.sweeps = 0
        self.read_errors = 0

    def poll_once(self) -> int:
        """One sweep of every reader; returns how many inventories were published."""
        sent = 0
        for reader in self.readers:
            try:
                uids = reader.inventory()
            except OSError as exc:  # a reader that fails must not stop the others
                self.read_errors += 1
                log.warning("reader %s failed: %s", reader.reader_id, exc)
                continue
            if self.publisher.update(reader.reader_id, uids):
                sent += 1
        self.sweeps += 1
        return sent

    def run(
        self, stop: threading.Event, interval: float, alive: Callable[[], None] | None = None
    ) -> None:
        """Sweep every ``interval`` seconds until ``stop`` is set; ``alive`` is called
        after every sweep (``feltwire node`` feeds systemd's watchdog there, so a sweep
        that hangs stops the feeding)."""
        while not stop.is_set():
            self.poll_once()
            if alive is not None:
                alive()
            stop.wait(interval)

    def close(self) -> None:
        """Release every reader."""
        for reader in self.readers:
            reader.close()
