"""The hub's service layer: MQTT messages in, table state and feeds out.

:class:`HubService` owns the ingest, the table's presence picture and the two feeds:

* the **public** feed, live, in which the cards on secret antennas (seats, burn, muck,
  the registration pad) are reduced to a count — no hole card ever enters it;
* the **overlay** feed for the producer, with every card, held back by the configured
  delay (live only when the config explicitly allows live hole cards).

:func:`run_mqtt` feeds the services of all the hub's tables from one broker connection and
reconnects when the broker goes away. A card read on two antennas at once for longer than
a moment raises the ``uid_on_two_antennas`` security alert (a copied or spoofed tag).

Every input the service accepts (after the ingest's checks: refused messages are not
inputs) goes through :meth:`HubService.record`: appended to the :class:`~hub.eventlog.
EventLog` with its receive time, then applied. :meth:`HubService.replay` rebuilds the
state after a restart by applying the logged inputs through the same code, with their
recorded times as the clock and without sending anything to the broker.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

from feltwire.deck import Deck
from feltwire.protocol import (
    ButtonPress,
    LightCommand,
    LightPattern,
    ReaderKind,
    alerts_topic,
    encode,
    light_set_topic,
    public_topic,
    reader_kind,
    seat_of,
)
from feltwire.text import Text
from hub.app.codec import decode_read, encode_read
from hub.app.errors import EventLogError, LogUnavailable
from hub.app.feeds import Broadcaster, DelayedRelease
from hub.app.ingest import (
    DEFAULT_NODE_BURST,
    DEFAULT_NODE_RATE,
    Ingest,
    InventoryRead,
)
from hub.app.lights import LightBoard, presence_pattern
from hub.app.live_equity import (
    LiveSpot,
    equity_event,
    final_equity,
    hand_spot,
    no_equity,
    presence_spot,
    quick_equity,
)
from hub.app.node_alerts import NODE_ALERT_EVERY_S, node_alert
from hub.app.ports import EventStore, TableRules
from hub.app.presence import AntennaChange, TablePresence
from hub.app.records import InputKind, LogRecord
from hub.app.throttle import ThrottledLog
from hub.equity import EquityError
from hub.views.alerts import (
    alert_frame,
    doubled_tag_alert,
    unknown_tag_alert,
)
from hub.views.antennas import overlay_antenna, public_antenna
from hub.views.frames import Event
from hub.views.overlay import OverlayFrameError, OverlayState

log = logging.getLogger("hub.service")  # the name it logged under before issue 14's move

RESET_NODE_COMMAND = "reset_node"
"""The ``command`` of the table input that resets a node's sequence (the operator's)."""
MAX_BATCH = 256
"""Messages of one table taken together at most: logged in one transaction (one fsync)."""
NODE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
LOG_FAILED_ALERT = "event_log_failed"
"""The system alert's code: the event log cannot be written (a full disk, a file gone)."""
LOSS_ACCEPTED_ALERT = "event_log_loss_accepted"
"""The alert at start when the operator accepted a loss of the event log
(``feltwire event-log accept-loss``): the table was rebuilt without some inputs."""
LOG_ALERT_EVERY_S = 60.0
"""The event-log alert is repeated at most this often while the fault lasts."""


_Item = tuple[InputKind, dict[str, Any], float]
"""An input as the service applies it: kind, payload, the hub's time."""
_Unapplied = tuple[Future[list[LogRecord]], list[_Item]]
"""Inputs whose log write has started (or finished) but that are not applied yet."""


