"""The bridge: one serial reader board in, feltwire MQTT inventories out.

:class:`Bridge` opens the board's port, feeds what it reads to a
:class:`~firmware_bridge.framing.Deframer`, and turns each INVENTORY frame into the same
``ReaderInventory`` message a table node sends (through the node's
``InventoryPublisher``: only changes, one sequence number over all readers). It keeps the
board's availability topic true to life — ``online`` after a HELLO, ``offline`` when the
cable is pulled or the board falls silent — reopens a lost port with backoff, asks for a
fresh inventory whenever a frame may have been lost, and counts every frame it drops.

A board reports an antenna only when its tags change; with the publisher's ``refresh_s``
(``inventory_refresh_s``) the bridge re-sends each quiet antenna's last inventory that
often, as a table node does, so the hub tells a reader that stopped from one where
nothing moves (``reader_silent``). It re-sends only what it can vouch for: not while the
board is offline, not while the board's heartbeats say it completed no sweep since the
last one, and not for an antenna the board reported NO_READER or READER_FAULT for within
the last ``refresh_s`` (until that antenna's next INVENTORY).

Drive it step by step in tests (:meth:`Bridge.poll_once`, :meth:`Bridge.handle`,
:meth:`Bridge.tick`) or let :meth:`Bridge.run` loop in a thread until a stop event is set.
"""

from __future__ import annotations

import enum
import logging
import queue
import threading
import time
from collections.abc import Callable

from feltwire.protocol import (
    AVAILABILITY_OFFLINE,
    AVAILABILITY_ONLINE,
    KNOWN_READER_IDS,
    LightPattern,
    availability_topic,
)
from feltwire.publisher import InventoryPublisher, Transport
from firmware_bridge.config import BridgeConfig
from firmware_bridge.errors import PortError
from firmware_bridge.frames import (
    PROTOCOL_VERSION,
    BoardErrorReport,
    ErrorCode,
    Frame,
    Heartbeat,
    Hello,
    Inventory,
    RequestHello,
    RequestInventory,
    SetLight,
)
from firmware_bridge.framing import Deframer, Drop, FrameEncoder, Received
from firmware_bridge.serial_port import Port, SerialPort

log = logging.getLogger(__name__)

READ_SIZE = 4096
DROP_LOG_INTERVAL_S = 10.0


class LinkState(enum.StrEnum):
    """Where the bridge stands with its board."""

    DISCONNECTED = "disconnected"
    """No port open: waiting to (re)open it."""
    WAITING_HELLO = "waiting_hello"
    """Port open; the board has not introduced itself (yet, or since it fell silent)."""
    ONLINE = "online"
    """The board said HELLO and keeps talking; its inventories are published."""


