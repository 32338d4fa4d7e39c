"""How a hub builds one table's application from its config (:class:`TableBuilder`):
the deck, the hub's time, its figures, the hands store, live equity's workers — the
same for a table opened at start and one taken while the hub runs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from feltwire.deck import Deck, load_deck, simulated_deck
from hub.adapters.equity_workers import EquityWorkers
from hub.adapters.eventlog.backend import TableLog
from hub.adapters.eventlog.disk import MIB, LogDisk
from hub.adapters.hands.store import HandStore
from hub.app.table_app import TableApp
from hub.app.table_time import TableTime
from hub.config import HubConfig, ResolvedTable
from hub.web.metrics import HubMetrics

__all__ = ["TableBuilder", "table_app"]


class TableBuilder:
    """What a hub builds each table's application from: the config, the decks (each
    loaded once), the hub's time, figures and hands store."""

    def __init__(
        self,
        config: HubConfig,
        *,
        deck: Deck | None,
        now: TableTime,
        monotonic: Callable[[], float],
        figures: HubMetrics,
        hands: HandStore | None,
        log_paths: dict[str, Path],
    ) -> None:
        self.config = config
        self.deck = deck
        self.now = now
        self.monotonic = monotonic
        self.figures = figures
        self.hands = hands
        self.log_paths = log_paths
        self.workers: EquityWorkers | None = None
        self._decks: dict[Path | None, Deck] = {}

    def deck_of(self, table: ResolvedTable) -> Deck:
        """``table``'s deck (the one given to the hub, else its file, else the simulator's)."""
        if self.deck is not None:
            return self.deck
        if table.deck not in self._decks:
            self._decks[table.deck] = load_deck(table.deck) if table.deck else simulated_deck()
        return self._decks[table.deck]

    def build(self, table: ResolvedTable, event_log: TableLog | None) -> TableApp:
        """``table``'s application on ``event_log``, not opened nor replayed yet."""
        config = self.config
        service = table_app(config, table, self.deck_of(table), self.now, event_log)
        service.timings = self.figures.timings(table.table)  # the /metrics histograms
        path = self.log_paths.get(table.table)
        if config.event_log_url is None and path is not None:  # /readyz asks the log's disk
            service.log_disk = LogDisk(
                path,
                min_free_bytes=int(config.health.log_min_free_mb * MIB),
                every_s=config.health.log_check_s,
                clock=self.monotonic,
            )
        service.snapshots.enabled = config.event_log_snapshots
        if self.hands is not None:
            service.hand_book.attach(self.hands)
        if self.workers is not None:
            service.equity.runner = self.workers
        return service


def table_app(
    config: HubConfig,
    table: ResolvedTable,
    deck: Deck,
    now: TableTime,
    event_log: TableLog | None,
) -> TableApp:
    """One table's application with its rules (not replayed yet), on the hub's time
    ``now``, its event log ``event_log``."""
    return TableApp(
        table=table.table,
        readers=list(table.readers),
        deck=deck,
        max_payload_bytes=config.max_payload_bytes,
        overlay_delay_s=config.web.overlay_delay_minutes * 60,
        clock=now,
        wall=now.wall,
        game=table.game,
        live_equity=table.live_equity,
        log=event_log,
        doubled_after_s=table.rules.debounce_seconds if table.rules is not None else 0.5,
        node_rate=config.node_rate_limit,
        node_burst=config.node_burst,
        reader_silent_s=config.health.reader_silent_s,
        reorder_grace_s=config.health.reorder_grace_s,
        rules=table.rules,
        tournament=config.tournament,
    )