async def wait_event(event: asyncio.Event, limit: float | None) -> None:
    """Wait until ``event`` is set, at most ``limit`` seconds (None: no limit).

    Unlike ``asyncio.wait_for`` on Python 3.11 — which drops a cancellation that arrives
    in the moment the event is set, so a task told to stop waits on for ever — a
    cancellation always gets through: the hub's tasks stop when told."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(limit):
            await event.wait()


class HubService:
    """One table's live state and its feeds."""

    def __init__(
        self,
        *,
        table: str,
        readers: list[str],
        deck: Deck,
        max_payload_bytes: int,
        overlay_delay_s: float,
        clock: Callable[[], float] = time.time,
        wall: Callable[[], float] = time.time,
        game: str = "NT",
        live_equity: bool = True,
        log: EventStore | None = None,
        doubled_after_s: float = 0.5,
        node_rate: float = DEFAULT_NODE_RATE,
        node_burst: int = DEFAULT_NODE_BURST,
    ) -> None:
        self.table = table
        self.readers = readers
        self.ingest = Ingest(
            table=table,
            readers=readers,
            deck=deck,
            max_payload_bytes=max_payload_bytes,
            node_rate=node_rate,
            node_burst=node_burst,
            clock=clock,
            wall=wall,
        )
        self.presence = TablePresence()
        self.public = Broadcaster(tap=self._to_public_topic)
        self.overlay = Broadcaster()
        self.overlay_presence = TablePresence()
        self.overlay_state = OverlayState()
        """The overlay's picture of the table, from the released frames only."""
        self.overlay_delay_s = overlay_delay_s
        self._held = DelayedRelease(overlay_delay_s)
        self._held_changed = asyncio.Event()
        self._clock = clock
        self.wall = wall
        """The wall clock: for records (the event log keeps it beside each input) and
        display only — every delay and expiry runs on :attr:`clock`."""
        self.changes = 0
        self.lights = LightBoard()
        self.game = game
        self.live_equity = live_equity
        self._equity_due = asyncio.Event()
        self.equity_updates = 0
        self.outgoing: asyncio.Queue[tuple[str, bytes, bool]] = asyncio.Queue()
        """Messages for the broker — (topic, payload, retained): light commands (retained)
        and alerts (not) — sent by :func:`run_mqtt`."""
        self.rules: TableRules | None = None
        """The table's rules, when the hub enforces them (see :mod:`hub.app.table_service`)."""
        self.subscribed = asyncio.Event()
        """Set while the hub is subscribed to its table's topics at the broker."""
        self.handled = 0
        """Messages handled so far (every topic, accepted or not)."""
        self._handled_cv = threading.Condition()
        self.log = log
        """Where every accepted input is appended before it is applied (None: nowhere)."""
        self.replaying = False
        """True while :meth:`replay` runs: nothing goes to the broker then."""
        self.replayed = 0
        """Inputs replayed from the log at start."""
        self.doubled_after_s = doubled_after_s
        """How long one card (one registered uid) must lie on two antennas at once before
        the ``uid_on_two_antennas`` security alert (a card moved between antennas is read
        on both for a moment)."""
        self._where: dict[str, set[str]] = {}
        self._unknown_on: dict[str, frozenset[str]] = {}
        """Per antenna, the uids not in the deck it reported last (an alert per new one)."""
        self._doubled: dict[str, tuple[float, bool]] = {}
        self._doubled_changed = asyncio.Event()
        self.hub_alerts: deque[Event] = deque(maxlen=20)
        """The latest alerts the hub raised itself (security, the event log; newest last):
        they have no id (they are not in the event log, so not acknowledged there)."""
        self._unapplied: deque[_Unapplied] = deque()
        self.inbox: asyncio.Queue[tuple[str, bytes, bool]] = asyncio.Queue()
        """MQTT messages for this table — (topic, payload, retained) — taken in order by
        :func:`run_mqtt`'s worker."""
        self._node_alerted: dict[tuple[str, str], float] = {}
        self.throttle = ThrottledLog(logging.getLogger("hub.service"))
        """Log lines of faults that repeat (a full disk, a failing task) go through it."""
        self._log_alerted: float | None = None

    @property
    def clock(self) -> Callable[[], float]:
        """The hub's time (seconds, :class:`~hub.app.table_time.TableTime` in a running hub):
        every input is stamped with it when it arrives, and every delay (the overlay's),
        debounce and timeout is measured on it — never on the wall clock."""
        return self._clock

    def attach_rules(self, rules: TableRules) -> None:
        """Let ``rules`` watch every read (called by the table service itself)."""
        self.rules = rules

    def _to_public_topic(self, frame: Event) -> None:
        """Every frame of the public feed also goes to the table's public MQTT topic
        (``feltwire/v1/<table>/public``, not retained) for scoreboards and bots: the
        same frames as ``/ws/public``, so never a hole card."""
        self.send(public_topic(self.table), json.dumps(frame).encode(), retain=False)

    def send(self, topic: str, payload: bytes, *, retain: bool) -> None:
        """Queue a message for the broker (not while replaying: that went out before)."""
        if not self.replaying:
            self.outgoing.put_nowait((topic, payload, retain))

    @property
    def has_history(self) -> bool:
        """True when the log holds inputs of an earlier run (see :meth:`replay`)."""
        return self.log is not None and self.log.last_seq > 0 and not self.replaying

    def record(self, kind: InputKind, payload: dict[str, Any], now: float) -> object:
        """Take one accepted input: append it to the log (when there is one), then apply
        it; returns what applying it returned."""
        self._apply_logged()  # reads still on their way to the log come first
        if self.log is not None and not self.replaying:
            self._append(kind, payload, now)
        return self._dispatch(kind, payload, now)

    def _append(self, kind: InputKind, payload: dict[str, Any], now: float) -> LogRecord:
        """Append one input to the log; LogUnavailable (counted, logged, the dealer told)
        when it cannot be written."""
        assert self.log is not None
        try:
            return self.log.append(kind, payload, now, wall=self.wall())
        except (EventLogError, sqlite3.Error, OSError) as exc:
            raise self.log_failed(exc) from exc

    def log_failed(self, exc: BaseException) -> LogUnavailable:
        """An input could not be written to the event log: count it, log it (throttled),
        alert the dealer (at most every :data:`LOG_ALERT_EVERY_S`); the error to raise."""
        reason = str(exc) or type(exc).__name__
        self.ingest.counters["log_failed"] += 1
        self.throttle.error(
            "table %s: the event log cannot be written: %s", self.table, reason, key="event-log"
        )
        now = self._clock()
        if self._log_alerted is None or now - self._log_alerted >= LOG_ALERT_EVERY_S:
            self._log_alerted = now
            frame = alert_frame(
                LOG_FAILED_ALERT,
                "system",
                Text("alert.event_log_failed.message", {"error": reason}),
                Text("alert.event_log_failed.remedy"),
                now,
            )
            self.hub_alert(frame, "event log")
        return LogUnavailable(reason)

    def task_failed(self, task: str) -> None:
        """A periodic task's step raised: count it and log it (throttled); the task goes
        on with its next step (call from inside the ``except``)."""
        self.ingest.counters[f"task_failed.{task}"] += 1
        self.throttle.error(
            "table %s: %s failed; it goes on", self.table, task, exc_info=True, key=f"task-{task}"
        )

    def _dispatch(self, kind: InputKind, payload: dict[str, Any], now: float) -> object:
        """Apply one input — live or replayed, the same code."""
        if kind is InputKind.INVENTORY:
            return self._apply_read(decode_read(payload), now)
        if kind is InputKind.BUTTON:
            self._apply_button(payload, now)
            return None
        if kind is InputKind.TABLE and payload.get("command") == RESET_NODE_COMMAND:
            self.ingest.reset_node(str(payload["node"]))
            log.info("table %s: node %s's sequence reset", self.table, payload["node"])
            return None
        if self.rules is None:
            log.warning("a %s input in the log, but this hub enforces no rules: skipped", kind)
            return None
        return self.rules.apply_input(kind, payload, now)

    def replay(self) -> int:
        """Rebuild the state from the log (at start, before anything else runs).

        Each logged input is applied as it was live, its receive time as the clock.
        Alerts and light commands are not sent again; the lights' retained state goes
        out in full when the broker connection comes up. Returns how many were replayed.
        """
        if self.log is None:
            return 0
        self.replaying = True
        count = 0
        try:
            for rec in self.log.records():
                self._replay_one(rec)
                count += 1
        finally:
            self.replaying = False
        self.replayed = count
        self.ingest.counters["replayed"] += count
        self.ingest.nodes.resume()
        if self.rules is not None:
            self.rules.ensure_open(self._clock())
        self.release_due()
        log.info("replayed %d inputs from the event log", count)
        last = list(self.log.records(after=max(0, self.log.last_seq - 1)))
        last_wall = last[-1].wall if last and last[-1].wall is not None else float("-inf")
        for loss in self.log.accepted_losses:
            if loss.at < last_wall:
                continue  # accepted before the hub last ran: told then
            log.warning("table %s: %s", self.table, loss)
            self.hub_alert(
                alert_frame(
                    LOSS_ACCEPTED_ALERT,
                    "system",
                    Text("alert.event_log_loss_accepted.message", {"loss": str(loss)}),
                    Text("alert.event_log_loss_accepted.remedy"),
                    self._clock(),
                ),
                "event log",
            )
        return count

    def _replay_one(self, rec: LogRecord) -> None:
        try:
            self._dispatch(rec.kind, rec.payload, rec.t)
        except EventLogError:
            raise
        except Exception:  # a bad record must not keep the hub from starting
            self.ingest.counters["replay_failed"] += 1
            log.exception("replaying input %d (%s) failed; skipped", rec.seq, rec.kind)

    def wait_handled(self, count: int, timeout: float) -> bool:
        """Block (another thread than the hub's) until ``count`` messages were handled."""
        with self._handled_cv:
            return self._handled_cv.wait_for(lambda: self.handled >= count, timeout)

    @property
    def counters(self) -> dict[str, int]:
        """Ingest counters (received, accepted, rejected by reason …)."""
        return dict(self.ingest.counters)

    def reset_node(self, node: str) -> None:
        """The operator resets ``node``'s sequence (its count went back — a restored SD
        card — or a forged message set it far ahead): logged, so a restarted hub does the
        same; the node's next message is taken whatever its ``seq``."""
        if not NODE_ID.match(node):
            raise ValueError(f"{node!r} is not a node id (1-32 of A-Z a-z 0-9 _ -)")
        self.record(InputKind.TABLE, {"command": RESET_NODE_COMMAND, "node": node}, self._clock())

    def tell_notices(self) -> None:
        """Alert the dealer of what the ingest noticed about nodes (reads lost, a flood, a
        sequence stuck or implausible): one alert per node and kind a minute at most."""
        notices, self.ingest.notices = self.ingest.notices, []
        now = self._clock()
        for notice in notices:
            key = (notice.kind.value, notice.node)
            last = self._node_alerted.get(key)
            if last is not None and now - last < NODE_ALERT_EVERY_S:
                continue
            self._node_alerted[key] = now
            self.hub_alert(
                node_alert(notice, self.ingest.nodes.stats().get(notice.node), now), notice.node
            )

    def handle_button(self, topic: str, payload: bytes) -> ButtonPress | None:
        """A dealer button pressed on a node: counted and shown on the console feed."""
        press = self.ingest.handle_button(topic, payload)
        self.tell_notices()
        if press is None:
            return None
        self.record(InputKind.BUTTON, {"node": press.node, "button": press.button}, self._clock())
        return press

    def _apply_button(self, payload: dict[str, Any], now: float) -> None:
        button, node = str(payload["button"]), str(payload["node"])
        self.ingest.counters[f"button.{button}"] += 1
        self.public.publish({"type": "button", "node": node, "button": button, "t": now})

    def handle_message(
        self, topic: str, payload: bytes, *, retained: bool = False
    ) -> AntennaChange | None:
        """Take one MQTT message; returns the antenna change it caused, if any."""
        try:
            return self._handle(topic, payload, retained)
        finally:
            with self._handled_cv:
                self.handled += 1
                self._handled_cv.notify_all()

    async def take_message(
        self, topic: str, payload: bytes, disk: Executor, *, retained: bool = False
    ) -> None:
        """Take one MQTT message as :meth:`take_batch` takes many."""
        await self.take_batch([(topic, payload, retained)], disk)

    async def take_batch(self, messages: list[tuple[str, bytes, bool]], disk: Executor) -> None:
        """Take MQTT messages that arrived together — (topic, payload, retained) — like
        :meth:`handle_message` takes one, with ONE event-log write for all the inputs
        among them (one transaction, one fsync with ``event_log_sync = "full"``), done on
        ``disk``, off the event loop, so a burst is taken at the disk's pace per batch,
        not per message, and the other tables and the web go on meanwhile.

        Every input is on disk before it is applied, and inputs are applied in the order
        they are logged: an input recorded meanwhile (a console action, a tick) first
        applies the inputs already on their way to the log (:meth:`record`). One table's
        messages must be taken one batch after another (:func:`run_mqtt` does). When the
        log cannot be written, the batch's reads are counted ``failed`` and LogUnavailable
        is raised (the dealer is told).
        """
        try:
            items = [item for m in messages if (item := self._screen(*m)) is not None]
            self.tell_notices()
            reads = sum(kind is InputKind.INVENTORY for kind, _, _ in items)
            if not items:
                return
            if self.log is None:
                self._apply_logged()
                for kind, data, now in items:
                    self._dispatch(kind, data, now)
                self.ingest.counters["accepted"] += reads
                return
            wall = self.wall()
            batch = [(kind, data, now, wall) for kind, data, now in items]
            written = disk.submit(self.log.append_many, batch)
            entry = (written, items)
            self._unapplied.append(entry)
            try:
                await asyncio.wrap_future(written)
            except (EventLogError, sqlite3.Error, OSError) as exc:
                self._unapplied.remove(entry)
                self.ingest.counters["failed"] += reads
                raise self.log_failed(exc) from exc
            self.ingest.counters["accepted"] += reads
            self._apply_logged()
        finally:
            with self._handled_cv:
                self.handled += len(messages)
                self._handled_cv.notify_all()

    def _screen(self, topic: str, payload: bytes, retained: bool) -> _Item | None:
        """One message through the ingest's checks: the input it makes, or None."""
        now = self._clock()
        if topic.endswith("/button"):
            press = self.ingest.handle_button(topic, payload)
            if press is None:
                return None
            return InputKind.BUTTON, {"node": press.node, "button": press.button}, now
        read = self.ingest.handle(topic, payload, retained=retained)
        return None if read is None else (InputKind.INVENTORY, encode_read(read), now)

    def _apply_logged(self) -> None:
        """Apply, in order, the inputs whose log write :meth:`take_batch` started
        (waiting for a write still going on)."""
        while self._unapplied:
            written, items = self._unapplied.popleft()
            written.result()
            for kind, data, now in items:
                self._dispatch(kind, data, now)

    def _handle(self, topic: str, payload: bytes, retained: bool) -> AntennaChange | None:
        if topic.endswith("/button"):
            self.handle_button(topic, payload)
            return None
        read = self.ingest.handle(topic, payload, retained=retained)
        self.tell_notices()
        if read is None:
            return None
        try:
            change = self.record(InputKind.INVENTORY, encode_read(read), self._clock())
        except LogUnavailable:
            self.ingest.counters["failed"] += 1
            raise
        self.ingest.counters["accepted"] += 1
        assert change is None or isinstance(change, AntennaChange)
        return change

    def _apply_read(self, read: InventoryRead, now: float) -> AntennaChange | None:
        """Apply one accepted inventory: presence, lights, feeds, the rules."""
        self.ingest.restore_seq(read)
        unknown = frozenset(read.unknown_uids)
        fresh = unknown - self._unknown_on.get(read.reader, frozenset())
        self._unknown_on[read.reader] = unknown
        if fresh and (self.rules is None or not self.rules.in_hand):
            # in a hand the dealing monitor raises it (AlertCode.UNKNOWN_TAG)
            self._unknown_alert(read.reader, len(fresh), now)
        change = self.presence.apply(read.reader, read.cards)
        if change is None:
            if self.rules is not None:  # tags that are not in the deck still count
                self.rules.on_read(read.reader, read.cards, read.unknown_uids, False, now)
            return None
        self.changes += 1
        self._track_places(change, now)
        if self.rules is None and reader_kind(change.reader) is ReaderKind.SEAT:
            # with rules, the table service sets the seat lights
            seat = seat_of(change.reader)
            assert seat is not None
            self.set_light(seat, presence_pattern(len(change.cards)))
        self.public.publish(
            {"type": "antenna", "n": self.changes, "t": now}
            | public_antenna(change.reader, change.cards)
        )
        overlay_event: Event = (
            {"type": "antenna", "n": self.changes, "t": now}
            | overlay_antenna(change.reader, change.cards)
            | {"arrived": list(change.arrived), "left": list(change.left)}
        )
        self.to_overlay(overlay_event, now)
        if self.live_equity and reader_kind(change.reader) is not ReaderKind.REGISTER:
            self._equity_due.set()
        if self.rules is not None:
            self.rules.on_read(read.reader, read.cards, read.unknown_uids, True, now)
        self.check_doubled(now)
        return change

    def _track_places(self, change: AntennaChange, now: float) -> None:
        """Keep where each card lies; a card now on two antennas starts a doubled spell."""
        for card in change.left:
            places = self._where.get(card)
            if places is not None:
                places.discard(change.reader)
                if len(places) < 2:
                    self._doubled.pop(card, None)
        for card in change.arrived:
            places = self._where.setdefault(card, set())
            places.add(change.reader)
            if len(places) >= 2 and card not in self._doubled:
                self._doubled[card] = (now, False)
                self._doubled_changed.set()

    def check_doubled(self, now: float) -> int:
        """Raise the ``uid_on_two_antennas`` alert for every card that has lain on two
        antennas at once for ``doubled_after_s``; returns how many were raised."""
        raised = 0
        for card, (since, told) in list(self._doubled.items()):
            if not told and now - since >= self.doubled_after_s:
                self._doubled[card] = (since, True)
                self._doubled_alert(card, sorted(self._where[card]), now)
                raised += 1
        return raised

    def _unknown_alert(self, reader: str, count: int, now: float) -> None:
        """The spoofing alert for a tag that is not in the registered deck, read while no
        hand runs (or on a hub that enforces no rules): a foreign or forged tag."""
        self._security_alert(unknown_tag_alert(reader, count, now), reader)

    def _security_alert(self, frame: Event, where: str) -> None:
        """Send a security alert: public feed, overlay, the alerts topic, counters."""
        if self.replaying:
            return  # raised when it happened; the log only rebuilds the table
        self.ingest.counters[f"security.{frame['code']}"] += 1
        self.hub_alert(frame, where)

    def hub_alert(self, frame: Event, where: str) -> None:
        """Send an alert the hub raises itself (not the rules): the dealer's alert list
        (with the rules), the public feed, the overlay, the alerts topic. Never a card."""
        if self.replaying:
            return
        code = frame["code"]
        self.throttle.warning(
            "table %s alert %s on %s", self.table, code, where, key=f"alert-{code}-{where}"
        )
        frame = frame | {"id": None}
        self.public.publish(frame)
        self.to_overlay(frame, frame["t"])
        self.hub_alerts.append(frame)
        payload = {"v": 1, "table": self.table} | frame
        del payload["type"]
        self.send(alerts_topic(self.table), json.dumps(payload).encode(), retain=False)

    def _doubled_alert(self, card: str, readers: list[str], now: float) -> None:
        """The spoofing alert: one registered tag read on several antennas at once."""
        frame = doubled_tag_alert(card, readers, now)
        if self.rules is not None and self.rules.in_hand:
            frame["hand"] = self.rules.hand_number
        self._security_alert(frame, " and ".join(readers))

    async def run_security(self) -> None:
        """Raise the doubled-tag alert on time, forever (a task of the running hub)."""
        while True:
            now = self._clock()
            try:
                self.check_doubled(now)
            except Exception:
                self.task_failed("security")
            due = [
                since + self.doubled_after_s for since, told in self._doubled.values() if not told
            ]
            self._doubled_changed.clear()
            timeout = None if not due else max(0.01, min(due) - now)
            await wait_event(self._doubled_changed, timeout)

    def to_overlay(self, event: Event, happened: float) -> None:
        """Send an overlay event now, or hold it until the delay has passed."""
        if self.overlay_delay_s == 0:
            self._release(event)
        else:
            self._held.push(event, happened)
            self._held_changed.set()

    @property
    def held(self) -> int:
        """Overlay frames held back by the delay right now."""
        return len(self._held)

    def equity_spot(self) -> LiveSpot | None:
        """The spot of the cards on the table now: the rules' hand when the hub runs the
        rules (seats in the hand, folded seats out), the antennas otherwise; None when
        there is nothing to compute (see :mod:`hub.app.live_equity`)."""
        snap = self.presence.snapshot()
        rules = self.rules
        if rules is None:
            return presence_spot(snap, self.game[1:])
        if not rules.in_hand or rules.monitor is None or rules.setup is None:
            return None
        hand = rules.monitor.hand
        return hand_spot(
            self.game[1:],
            hand=rules.hand_number,
            seats=rules.setup.seats,
            hole=hand.hole,
            folded=hand.folded,
            board=hand.board,
            burns=hand.burns,
            snapshot=snap,
        )

    def equity_now(self) -> Event | None:
        """The overlay's final equity event for the cards on the table now (None: nothing
        to say); blocks while it computes."""
        live = self.equity_spot()
        if live is None:
            return None
        return equity_event(live, final_equity(live, self.equity_updates))

    def _equity_key(self) -> tuple[object, ...] | None:
        try:
            live = self.equity_spot()
        except EquityError:
            return None
        return None if live is None else live.key

    async def run_equity(self, settle_s: float = 0.05, poll_s: float = 0.25) -> None:
        """Recompute each seat's equity when the cards change (a task of the running hub).

        Changes that come in a burst are taken together. A quick estimate goes out at
        once, then the exact figure (or a finer estimate, see
        :func:`hub.app.live_equity.final_equity`), unless the cards changed meanwhile. Both
        are computed in a worker thread so reads keep flowing, and go out with the delay
        of the cards they were computed from. With the rules running, the hand is also
        looked at every ``poll_s`` seconds (a fold entered at the console moves no card).
        """
        last: tuple[object, ...] | None = None
        while True:
            try:
                last = await self._equity_pass(last, settle_s, poll_s)
            except Exception:
                self.task_failed("equity")
                await asyncio.sleep(1.0)

    async def _equity_pass(
        self, last: tuple[object, ...] | None, settle_s: float, poll_s: float
    ) -> tuple[object, ...] | None:
        """One pass of :meth:`run_equity`: wait for a change, compute, send; the key of
        the cards it computed (or ``last`` when it computed nothing)."""
        if self.rules is None or not self.live_equity:
            await self._equity_due.wait()
        else:
            await wait_event(self._equity_due, poll_s)
        if self._equity_due.is_set():
            await asyncio.sleep(settle_s)
            self._equity_due.clear()
        if not self.live_equity:
            return last
        happened = self._clock()
        try:
            live = self.equity_spot()
        except EquityError as exc:
            log.warning("no equity for the cards on the table: %s", exc)
            return last
        key = None if live is None else live.key
        if key == last:
            return last
        last = key
        if live is None:
            if self.rules is None:  # with rules, the next hand clears the figures
                self.to_overlay(no_equity() | {"t": happened}, happened)
            return last
        try:
            quick = await asyncio.to_thread(quick_equity, live, self.equity_updates)
            self.equity_updates += 1
            self.to_overlay(equity_event(live, quick) | {"t": happened}, happened)
            if quick.exact:
                return last
            final = await asyncio.to_thread(final_equity, live, self.equity_updates)
        except EquityError as exc:
            log.warning("no equity for the cards on the table: %s", exc)
            return last
        if self._equity_key() != key:
            return last  # the cards changed meanwhile: the next pass computes those
        self.equity_updates += 1
        self.to_overlay(equity_event(live, final) | {"t": happened}, happened)
        return last

    def set_light(self, seat: int, pattern: LightPattern) -> None:
        """Command a seat light (sent once per change, retained; while replaying only
        recorded — every light goes out when the broker connection comes up)."""
        if self.lights.set(seat, pattern) and not self.replaying:
            self.outgoing.put_nowait(self._light_message(seat, pattern))

    def _light_message(self, seat: int, pattern: LightPattern) -> tuple[str, bytes, bool]:
        return (
            light_set_topic(self.table, seat),
            encode(LightCommand(v=1, pattern=pattern)),
            True,
        )

    def light_messages(self) -> list[tuple[str, bytes, bool]]:
        """Every seat's current light command (re-sent after a reconnect)."""
        return [self._light_message(s, p) for s, p in sorted(self.lights.current().items())]

    def _release(self, event: Event) -> None:
        """Send one overlay event whose time has come, then the overlay's picture of the
        table with it folded in (a ``state`` frame) when that changed."""
        if event["type"] == "antenna":
            self.overlay_presence.apply(event["reader"], frozenset(event["cards"]))
        self.overlay.publish(event)
        try:
            changed = self.overlay_state.apply(event)
        except OverlayFrameError as exc:
            self.ingest.counters["overlay_unreadable"] += 1
            log.warning("the overlay picture skipped a frame: %s", exc)
            return
        if changed:
            picture = self.overlay_state.picture()
            self.overlay.publish({"type": "state", "t": event.get("t"), "state": picture})

    def release_due(self) -> int:
        """Release every held overlay event whose delay has passed; returns how many."""
        due = self._held.due(self._clock())
        for event in due:
            self._release(event)
        return len(due)

    async def run_release(self) -> None:
        """Release held overlay events on time, forever (a task of the running hub)."""
        while True:
            try:
                self.release_due()
            except Exception:
                self.task_failed("overlay-release")
                await asyncio.sleep(1.0)
            nxt = self._held.next_release()
            self._held_changed.clear()
            timeout = None if nxt is None else max(0.0, nxt - self._clock())
            await wait_event(self._held_changed, timeout)

    def public_snapshot(self) -> Event:
        """The public picture of the table (no hole cards)."""
        snap = self.presence.snapshot()
        out: Event = {
            "type": "snapshot",
            "table": self.table,
            "antennas": [public_antenna(r, snap.get(r, ())) for r in self.readers],
        }
        if self.rules is not None:
            out["rules"] = self.rules.public_state()
        return out

    def overlay_snapshot(self) -> Event:
        """The overlay's picture of the table, as of the delay."""
        snap = self.overlay_presence.snapshot()
        return {
            "type": "snapshot",
            "table": self.table,
            "delay_s": self.overlay_delay_s,
            "antennas": [overlay_antenna(r, snap.get(r, ())) for r in self.readers],
            "state": self.overlay_state.picture(),
        }