class Bridge:
    """Connects one reader board to MQTT; see the module docstring for what it does.

    ``open_port`` builds the port (default: :class:`SerialPort` on ``config.port``);
    ``clock`` is monotonic seconds. All port I/O happens on the thread that calls
    :meth:`run` (or :meth:`poll_once`); other threads may call :meth:`set_light` and
    :meth:`stats`.
    """

    def __init__(
        self,
        config: BridgeConfig,
        *,
        transport: Transport,
        publisher: InventoryPublisher,
        open_port: Callable[[], Port] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self._transport = transport
        self.publisher = publisher
        self._open_port = open_port or (lambda: SerialPort(config.port, config.baud))
        self._clock = clock
        self.deframer = Deframer(on_drop=self._on_drop)
        self._encoder = FrameEncoder()
        self._outbox: queue.SimpleQueue[Frame] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self.port: Port | None = None
        self.state = LinkState.DISCONNECTED
        self.board: Hello | None = None
        self.reader_of: dict[int, str] = {}
        self.last_heartbeat: Heartbeat | None = None
        self.counters: dict[str, int] = {}
        self._online: bool | None = None
        self._backoff = config.reconnect_min_s
        self._next_open = 0.0
        self._last_frame_at = 0.0
        self._hello_asked_at = 0.0
        self._expected_seq: int | None = None
        self._resync_missing: set[int] = set()
        self._resync_asked_at: float | None = None
        self._drop_logged_at: dict[str, float] = {}
        self._warned: set[str] = set()
        self._sweeping = True  # the last heartbeat's sweep count moved (or none came yet)
        self._faulty: dict[str, float] = {}  # reader → when the board last said it failed

    # ----------------------------------------------------------------- running

    def run(self, stop: threading.Event, alive: Callable[[], None] | None = None) -> None:
        """Keep the board connected and its inventories published until ``stop`` is set;
        ``alive`` is called on every turn of the loop (``feltwire bridge`` feeds systemd's
        watchdog there, so a loop that hangs stops the feeding)."""
        self._set_online(False)
        try:
            while not stop.is_set():
                if alive is not None:
                    alive()
                if self.port is None:
                    wait = self._next_open - self._clock()
                    if wait > 0:
                        stop.wait(min(wait, 0.5))
                        continue
                self.poll_once()
        finally:
            self._close_port()
            self._set_online(False)

    def poll_once(self) -> None:
        """One step: open the port if it is due, read what arrived, handle it, check timers."""
        now = self._clock()
        if self.port is None and (now < self._next_open or not self._try_open(now)):
            return
        assert self.port is not None
        try:
            self._flush_outbox()
            data = self.port.read(READ_SIZE)
        except PortError as exc:
            self._lost_port(exc)
            return
        now = self._clock()
        for received in self.deframer.feed(data):
            self.handle(received, now)
        self.tick(now)

    def set_light(self, light: int, pattern: LightPattern) -> None:
        """Ask the board to show ``pattern`` on seat light ``light`` (thread-safe)."""
        self._outbox.put(SetLight(light, pattern))

    def stats(self) -> dict[str, int]:
        """Every counter: frames handled, drops by reason, reconnects, published …"""
        with self._lock:
            out = dict(self.counters)
        for reason, count in self.deframer.drops.items():
            out[f"dropped.{reason}"] = count
        out["dropped"] = self.deframer.dropped + sum(
            v for k, v in out.items() if k.startswith("ignored.")
        )
        out["frames"] = self.deframer.frames
        out["published"] = self.publisher.published
        out["online"] = int(self.state is LinkState.ONLINE)
        return out

    # ------------------------------------------------------------ frame logic

    def handle(self, received: Received, now: float) -> None:
        """Act on one intact frame from the board."""
        self._last_frame_at = now
        frame = received.frame
        self._track_seq(received, now)
        if isinstance(frame, Hello):
            self._on_hello(frame, now)
        elif isinstance(frame, Heartbeat):
            self._count("heartbeats")
            last = self.last_heartbeat
            self._sweeping = last is None or frame.sweeps != last.sweeps
            self.last_heartbeat = frame
        elif isinstance(frame, Inventory):
            self._on_inventory(frame)
        elif isinstance(frame, BoardErrorReport):
            self._on_board_error(frame, now)

    def tick(self, now: float) -> None:
        """Timers: HELLO retries, the heartbeat deadline, repeated resync requests."""
        if self.port is None:
            return
        if self.state is LinkState.ONLINE:
            silent = now - self._last_frame_at
            if silent > self.config.heartbeat_timeout_s:
                log.warning(
                    "board %s silent for %.1f s (heartbeat timeout %.1f s): marked offline",
                    self._board_name(),
                    silent,
                    self.config.heartbeat_timeout_s,
                )
                self._count("heartbeat_timeouts")
                self._go_waiting(now)
        elif now - self._hello_asked_at >= self.config.hello_retry_s:
            self._ask_hello(now)
        if (
            self._resync_asked_at is not None
            and now - self._resync_asked_at >= self.config.hello_retry_s
        ):
            self._ask_inventory(now)
        if self.state is LinkState.ONLINE:
            self._refresh_quiet(now)

    def _refresh_quiet(self, now: float) -> None:
        """Re-send each quiet antenna's inventory that is due (see the module docs)."""
        every = self.publisher.refresh_s
        if every is None or not self._sweeping:
            return
        for reader in self.reader_of.values():
            failed = self._faulty.get(reader)
            if failed is not None and now - failed < every:
                continue
            if self.publisher.refresh(reader):
                self._count("refreshed")

    def _on_hello(self, hello: Hello, now: float) -> None:
        self._count("hellos")
        if hello.protocol != PROTOCOL_VERSION:
            self._count("ignored.version")
            self._warn_once(
                f"hello-version-{hello.protocol}",
                f"board {hello.board_id} announces serial protocol v{hello.protocol}; this "
                f"bridge speaks v{PROTOCOL_VERSION}: update the firmware or the bridge",
                logging.ERROR,
            )
            return
        self.board = hello
        self.reader_of = self._map_antennas(hello)
        self._resync_missing.clear()
        self._resync_asked_at = None
        self._backoff = self.config.reconnect_min_s
        if self.state is not LinkState.ONLINE:
            log.info(
                "board %s (firmware %s) online with %d antennas: %s",
                hello.board_id,
                hello.firmware or "?",
                len(hello.antennas),
                ", ".join(f"{i}={r}" for i, r in sorted(self.reader_of.items())) or "none mapped",
            )
        self.state = LinkState.ONLINE
        self._set_online(True)

    def _map_antennas(self, hello: Hello) -> dict[int, str]:
        mapping: dict[int, str] = {}
        for index, name in enumerate(hello.antennas):
            if index in self.config.antennas:
                mapping[index] = self.config.antennas[index]
            elif self.config.use_board_names and name in KNOWN_READER_IDS:
                mapping[index] = name
            else:
                why = f"named {name!r}, not a reader id" if name else "unnamed"
                self._warn_once(
                    f"unmapped-{hello.board_id}-{index}",
                    f"board {hello.board_id} antenna {index} is {why} and not in the config's "
                    "[antennas]: its tags are not published",
                )
        for index in self.config.antennas:
            if index >= len(hello.antennas):
                self._warn_once(
                    f"missing-{hello.board_id}-{index}",
                    f"config maps antenna {index} but board {hello.board_id} has only "
                    f"{len(hello.antennas)} antennas",
                )
        taken: dict[str, int] = {}
        for index, reader in sorted(mapping.items()):
            if reader in taken:
                self._warn_once(
                    f"dup-{hello.board_id}-{reader}",
                    f"board {hello.board_id} antennas {taken[reader]} and {index} are both "
                    f"{reader}; only antenna {taken[reader]} is published",
                    logging.ERROR,
                )
                del mapping[index]
            else:
                taken[reader] = index
        return mapping

    def _on_inventory(self, inv: Inventory) -> None:
        if self.board is None:
            self._count("ignored.not_ready")  # the board's HELLO will bring a fresh copy
            return
        self._count("inventories")
        self._resync_missing.discard(inv.antenna)
        if not self._resync_missing:
            self._resync_asked_at = None
        if inv.antenna >= len(self.board.antennas):
            self._count("ignored.bad_antenna")
            self._warn_once(
                f"bad-antenna-{inv.antenna}",
                f"board {self.board.board_id} reported antenna {inv.antenna}, but its HELLO "
                f"lists {len(self.board.antennas)}",
            )
            return
        reader = self.reader_of.get(inv.antenna)
        if reader is None:
            self._count("ignored.unmapped_antenna")
            return
        self._faulty.pop(reader, None)
        self.publisher.update(reader, inv.hex_uids())

    def _on_board_error(self, err: BoardErrorReport, now: float) -> None:
        self._count(f"board_error.{err.code_name}")
        reader = self.reader_of.get(err.antenna)
        if reader is not None and err.code in (ErrorCode.NO_READER, ErrorCode.READER_FAULT):
            self._faulty[reader] = now  # not vouched for: its inventory is not re-sent
        where = (
            "the board"
            if err.antenna == 0xFF
            else f"antenna {err.antenna} ({self.reader_of.get(err.antenna, 'unmapped')})"
        )
        log.warning(
            "board %s reports %s on %s (detail %d)",
            self._board_name(),
            err.code_name,
            where,
            err.detail,
        )

    def _track_seq(self, received: Received, now: float) -> None:
        expected = self._expected_seq
        self._expected_seq = (received.seq + 1) & 0xFFFF
        if isinstance(received.frame, Hello) or expected is None:
            return  # a HELLO starts a new count (the board may have restarted)
        if received.seq != expected:
            lost = (received.seq - expected) & 0xFFFF
            self._count("seq_gaps")
            self._count("lost_frames", lost)
            log.warning(
                "board %s: %d frame(s) lost (seq %d, expected %d); asking for its inventory",
                self._board_name(),
                lost,
                received.seq,
                expected,
            )
            self._request_resync(now)

    def _on_drop(self, drop: Drop) -> None:
        now = self._clock()
        last = self._drop_logged_at.get(drop.reason)
        if last is None or now - last >= DROP_LOG_INTERVAL_S:
            self._drop_logged_at[drop.reason] = now
            log.warning(
                "dropped a frame from %s (%s: %s); %d %s drop(s) so far",
                self.config.port,
                drop.reason,
                drop.detail,
                self.deframer.drops[drop.reason],
                drop.reason,
            )
        if drop.reason == "version":
            self._warn_once(
                "frame-version",
                "the board sends frames of another serial protocol version: update the "
                "firmware or the bridge (docs/serial-protocol.md)",
                logging.ERROR,
            )
        self._request_resync(now)

    # --------------------------------------------------------------- link

    def _request_resync(self, now: float) -> None:
        """A frame may have been lost: ask the board for every antenna's inventory."""
        if self.board is None or self.port is None:
            return  # the HELLO we are waiting for brings every inventory anyway
        if self._resync_asked_at is not None:
            return  # already asked; tick() repeats the request until it is answered
        self._ask_inventory(now)

    def _ask_inventory(self, now: float) -> None:
        self._resync_missing = set(range(len(self.board.antennas))) if self.board else set()
        self._resync_asked_at = now
        self._count("resyncs")
        self._send(RequestInventory())

    def _ask_hello(self, now: float) -> None:
        self._hello_asked_at = now
        self._send(RequestHello())

    def _go_waiting(self, now: float) -> None:
        self.state = LinkState.WAITING_HELLO
        self.board = None
        self._resync_asked_at = None
        self._set_online(False)
        self._ask_hello(now)

    def _try_open(self, now: float) -> bool:
        try:
            port = self._open_port()
        except PortError as exc:
            self._count("open_failures")
            self._warn_once("open-failed", f"{exc}; retrying", level=logging.WARNING)
            self._schedule_reopen(now)
            return False
        self._warned.discard("open-failed")
        log.info("opened %s; waiting for the board's HELLO", self.config.port)
        self._count("opens")
        self.port = port
        self.deframer.reset()
        self._expected_seq = None
        self._last_frame_at = now
        self._go_waiting(now)
        return self.port is not None

    def _lost_port(self, exc: PortError) -> None:
        log.warning("%s; board offline, reopening", exc)
        self._count("port_lost")
        self._close_port()
        self.state = LinkState.DISCONNECTED
        self.board = None
        self._set_online(False)
        self._schedule_reopen(self._clock())

    def _schedule_reopen(self, now: float) -> None:
        self._next_open = now + self._backoff
        self._backoff = min(self._backoff * 2, self.config.reconnect_max_s)

    def _close_port(self) -> None:
        if self.port is not None:
            self.port.close()
            self.port = None

    def _send(self, frame: Frame) -> None:
        if self.port is None:
            return
        try:
            self.port.write(self._encoder.encode(frame))
        except PortError as exc:
            self._lost_port(exc)

    def _flush_outbox(self) -> None:
        while True:
            try:
                frame = self._outbox.get_nowait()
            except queue.Empty:
                return
            self._send(frame)

    def _set_online(self, online: bool) -> None:
        if self._online is online:
            return
        self._online = online
        payload = AVAILABILITY_ONLINE if online else AVAILABILITY_OFFLINE
        topic = availability_topic(self.config.table, self.config.bridge_id)
        self._transport.publish(topic, payload, qos=1, retain=True)

    # ------------------------------------------------------------ helpers

    def _count(self, name: str, n: int = 1) -> None:
        with self._lock:
            self.counters[name] = self.counters.get(name, 0) + n

    def _warn_once(self, key: str, message: str, level: int = logging.WARNING) -> None:
        if key not in self._warned:
            self._warned.add(key)
            log.log(level, message)

    def _board_name(self) -> str:
        return self.board.board_id if self.board else self.config.port


__all__ = ["Bridge", "LinkState"]
