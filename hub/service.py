"""The hub's service layer: MQTT messages in, table state and feeds out.

:class:`HubService` owns the ingest, the table's presence picture and the two feeds:

* the **public** feed, live, in which the cards on secret antennas (seats, burn, muck,
  the registration pad) are reduced to a count — no hole card ever enters it;
* the **overlay** feed for the producer, with every card, held back by the configured
  delay (live only when the config explicitly allows live hole cards).

:func:`run_mqtt` feeds the service from a broker and reconnects when the broker goes away.

Every input the service accepts (after the ingest's checks: refused messages are not
inputs) goes through :meth:`HubService.record`: appended to the :class:`~hub.eventlog.
EventLog` with its receive time, then applied. :meth:`HubService.replay` rebuilds the
state after a restart by applying the logged inputs through the same code, with their
recorded times as the clock and without sending anything to the broker.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import aiomqtt

from feltwire.config import MqttUrl
from feltwire.deck import Deck
from feltwire.errors import ProtocolError
from feltwire.protocol import (
    TOPIC_PREFIX,
    ButtonPress,
    LightCommand,
    LightPattern,
    ReaderKind,
    TopicKind,
    encode,
    light_set_topic,
    parse_topic,
    reader_kind,
    reader_tags_filter,
    seat_of,
)
from hub.equity import EquityError, equity
from hub.eventlog import EventLog, EventLogError, InputKind, LogRecord, decode_read, encode_read
from hub.feeds import Broadcaster, DelayedRelease, Event
from hub.ingest import Ingest, InventoryRead
from hub.lights import LightBoard, presence_pattern
from hub.live_equity import equity_event, holdem_family_spot
from hub.presence import AntennaChange, TablePresence

if TYPE_CHECKING:
    from hub.table_service import TableService

log = logging.getLogger(__name__)

PUBLIC_KINDS = frozenset({ReaderKind.BOARD, ReaderKind.UP})
"""Antennas whose cards lie face up: the only ones the public feed names."""


def public_antenna(reader: str, cards: tuple[str, ...]) -> dict[str, Any]:
    """How the public sees an antenna: cards if face up, otherwise only how many."""
    kind = reader_kind(reader)
    view: dict[str, Any] = {"reader": reader, "kind": kind.value, "count": len(cards)}
    if kind in PUBLIC_KINDS:
        view["cards"] = list(cards)
    return view


def overlay_antenna(reader: str, cards: tuple[str, ...]) -> dict[str, Any]:
    """How the producer's overlay sees an antenna: every card."""
    return {
        "reader": reader,
        "kind": reader_kind(reader).value,
        "count": len(cards),
        "cards": list(cards),
    }


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
        game: str = "NT",
        live_equity: bool = True,
        log: EventLog | None = None,
    ) -> None:
        self.table = table
        self.readers = readers
        self.ingest = Ingest(
            table=table, readers=readers, deck=deck, max_payload_bytes=max_payload_bytes
        )
        self.presence = TablePresence()
        self.public = Broadcaster()
        self.overlay = Broadcaster()
        self.overlay_presence = TablePresence()
        self.overlay_delay_s = overlay_delay_s
        self._held = DelayedRelease(overlay_delay_s)
        self._held_changed = asyncio.Event()
        self._clock = clock
        self.changes = 0
        self.lights = LightBoard()
        self.game = game
        self.live_equity = live_equity
        self._equity_due = asyncio.Event()
        self.equity_updates = 0
        self.outgoing: asyncio.Queue[tuple[str, bytes, bool]] = asyncio.Queue()
        """Messages for the broker — (topic, payload, retained): light commands (retained)
        and alerts (not) — sent by :func:`run_mqtt`."""
        self.rules: TableService | None = None
        """The table's rules, when the hub enforces them (see :mod:`hub.table_service`)."""
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

    @property
    def clock(self) -> Callable[[], float]:
        """The hub's clock (seconds): every read is stamped with it when it arrives."""
        return self._clock

    def attach_rules(self, rules: TableService) -> None:
        """Let ``rules`` watch every read (called by the table service itself)."""
        self.rules = rules

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
        if self.log is not None and not self.replaying:
            self.log.append(kind, payload, now)
        return self._dispatch(kind, payload, now)

    def _dispatch(self, kind: InputKind, payload: dict[str, Any], now: float) -> object:
        """Apply one input — live or replayed, the same code."""
        if kind is InputKind.INVENTORY:
            return self._apply_read(decode_read(payload), now)
        if kind is InputKind.BUTTON:
            self._apply_button(payload, now)
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
        if self.rules is not None:
            self.rules.ensure_open(self._clock())
        self.release_due()
        log.info("replayed %d inputs from the event log", count)
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

    def handle_button(self, topic: str, payload: bytes) -> ButtonPress | None:
        """A dealer button pressed on a node: counted and shown on the console feed."""
        try:
            parsed = parse_topic(topic)
            if parsed.kind is not TopicKind.BUTTON or parsed.table != self.table:
                raise ProtocolError("bad_topic", f"not a button topic of table {self.table}")
            if len(payload) > self.ingest.max_payload_bytes:
                raise ProtocolError("oversized", f"button payload of {len(payload)} bytes")
            press = ButtonPress.model_validate_json(payload)
        except ValueError as exc:
            reason = exc.reason if isinstance(exc, ProtocolError) else "malformed"
            self.ingest.counters["rejected"] += 1
            self.ingest.counters[f"rejected.{reason}"] += 1
            log.warning("refused button message on %s: %s", topic, exc)
            return None
        self.record(InputKind.BUTTON, {"node": press.node, "button": press.button}, self._clock())
        return press

    def _apply_button(self, payload: dict[str, Any], now: float) -> None:
        button, node = str(payload["button"]), str(payload["node"])
        self.ingest.counters[f"button.{button}"] += 1
        self.public.publish({"type": "button", "node": node, "button": button, "t": now})

    def handle_message(self, topic: str, payload: bytes) -> AntennaChange | None:
        """Take one MQTT message; returns the antenna change it caused, if any."""
        try:
            return self._handle(topic, payload)
        finally:
            with self._handled_cv:
                self.handled += 1
                self._handled_cv.notify_all()

    def _handle(self, topic: str, payload: bytes) -> AntennaChange | None:
        if topic.endswith("/button"):
            self.handle_button(topic, payload)
            return None
        read = self.ingest.handle(topic, payload)
        if read is None:
            return None
        change = self.record(InputKind.INVENTORY, encode_read(read), self._clock())
        assert change is None or isinstance(change, AntennaChange)
        return change

    def _apply_read(self, read: InventoryRead, now: float) -> AntennaChange | None:
        """Apply one accepted inventory: presence, lights, feeds, the rules."""
        self.ingest.restore_seq(read)
        change = self.presence.apply(read.reader, read.cards)
        if change is None:
            if self.rules is not None:  # tags that are not in the deck still count
                self.rules.on_read(read.reader, read.cards, read.unknown_uids, False, now)
            return None
        self.changes += 1
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
        return change

    def to_overlay(self, event: Event, happened: float) -> None:
        """Send an overlay event now, or hold it until the delay has passed."""
        if self.overlay_delay_s == 0:
            self._release(event)
        else:
            self._held.push(event, happened)
            self._held_changed.set()

    def equity_now(self) -> Event | None:
        """The overlay's equity event for the cards on the table now (None: nothing to say)."""
        found = holdem_family_spot(self.presence.snapshot(), self.game[1:])
        if found is None:
            return None
        seats, spot = found
        return equity_event(seats, equity(spot, rng=self.equity_updates))

    async def run_equity(self, settle_s: float = 0.05) -> None:
        """Recompute each seat's equity when the cards change (a task of the running hub).

        Changes that come in a burst are taken together; the computation runs in a
        worker thread so reads keep flowing, and its result goes out with the delay of
        the cards it was computed from.
        """
        while True:
            await self._equity_due.wait()
            await asyncio.sleep(settle_s)
            self._equity_due.clear()
            happened = self._clock()
            try:
                event = await asyncio.to_thread(self.equity_now)
            except EquityError as exc:
                log.warning("no equity for the cards on the table: %s", exc)
                continue
            if event is not None:
                self.equity_updates += 1
                self.to_overlay(event | {"t": happened}, happened)

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
        if event["type"] == "antenna":
            self.overlay_presence.apply(event["reader"], frozenset(event["cards"]))
        self.overlay.publish(event)

    def release_due(self) -> int:
        """Release every held overlay event whose delay has passed; returns how many."""
        due = self._held.due(self._clock())
        for event in due:
            self._release(event)
        return len(due)

    async def run_release(self) -> None:
        """Release held overlay events on time, forever (a task of the running hub)."""
        while True:
            self.release_due()
            nxt = self._held.next_release()
            self._held_changed.clear()
            timeout = None if nxt is None else max(0.0, nxt - self._clock())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._held_changed.wait(), timeout)

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
        }


