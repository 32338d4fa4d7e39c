"""What the web routes may ask of a table: three small interfaces.

The routes never reach into a table's application: they read a table through
:class:`TableReader` (the public pages, the overlay, ``/api/stats``), enter the staff's
inputs through :class:`TableDesk` (the console, the clock, the admin's node reset) and
the table's rules through :class:`TableRules`. Anything with these methods serves — a
test's fake as well as the hub's :class:`~hub.app.table_app.TableApp`, which provides
them itself.

>>> from feltwire.deck import simulated_deck
>>> from hub.app.table_app import TableApp
>>> desk: TableDesk = TableApp(table="t1", readers=["seat1", "board"],
...                            deck=simulated_deck(), max_payload_bytes=4096,
...                            overlay_delay_s=0)
>>> desk.table, list(desk.readers), desk.rules is None, desk.node_stats(), len(desk.public)
('t1', ['seat1', 'board'], True, {}, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from hub.app.feeds import Subscription
from hub.app.records import ConsoleInput, TableCommand
from hub.rules.procedure import Step
from hub.views.frames import Event


class Feed(Protocol):
    """A live feed of frames (the public one, the overlay's): a page's WebSocket
    subscribes while it is open; ``len`` is the number of subscribers."""

    def subscribe(self, label: str = "") -> AbstractContextManager[Subscription]:
        """Receive the feed's frames while the ``with`` block runs (``label``: the page's
        feed the subscriber serves — ``public``, ``console``, ``overlay``)."""
        ...

    def publish(self, frame: Event) -> None:
        """Send ``frame`` to every subscriber now (the producer's switches)."""
        ...

    def watch(self, watcher: Callable[[Event], None]) -> None:
        """Hand every frame published from now on to ``watcher`` too (the plates'
        statistics watch the overlay's released frames)."""
        ...

    @property
    def last_t(self) -> float | None:
        """The time of the latest frame published that carries one (the overlay's: the
        delayed picture's time; None: none since the hub started)."""
        ...

    def subscribers(self) -> Mapping[str, int]:
        """How many subscribers there are now, by label (for ``/metrics``)."""
        ...

    def live(self) -> bool:
        """Whether the feed may send now (False: the hub may no longer speak for the
        table — a page's socket is closed rather than sent a stale frame)."""
        ...

    def __len__(self) -> int: ...


class TableRules(Protocol):
    """What the console's and the clock's routes ask of a table's rules
    (:class:`hub.app.table_console.TableConsole` provides it)."""

    @property
    def hand_number(self) -> int:
        """The number of the current (or last) hand; 0 before the first."""
        ...

    @property
    def in_hand(self) -> bool:
        """Whether a hand is running."""
        ...

    def console_state(self) -> Event:
        """The console's view of the table: the hand, the legal actions, seats, alerts
        (never a hole card before showdown)."""
        ...

    def console(self, inp: ConsoleInput) -> Step | None:
        """Enter a console input (logged, then applied); None when no hand runs."""
        ...

    async def enter(self, inp: ConsoleInput) -> Step | None:
        """:meth:`console` with the log's write off the event loop (what the routes call)."""
        ...

    def table_command(self, cmd: TableCommand) -> None:
        """Enter a seat command or an alert acknowledgement (RulesError, LookupError)."""
        ...

    def clock_command(self, action: str) -> Event:
        """Pause or resume the tournament clock; its state after (RulesError,
        LookupError when the table runs no clock)."""
        ...

    def acknowledge(self, key: str) -> None:
        """Acknowledge the alert the console lists under ``key`` (LookupError: none)."""
        ...


class TableReader(Protocol):
    """What the pages, feeds and ``/api/stats`` read of one table (no hole card but on
    the overlay feed, which is delayed and needs the producer role)."""

    @property
    def table(self) -> str:
        """The table's id (``?table=``)."""
        ...

    @property
    def game(self) -> str:
        """The code of the game the table plays."""
        ...

    @property
    def readers(self) -> Sequence[str]:
        """The table's antennas (reader ids)."""
        ...

    @property
    def public(self) -> Feed:
        """The public feed (no hole card)."""
        ...

    @property
    def overlay(self) -> Feed:
        """The overlay's feed: every card, held back by the configured delay."""
        ...

    @property
    def changes(self) -> int:
        """How many changes the table has published."""
        ...

    @property
    def counters(self) -> Mapping[str, int]:
        """Ingest counters: messages received, accepted, refused by reason, lost …"""
        ...

    def node_stats(self) -> Mapping[str, Mapping[str, Any]]:
        """Per node heard from: its stream (``last_seq``, reads lost and refused …)."""
        ...

    def health(self) -> Mapping[str, Any]:
        """What ``/readyz`` reports: ``broker`` (connected), ``event_log`` (writable;
        None: none kept), ``log_problem`` (why not, or None), ``nodes`` (each known node:
        ``online``/``offline``), ``silent_readers``. Never a card."""
        ...

    def public_snapshot(self) -> Event:
        """The public picture of the table (no hole cards)."""
        ...

    def overlay_snapshot(self) -> Event:
        """The overlay's picture of the table, as of the delay."""
        ...

    def speaks(self) -> bool:
        """Whether this hub may speak for the table now (a room of several hubs: its
        lease confirmed; :mod:`hub.app.tenure`)."""
        ...


class TableDesk(TableReader, Protocol):
    """A table as the staff's routes see it: what :class:`TableReader` reads, the rules,
    and the few inputs that are not the rules'."""

    @property
    def rules(self) -> TableRules | None:
        """The table's rules (None: this hub enforces none)."""
        ...

    def count_refusal(self, counter: str) -> None:
        """Count an input the web side refused (``console_refused``,
        ``refused.clock_pause`` …) with the table's ingest counters."""
        ...

    def reset_node(self, node: str) -> None:
        """Reset ``node``'s message sequence (logged; ValueError for a bad node id)."""
        ...


__all__ = [
    "Feed",
    "TableDesk",
    "TableReader",
    "TableRules",
]


@dataclass(frozen=True)
class TablePlace:
    """Where a table of a card room is served: by which hub (``hub``), at which web
    address (``url``) — both None while no hub serves it (it is moving to another) —,
    and whether that is this hub (``here``)."""

    table: str
    game: str
    hub: str | None
    url: str | None
    here: bool


class RoomDirectory(Protocol):
    """Which hub of a card room serves which table (a hub in a room of several,
    ``[cluster]``; :class:`hub.bootstrap.keeper.LeaseKeeper` provides it): the web
    sends a browser that asks this hub for another hub's table there."""

    @property
    def hub(self) -> str:
        """This hub's name in the room."""
        ...

    def place(self, table: str) -> TablePlace | None:
        """Where ``table`` is served now (None: no table of the room)."""
        ...

    def places(self) -> list[TablePlace]:
        """Every table of the room, in the config's order."""
        ...

    def hubs(self) -> list[str]:
        """The web addresses of the room's hubs alive now, this hub's first (a page
        remembers them, to ask another hub where its table went when its own hub dies)."""
        ...

    def health(self) -> Mapping[str, Any]:
        """What ``/readyz`` reports of the room: ``ok`` (this hub's leases renewed on
        time), ``hub`` (its name), ``problem`` (why not, or None)."""
        ...
