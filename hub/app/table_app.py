"""One table's application: every input recorded, applied and published in one place.

A :class:`TableApp` owns the table's parts, which do not point at each other:

* :class:`~hub.app.intake.ReadIntake` — MQTT payloads screened, presence, the tag watches;
* :class:`~hub.app.publisher.TablePublisher` — the public and overlay feeds, the overlay's
  delay, the seat lights, the alerts topic and the outbox to the broker;
* :class:`~hub.app.equity_watch.EquityWatch` — live equity on the overlay;
* :class:`~hub.app.rules_desk.RulesDesk` — the rules side (when the hub enforces them);
* :class:`~hub.app.hand_book.HandBook` — finished hands on their way to the hands store.

It is given its ports by its composition (:mod:`hub.bootstrap`, the tests' support): the
event store (:class:`~hub.app.ports.EventStore`, None: nowhere), the clocks and the hands
store (:meth:`HandBook.attach <hub.app.hand_book.HandBook.attach>`).

Every input the app accepts (after the intake's checks: refused messages are not inputs)
goes through :meth:`TableApp.record`: appended to the event store with its receive time,
then applied — the intake takes a read, the app publishes what changed and hands the read
to the rules desk, whose frames and lights go to the publisher. :meth:`TableApp.replay`
rebuilds the state after a restart by applying the logged inputs through the same code,
with their recorded times as the clock and without sending anything to the broker.

The app is what the web reads (:class:`hub.web.tables.TableDesk`); the dealer console's
inputs enter through :attr:`TableApp.rules`, a :class:`~hub.app.table_console.TableConsole`.

>>> from feltwire.deck import simulated_deck
>>> from hub.config import PlayerSettings, RulesSettings, default_readers
>>> players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (1, 2, 3)]
>>> app = TableApp(table="t1", readers=default_readers(), deck=simulated_deck(),
...                max_payload_bytes=4096, overlay_delay_s=0, clock=lambda: 0.0,
...                live_equity=False, rules=RulesSettings(players=players))
>>> app.open()
>>> app.rules.desk.setup.seats, app.rules.in_hand
((2, 3, 1), True)
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from feltwire.deck import Deck
from feltwire.protocol import ButtonPress, EquityFrame, ReaderKind, reader_kind, seat_of
from hub.app.codec import decode_read
from hub.app.equity_watch import EquityWatch
from hub.app.errors import EventLogError, LogUnavailable, TableNotOwned
from hub.app.feeds import Broadcaster
from hub.app.hand_book import HandBook
from hub.app.health import HealthChange, HealthKind
from hub.app.ingest import (
    DEFAULT_NODE_BURST,
    DEFAULT_NODE_RATE,
    DEFAULT_REORDER_GRACE_S,
    InventoryRead,
)
from hub.app.intake import DEFAULT_READER_SILENT_S, HandledCount, Item, ReadIntake
from hub.app.lights import presence_pattern
from hub.app.live_equity import LiveSpot, hand_spot, presence_spot
from hub.app.log_writer import Batch, LogWriter
from hub.app.node_alerts import (
    broker_alert,
    health_alert,
    log_failed_alert,
    loss_accepted_alert,
)
from hub.app.ports import Clock, DiskCheck, EventStore, Inbound
from hub.app.presence import AntennaChange
from hub.app.publisher import TablePublisher
from hub.app.records import InputKind, LogRecord
from hub.app.rules_desk import RulesDesk
from hub.app.snapshot import TableSnapshots
from hub.app.table_console import TableConsole
from hub.app.throttle import ThrottledLog
from hub.app.timings import NO_TIMINGS, Timings
from hub.config import RulesSettings, TournamentSettings
from hub.rules.setup import TableProfile
from hub.views.alerts import doubled_tag_alert, unknown_tag_alert
from hub.views.antennas import overlay_antenna, public_antenna, unknown_antenna
from hub.views.frames import Event, frame
from hub.views.overlay_scene import OverlayScene, overlay_picture

log = logging.getLogger(__name__)

__all__ = ["TableApp"]

RESET_NODE_COMMAND = "reset_node"
"""The ``command`` of the table input that resets a node's sequence (the operator's)."""
NODE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
LOG_ALERT_EVERY_S = 60.0
"""The event-log alert is repeated at most this often while the fault lasts."""


class TableApp:
    """One table's application (see the module's docs)."""

    def __init__(
        self,
        *,
        table: str,
        readers: list[str],
        deck: Deck,
        max_payload_bytes: int,
        overlay_delay_s: float,
        clock: Clock = time.time,
        wall: Clock = time.time,
        game: str = "NT",
        live_equity: bool = True,
        log: EventStore | None = None,
        doubled_after_s: float = 0.5,
        node_rate: float = DEFAULT_NODE_RATE,
        node_burst: int = DEFAULT_NODE_BURST,
        reader_silent_s: float = DEFAULT_READER_SILENT_S,
        reorder_grace_s: float = DEFAULT_REORDER_GRACE_S,
        rules: RulesSettings | None = None,
        tournament: TournamentSettings | None = None,
        profile: TableProfile | None = None,
        timings: Timings = NO_TIMINGS,
    ) -> None:
        """``clock`` is the hub's time (:class:`~hub.app.table_time.TableTime` in a running
        hub: every input is stamped with it, every delay runs on it), ``wall`` the wall
        clock (for records and display only); ``log`` the event store; ``rules`` the
        table's rules (None: the hub shows presence only); ``timings`` where the read→frame
        and event-log write durations go (``/metrics``); ``reorder_grace_s`` how long a
        node's read that skips ahead of its count waits for the ones before it."""
        self.table = table
        self.readers = readers
        self.game = game
        self.clock = clock
        self.wall = wall
        self.log = log
        """Where every accepted input is appended before it is applied (None: nowhere)."""
        self.timings = timings
        self.throttle = ThrottledLog(logging.getLogger(__name__))
        """Log lines of faults that repeat (a full disk, a failing task) go through it."""
        self.intake = ReadIntake(
            table=table,
            readers=readers,
            deck=deck,
            max_payload_bytes=max_payload_bytes,
            clock=clock,
            wall=wall,
            doubled_after_s=doubled_after_s,
            node_rate=node_rate,
            node_burst=node_burst,
            reader_silent_s=reader_silent_s,
            reorder_grace_s=reorder_grace_s,
        )
        self.feeds = TablePublisher(
            table=table,
            readers=readers,
            overlay_delay_s=overlay_delay_s,
            clock=clock,
            counters=self.intake.counters,
            throttle=self.throttle,
        )
        self.desk: RulesDesk | None = None
        """The table's rules (None: the hub shows presence only)."""
        if rules is not None:
            self.desk = RulesDesk(
                rules,
                game_code=game,
                table_id=table,
                readers=readers,
                presence=self.intake.presence,
                out=self.feeds,
                clock=clock,
                live_hole_cards=overlay_delay_s == 0,
                profile=profile,
                tournament=tournament,
            )
        self.equity = EquityWatch(
            game=game,
            enabled=live_equity,
            spot=self.equity_spot,
            publish=self._equity_out,
            clock=clock,
            with_rules=self.desk is not None,
        )
        self._equity_frame: EquityFrame | None = None
        self.feeds.picture_source = self.overlay_picture
        self.subscribed = asyncio.Event()
        """Set while the hub is subscribed to its table's topics at the broker."""
        self.inbox: asyncio.Queue[Inbound] = asyncio.Queue()
        """MQTT messages (:data:`~hub.app.ports.Inbound`), taken in order by its link."""
        self._handled = HandledCount()
        self.replayed = 0
        """Inputs replayed from the log at start."""
        self.writer = LogWriter(
            table, self._append_many, self._apply_one, wall=wall, count=self.count
        )
        """The inputs on their way to the log (written off the loop, applied in order)."""
        self._log_alerted: float | None = None
        self.log_writable = True
        """False while the last write to the event log failed (``/readyz``)."""
        self.log_disk: DiskCheck | None = None
        """Whether the log's disk can take a write, asked without one (``/readyz``)."""
        self._broker_lost = False
        self.snapshots = TableSnapshots(self)
        """The table's snapshots (:mod:`hub.app.snapshot`): a restart replays less."""
        self.hand_book = HandBook(self)
        """The finished hands on their way to the hands store (:mod:`hub.app.hand_book`)."""

    # ------------------------------------------------------------------ what the web reads

    @property
    def public(self) -> Broadcaster:
        """The public feed (no hole card ever)."""
        return self.feeds.public

    @property
    def overlay(self) -> Broadcaster:
        """The overlay's feed: every card, held back by the configured delay."""
        return self.feeds.overlay

    @property
    def outgoing(self) -> asyncio.Queue[tuple[str, bytes, bool]]:
        """Messages for the broker (the publisher's outbox)."""
        return self.feeds.outgoing

    @property
    def changes(self) -> int:
        """How many antenna changes the table has taken."""
        return self.intake.changes

    @property
    def counters(self) -> dict[str, int]:
        """Ingest counters (received, accepted, rejected by reason …), a copy."""
        return dict(self.intake.counters)

    def node_stats(self) -> Mapping[str, Mapping[str, Any]]:
        """Per node heard from: its stream (``last_seq``, reads lost and refused …)."""
        return self.intake.node_stats()

    @property
    def hands(self) -> Mapping[str, int]:
        """Hands played since the event log began (a restart replays them), by outcome:
        ``finished``, ``voided`` (a misdeal); none at a table without rules."""
        if self.desk is None:
            return {"finished": 0, "voided": 0}
        return {"finished": self.desk.hands_finished, "voided": self.desk.hands_voided}

    def count(self, counter: str, n: int = 1) -> None:
        """Add ``n`` to one of the table's counters."""
        self.intake.counters[counter] += n

    def count_refusal(self, counter: str) -> None:
        """Count an input the web side refused (``console_refused`` …)."""
        self.count(counter)

    @property
    def rules(self) -> TableConsole | None:
        """The dealer console's entrance to the table's rules (None: it runs none)."""
        if self.desk is None:
            return None
        return TableConsole(
            self.desk,
            self.record,
            self.clock,
            self.feeds.hub_alerts,
            unknown=self.intake.health.unknown_readers,
            record_async=self.record_async,
        )

    def speaks(self) -> bool:
        return self.feeds.speaks()  # may this hub speak for the table now (hub.app.tenure)

    def light_messages(self) -> list[tuple[str, bytes, bool]]:
        """Every seat's current light command (re-sent after a reconnect)."""
        return self.feeds.light_messages()

    def public_snapshot(self) -> Event:
        """The public picture of the table (no hole cards)."""
        snap = self.intake.presence.as_they_came()  # a board in the order it was dealt
        unknown = self.intake.health.unknown_readers()
        out: Event = {
            "type": "snapshot",
            "table": self.table,
            "antennas": [
                unknown_antenna(public_antenna(r, ()))
                if r in unknown
                else public_antenna(r, snap.get(r, ()))
                for r in self.readers
            ],
        }
        if self.desk is not None:
            out["rules"] = self.desk.public_state(self.feeds.hub_alerts)
        return out

    def overlay_snapshot(self) -> Event:
        """The overlay's picture of the table, as of the delay."""
        return self.feeds.overlay_snapshot()

    # ------------------------------------------------------------------ record → apply

    @property
    def has_history(self) -> bool:
        """True when the log holds inputs of an earlier run (see :meth:`replay`)."""
        return self.log is not None and self.log.last_seq > 0 and not self.feeds.replaying

    def record(self, kind: InputKind, payload: dict[str, Any], now: float) -> object:
        """Take one accepted input: append it to the log (when there is one), then apply
        it; returns what applying it returned."""
        self.writer.apply_written()  # inputs still on their way to the log come first
        rec = None
        if self.log is not None and not self.feeds.replaying:
            rec = self._append(kind, payload, now)
        done = self._dispatch(kind, payload, now)
        if rec is not None:
            self.hand_book.taken(rec)  # a hand ended: to the hands store
            self.snapshots.taken(rec.seq, now)  # a hand started: the table's state is stored
        return done

    def _append(self, kind: InputKind, payload: dict[str, Any], now: float) -> LogRecord:
        """Append one input to the log; LogUnavailable (counted, logged, the dealer told)
        when it cannot be written."""
        assert self.log is not None
        try:
            started = self.clock()
            record = self.log.append(kind, payload, now, wall=self.wall())
        except (EventLogError, sqlite3.Error, OSError) as exc:
            raise self.log_failed(exc) from exc
        self.timings.log_append(self.clock() - started, 1)
        self.log_writable = True
        return record

    def _append_many(self, batch: Batch) -> list[LogRecord]:
        """Append a batch in one transaction (in the log writer's thread), timed."""
        assert self.log is not None
        started = self.clock()
        records = self.log.append_many(batch)
        self.timings.log_append(self.clock() - started, len(batch))
        return records

    def log_failed(self, exc: BaseException) -> LogUnavailable:
        """An input could not be written to the event log: count it, log it (throttled),
        alert the dealer (at most every :data:`LOG_ALERT_EVERY_S`); the error to raise."""
        reason = str(exc) or type(exc).__name__
        if isinstance(exc, TableNotOwned):  # another hub serves it now: silent, dropped
            self.count("not_owned")
            log.warning("table %s: %s", self.table, reason)
            self.feeds.lose(reason)
            return LogUnavailable(reason)
        self.log_writable = False
        self.count("log_failed")
        self.throttle.error(
            "table %s: the event log cannot be written: %s", self.table, reason, key="event-log"
        )
        now = self.clock()
        if self._log_alerted is None or now - self._log_alerted >= LOG_ALERT_EVERY_S:
            self._log_alerted = now
            self.feeds.hub_alert(log_failed_alert(reason, now), "event log")
        return LogUnavailable(reason)

    def task_failed(self, task: str) -> None:
        """A periodic task's step raised: count it and log it (throttled); the task goes
        on with its next step (call from inside the ``except``)."""
        self.count(f"task_failed.{task}")
        self.throttle.error(
            "table %s: %s failed; it goes on", self.table, task, exc_info=True, key=f"task-{task}"
        )

    def _dispatch(self, kind: InputKind, payload: dict[str, Any], now: float) -> object:
        """Apply one input — live or replayed, the same code — then send the overlay's
        picture of the table, when it changed, into the overlay's delay."""
        done = self._apply_input(kind, payload, now)
        if kind is not InputKind.INVENTORY and self.desk is not None:
            self.equity.mark()  # a fold, a hand's start or end moves no card
        self.feeds.overlay_changed(now)
        if isinstance(done, AntennaChange) and not self.feeds.replaying:
            self.timings.read_to_frame(self.clock() - now)  # its frame is on the feeds
        return done

    def _apply_input(self, kind: InputKind, payload: dict[str, Any], now: float) -> object:
        if kind is InputKind.INVENTORY:
            return self._apply_read(decode_read(payload), now)
        if kind is InputKind.BUTTON:
            button, node = str(payload["button"]), str(payload["node"])
            self.count(f"button.{button}")
            self.feeds.publish({"type": "button", "node": node, "button": button, "t": now})
            return None
        if kind is InputKind.TABLE and payload.get("command") == RESET_NODE_COMMAND:
            self.intake.reset_node(str(payload["node"]))
            log.info("table %s: node %s's sequence reset", self.table, payload["node"])
            return None
        if self.desk is None:
            log.warning("a %s input in the log, but this hub enforces no rules: skipped", kind)
            return None
        return self.desk.apply_input(kind, payload, now)

    def open(self) -> None:
        """Open the table (seat the configured players of its rules) — once, when the
        table's application has been built, before or after :meth:`replay`: a table whose
        log holds an earlier run is opened by its replay instead."""
        if not self.has_history:
            self._open(self.clock())

    def _open(self, now: float) -> None:
        """Open the table's rules (seat the configured players) unless they are open."""
        payload = self.desk.open_input() if self.desk is not None else None
        if payload is not None:
            self.record(InputKind.TABLE, payload, now)

    def replay(self) -> int:
        """Rebuild the state from the log (at start, before anything else runs).

        Each logged input is applied as it was live, its receive time as the clock.
        Alerts and light commands are not sent again; the lights' retained state goes
        out in full when the broker connection comes up. Returns how many were replayed.
        """
        if self.log is None:
            return 0
        self.feeds.replaying = True
        count = 0
        # The overlay's picture of an input whose delay has already passed would be
        # released at once and replaced by the next: only the last such picture counts,
        # so it is projected once, not after each of those inputs (most of a long
        # night's replay time otherwise).
        horizon = self.clock() - self.feeds.overlay_delay_s
        skipped: float | None = None
        try:  # from the newest snapshot that verifies (none: from the first input)
            for rec in self.log.records(after=self.snapshots.restore()):
                if rec.t <= horizon:
                    self._replay_one(rec, picture=False)
                    skipped = rec.t
                else:
                    if skipped is not None:
                        self.feeds.overlay_changed(skipped)
                        skipped = None
                    self._replay_one(rec)
                self.hand_book.taken(rec)
                self.snapshots.taken(rec.seq, rec.t)
                count += 1
            if skipped is not None:
                self.feeds.overlay_changed(skipped)
        finally:
            self.feeds.replaying = False
        self.snapshots.replayed()
        self.replayed = count
        self.count("replayed", count)
        self.intake.ingest.nodes.resume()
        self._open(self.clock())
        self.feeds.release_due()
        log.info("replayed %d inputs from the event log", count)
        last = list(self.log.records(after=max(0, self.log.last_seq - 1)))
        last_wall = last[-1].wall if last and last[-1].wall is not None else float("-inf")
        for loss in self.log.accepted_losses:
            if loss.at < last_wall:
                continue  # accepted before the hub last ran: told then
            log.warning("table %s: %s", self.table, loss)
            self.feeds.hub_alert(loss_accepted_alert(str(loss), self.clock()), "event log")
        return count

    def _replay_one(self, rec: LogRecord, *, picture: bool = True) -> None:
        """Apply one logged input; ``picture``: then project the overlay's picture (as
        live), or leave it to the caller."""
        try:
            if picture:
                self._dispatch(rec.kind, rec.payload, rec.t)
            else:
                self._apply_input(rec.kind, rec.payload, rec.t)
        except EventLogError:
            raise
        except Exception:  # a bad record must not keep the hub from starting
            self.count("replay_failed")
            log.exception("replaying input %d (%s) failed; skipped", rec.seq, rec.kind)

    # ------------------------------------------------------------------ MQTT messages in

    @property
    def handled(self) -> int:
        """Messages handled so far (:class:`~hub.app.intake.HandledCount`)."""
        return self._handled.value

    def wait_handled(self, count: int, timeout: float) -> bool:
        """Block (another thread than the hub's) until ``count`` messages were handled."""
        return self._handled.wait(count, timeout)

    def reset_node(self, node: str) -> None:
        """The operator resets ``node``'s sequence (its count went back — a restored SD
        card — or a forged message set it far ahead): logged, so a restarted hub does the
        same; the node's next message is taken whatever its ``seq``."""
        if not NODE_ID.match(node):
            raise ValueError(f"{node!r} is not a node id (1-32 of A-Z a-z 0-9 _ -)")
        self.record(InputKind.TABLE, {"command": RESET_NODE_COMMAND, "node": node}, self.clock())

    def tell_notices(self) -> None:
        """Alert the dealer of what the intake noticed about nodes (reads lost, a flood, a
        sequence stuck or implausible)."""
        for alert, node in self.intake.node_alerts(self.clock()):
            self.feeds.hub_alert(alert, node)
        changes, self.intake.health_changes = self.intake.health_changes, []
        for change in changes:
            self._health_changed(change)

    # ------------------------------------------------------------------ health

    def _health_changed(self, change: HealthChange) -> None:
        """Say a node offline or back, a reader silent or back (console, public, overlay,
        alerts topic); an offline node's antennas go unknown on the feeds, and show their
        cards again when it is back (the rules see no card leave), and get every light."""
        now = self.clock()
        frame = health_alert(change, now)
        self.feeds.clear_hub_alerts(frame)
        self.feeds.hub_alert(frame, change.node)
        if change.kind is HealthKind.NODE_ONLINE:
            self.feeds.resend_lights()
        if change.readers and change.kind in (HealthKind.NODE_OFFLINE, HealthKind.NODE_ONLINE):
            # the readers went unknown or known again: the overlay's new picture (no
            # antenna frame — nothing changed on the antennas — but the alert names them)
            self.feeds.overlay_changed(now)

    def broker_connected(self, connected: bool, error: str = "") -> None:
        """The hub's broker connection came up or went away (the MQTT adapter says so):
        ``broker_lost`` when an established one is gone, ``broker_back`` when it returns."""
        if connected:
            self.subscribed.set()
            if self._broker_lost:
                self._broker_lost = False
                frame = broker_alert(False, self.clock())
                self.feeds.clear_hub_alerts(frame)
                self.feeds.hub_alert(frame, "broker")
            return
        was_up = self.subscribed.is_set()
        self.subscribed.clear()
        if was_up and not self._broker_lost:
            self._broker_lost = True
            self.feeds.hub_alert(broker_alert(True, self.clock(), error), "broker")

    def check_health(self, now: float) -> None:
        """Say the readers that fell silent by ``now`` (see :func:`hub.app.tasks.run_health`)."""
        self.intake.due_silent(now)
        self.tell_notices()

    def health(self) -> dict[str, Any]:
        """What ``/readyz`` reports of this table: the broker connection, the event log
        (None: it keeps none; False: the last write failed, or :attr:`log_disk` says why
        the next would — ``log_problem``), every known node's availability, the silent
        readers. Never a card."""
        problem = None if self.log is None or self.log_disk is None else self.log_disk.problem()
        if problem is None and not self.log_writable:
            problem = "the last write to the event log failed"
        return {
            "broker": self.subscribed.is_set(),
            "event_log": None if self.log is None else problem is None,
            "log_problem": problem,
            "nodes": self.intake.health.nodes(),
            "silent_readers": sorted(self.intake.health.silent_readers()),
        }

    def handle_button(self, topic: str, payload: bytes) -> ButtonPress | None:
        """A dealer button pressed on a node: counted and shown on the console feed."""
        press = self.intake.ingest.handle_button(topic, payload)
        self.tell_notices()
        if press is None:
            return None
        self.record(InputKind.BUTTON, {"node": press.node, "button": press.button}, self.clock())
        return press

    def handle_message(
        self, topic: str, payload: bytes, *, retained: bool = False
    ) -> AntennaChange | None:
        """Take one MQTT message; returns the antenna change it caused, if any."""
        try:
            return self._handle(topic, payload, retained)
        finally:
            self._handled.add(0 if topic.endswith("/availability") else 1)

    def _handle(self, topic: str, payload: bytes, retained: bool) -> AntennaChange | None:
        if topic.endswith("/button"):
            self.handle_button(topic, payload)
            return None
        if topic.endswith("/availability"):
            self.intake.availability(topic, payload, self.clock())
            self.tell_notices()
            return None
        now = self.clock()
        items = self.intake.due_reads(now) + self.intake.screen(topic, payload, retained, now)
        self.tell_notices()
        return self._record_reads(items)

    def _record_reads(self, items: list[Item]) -> AntennaChange | None:
        """Record and apply accepted reads one by one, each counted ``accepted`` (or
        ``failed``, with the rest, when the log cannot be written: LogUnavailable); the
        last antenna change they caused, if any."""
        change: AntennaChange | None = None
        for i, (kind, data, now) in enumerate(items):
            try:
                done = self.record(kind, data, now)
            except LogUnavailable:
                self.count("failed", len(items) - i)
                raise
            self.count("accepted")
            assert done is None or isinstance(done, AntennaChange)
            change = done if done is not None else change
        return change

    def release_held(self) -> int:
        """Record and apply the reads held for the reads before them whose reorder grace
        is over (what is still missing is lost: counted, told); how many."""
        items = self.intake.due_reads(self.clock())
        self.tell_notices()
        if items:
            self._record_reads(items)
        return len(items)

    async def take_message(self, topic: str, payload: bytes, *, retained: bool = False) -> None:
        """Take one MQTT message as :meth:`take_batch` takes many."""
        await self.take_batch([(topic, payload, retained)])

    async def take_batch(self, messages: list[tuple[str, bytes, bool]]) -> None:
        """Take MQTT messages that arrived together — (topic, payload, retained) — like
        :meth:`handle_message` takes one, with ONE event-log write for all the inputs
        among them (one transaction, one fsync with ``event_log_sync = "full"``), done in
        the table's log writer (:meth:`_log_then_apply`), off the event loop, so a burst
        is taken at the disk's pace per batch, not per message, and the other tables and
        the web go on meanwhile.

        Every input is on disk before it is applied, and inputs are applied in the order
        they are logged: an input recorded meanwhile (a console action, a tick) first
        applies the inputs already on their way to the log (:meth:`record`). One table's
        messages must be taken one batch after another (its link does). When the
        log cannot be written, the batch's reads are counted ``failed`` and LogUnavailable
        is raised (the dealer is told).
        """
        try:
            now = self.clock()
            items = self.intake.due_reads(now)  # their grace is over: before what follows
            for m in messages:
                items += self.intake.screen(*m, now=self.clock())
            self.tell_notices()
            reads = sum(kind is InputKind.INVENTORY for kind, _, _ in items)
            if not items:
                return
            if self.log is None:
                self.writer.apply_written()
                for kind, data, now in items:
                    self._dispatch(kind, data, now)
                self.count("accepted", reads)
                return
            try:
                await self._log_then_apply(items)
            except LogUnavailable:
                self.count("failed", reads)
                raise
            self.count("accepted", reads)
        finally:
            self._handled.add(sum(not m[0].endswith("/availability") for m in messages))

    def tick_due(self) -> float | None:
        """The time of a rules tick now, when it would change the hand (else None; see
        :meth:`~hub.app.table_console.TableConsole.due_tick`)."""
        return None if (console := self.rules) is None else console.due_tick()

    async def tick(self, now: float | None = None) -> None:
        """The rules tick :meth:`tick_due` gave (``now``; None: ask it), logged off the
        loop, then applied (:func:`hub.app.tasks.run_ticks`)."""
        if now is None:
            now = self.tick_due()
        if now is not None:
            await self.record_async(InputKind.TICK, {}, now)

    async def record_async(self, kind: InputKind, payload: dict[str, Any], now: float) -> object:
        """:meth:`record`, with the log's write off the event loop (in the table's log
        writer): the other tables and the web go on while it is fsynced."""
        if self.log is None or self.feeds.replaying:
            return self.record(kind, payload, now)
        (done,) = await self._log_then_apply([(kind, payload, now)])
        return done

    async def _log_then_apply(self, items: list[Item]) -> list[object]:
        """Write ``items`` to the log in one transaction off the loop, then apply them
        after the inputs logged before them (:class:`~hub.app.log_writer.LogWriter`);
        what applying each returned. LogUnavailable (counted, logged, told) when the log
        cannot be written: nothing of them applied."""
        try:
            done = await self.writer.write_then_apply(items)
        except (EventLogError, sqlite3.Error, OSError) as exc:
            raise self.log_failed(exc) from exc
        self.log_writable = True
        return done

    def _apply_one(self, rec: LogRecord, item: Item) -> object:
        """Apply one input the writer logged (as :meth:`record` applies one)."""
        kind, data, now = item
        done = self._dispatch(kind, data, now)
        self.hand_book.taken(rec)
        self.snapshots.taken(rec.seq, now)
        return done

    def close(self) -> None:
        """Finish the log writes under way, the snapshot and the hands being written (at
        stop, before the log is closed)."""
        self.writer.close()
        self.snapshots.close()
        self.hand_book.close()

    # ------------------------------------------------------------------ a read applied

    def _apply_read(self, read: InventoryRead, now: float) -> AntennaChange | None:
        """Apply one accepted inventory: presence, lights, feeds, the rules."""
        desk = self.desk
        taken = self.intake.take(read, now)
        if taken.fresh_unknown and (desk is None or not desk.in_hand):
            # in a hand the dealing monitor raises it (AlertCode.UNKNOWN_TAG)
            self._security_alert(
                unknown_tag_alert(read.reader, taken.fresh_unknown, now), read.reader
            )
        change = taken.change
        if change is None:
            if desk is not None:  # tags that are not in the deck still count
                desk.on_read(read.reader, read.cards, read.unknown_uids, False, now)
            return None
        if desk is None and reader_kind(change.reader) is ReaderKind.SEAT:
            # with rules, the rules desk sets the seat lights
            seat = seat_of(change.reader)
            assert seat is not None
            self.feeds.set_light(seat, presence_pattern(len(change.cards)))
        n = self.intake.changes
        public = public_antenna(change.reader, self.intake.presence.came_on(change.reader))
        self.feeds.publish({"type": "antenna", "n": n, "t": now} | public)  # cards as dealt
        overlay_event: Event = (
            {"type": "antenna", "n": n, "t": now}
            | overlay_antenna(change.reader, change.cards)
            | {"arrived": list(change.arrived), "left": list(change.left)}
        )
        self.feeds.to_overlay(overlay_event, now)
        if reader_kind(change.reader) is not ReaderKind.REGISTER:
            self.equity.mark()
        if desk is not None:
            desk.on_read(read.reader, read.cards, read.unknown_uids, True, now)
        self.check_doubled(now)
        return change

    def _security_alert(self, frame: Event, where: str) -> None:
        """Send a security alert: public feed, overlay, the alerts topic, counters."""
        if self.feeds.replaying:
            return  # raised when it happened; the log only rebuilds the table
        self.count(f"security.{frame['code']}")
        self.feeds.hub_alert(frame, where)

    def check_doubled(self, now: float) -> int:
        """Raise the ``uid_on_two_antennas`` alert for every card that has lain on two
        antennas at once for the intake's ``doubled_after_s``; returns how many."""
        due = self.intake.due_doubled(now)
        for card, readers in due:
            frame = doubled_tag_alert(card, readers, now)
            if self.desk is not None and self.desk.in_hand:
                frame["hand"] = self.desk.hand_number
            self._security_alert(frame, " and ".join(readers))
        return len(due)

    def overlay_picture(self, now: float) -> dict[str, Any]:
        """The overlay's picture of the live table at ``now`` (JSON-ready): a projection of the
        rules' state and the antennas (:func:`hub.views.overlay_scene.overlay_picture`)."""
        unknown = self.intake.health.unknown_readers()
        antennas = {
            r: cards for r, cards in self.intake.presence.as_they_came().items() if r not in unknown
        }
        if self.desk is None:
            scene = OverlayScene(antennas=antennas, equity=self._equity_frame)
        else:
            scene = self.desk.overlay_scene(antennas, self._equity_frame, now)
        return frame(overlay_picture(replace(scene, unknown=unknown)))

    def _equity_out(self, event: Event, happened: float) -> None:
        """An equity frame to the overlay; the picture then carries its figures."""
        self._equity_frame = EquityFrame.model_validate(event)
        self.feeds.to_overlay(event, happened)
        self.feeds.overlay_changed(happened)

    def equity_spot(self) -> LiveSpot | None:
        """The spot of the cards on the table now: the rules' hand when the hub runs the
        rules (seats in the hand, folded seats out), the antennas otherwise; None when
        there is nothing to compute (see :mod:`hub.app.live_equity`)."""
        snap = self.intake.presence.snapshot()
        desk = self.desk
        if desk is None:
            return presence_spot(snap, self.game[1:])
        if not desk.in_hand or desk.monitor is None or desk.setup is None:
            return None
        hand = desk.monitor.hand
        return hand_spot(
            self.game[1:],
            hand=desk.hand_number,
            seats=desk.setup.seats,
            hole=hand.hole,
            folded=hand.folded,
            board=hand.board,
            snapshot=snap,
            committed=hand.total,
            stacks=hand.stacks,
        )