async def run_mqtt(service: HubService, broker: MqttUrl, *, keepalive: int = 15) -> None:
    """Subscribe to the table's reader topics and feed the service; reconnects forever."""
    tls = aiomqtt.TLSParameters() if broker.tls else None
    delay = 0.5
    while True:
        try:
            async with aiomqtt.Client(
                broker.host,
                broker.port,
                username=broker.username,
                password=broker.password,
                identifier=f"feltwire-hub-{service.table}",
                # a persistent session: the broker queues reads for the hub while it is away
                clean_session=False,
                keepalive=keepalive,
                tls_params=tls,
                protocol=aiomqtt.ProtocolVersion.V311,
                max_queued_incoming_messages=100_000,
            ) as client:
                await client.subscribe(reader_tags_filter(service.table), qos=1)
                await client.subscribe(f"{TOPIC_PREFIX}/{service.table}/node/+/button", qos=1)
                log.info("hub subscribed at %s:%d", broker.host, broker.port)
                service.subscribed.set()
                delay = 0.5
                sender = asyncio.create_task(_send_outgoing(service, client))
                try:
                    async for message in client.messages:
                        payload = message.payload
                        if not isinstance(payload, bytes | bytearray):
                            payload = str(payload).encode()
                        service.handle_message(str(message.topic), bytes(payload))
                finally:
                    sender.cancel()
        except aiomqtt.MqttError as exc:
            service.subscribed.clear()
            log.warning("broker connection lost (%s); retrying in %.1f s", exc, delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)


async def _send_outgoing(service: HubService, client: aiomqtt.Client) -> None:
    """Publish the hub's messages: the current lights first, then alerts that waited for
    the connection, then each new message as it comes."""
    waiting: list[tuple[str, bytes, bool]] = []
    while not service.outgoing.empty():
        message = service.outgoing.get_nowait()
        if not message[2]:
            waiting.append(message)  # light commands are superseded by the full state below
    try:
        for topic, payload, retain in service.light_messages() + waiting:
            await client.publish(topic, payload, qos=1, retain=retain)
        while True:
            topic, payload, retain = await service.outgoing.get()
            await client.publish(topic, payload, qos=1, retain=retain)
    except aiomqtt.MqttError as exc:
        log.warning("could not send to the broker: %s", exc)
