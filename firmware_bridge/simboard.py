"""A simulated reader board that speaks the serial protocol, for tests and demos.

:class:`SimBoard` is the board's behaviour without I/O: antennas on which tag uids are
placed and lifted, HELLO / HEARTBEAT / INVENTORY / ERROR frames out, host commands in,
seat lights, and faults to inject (noise on the line, corrupted CRCs, a board that falls
silent, frames of another protocol version). :class:`PtyBoard` runs one over a real
pseudo-terminal in a thread, behind a stable symlink like udev's ``/dev/serial/by-id``,
and can pull and replug the "cable" (close the pty and open a new one) and split its
writes at random byte boundaries.

>>> board = SimBoard(antennas=("seat1", "board"))
>>> board.place(0, "045EED01C0DE80")
>>> from firmware_bridge.framing import Deframer
>>> [type(r.frame).__name__ for r in Deframer().feed(board.take_output())]
['Inventory']
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import threading
import time
import tty
from pathlib import Path

from feltwire.protocol import LightPattern
from firmware_bridge import frames
from firmware_bridge.framing import Deframer, FrameEncoder, encode_frame


class SimBoard:
    """A reader board's behaviour: bytes from the host in, bytes for the host out.

    Thread-safe: a test thread may place and lift tags while a runner thread moves bytes.
    """

    def __init__(
        self,
        *,
        board_id: str = "simboard",
        antennas: tuple[str, ...] = ("seat1", "seat2", "board", "burn", "muck"),
        firmware: str = "sim-0.1",
        heartbeat_ms: int = 200,
    ) -> None:
        self.board_id = board_id
        self.antenna_names = antennas
        self.firmware = firmware
        self.heartbeat_ms = heartbeat_ms
        self.tags: list[list[bytes]] = [[] for _ in antennas]
        self.lights: dict[int, LightPattern] = {}
        self.commands: list[frames.Frame] = []
        self.silent = False
        """A hung board: sends nothing and ignores the host while set."""
        self.sweeps = 0
        self._started = time.monotonic()
        self._lock = threading.RLock()
        self._encoder = FrameEncoder()
        self._deframer = Deframer(frames.HOST_FRAME_TYPES)
        self._out = bytearray()
        self._corrupt_next = 0

    # ------------------------------------------------------------ table side

    def place(self, antenna: int, uid: str | bytes) -> None:
        """Put a tag on an antenna (the board reports the antenna's new inventory)."""
        raw = bytes.fromhex(uid) if isinstance(uid, str) else uid
        with self._lock:
            if raw not in self.tags[antenna]:
                self.tags[antenna].append(raw)
                self._send_inventory(antenna)

    def lift(self, antenna: int, uid: str | bytes) -> None:
        """Take a tag off an antenna."""
        raw = bytes.fromhex(uid) if isinstance(uid, str) else uid
        with self._lock:
            if raw in self.tags[antenna]:
                self.tags[antenna].remove(raw)
                self._send_inventory(antenna)

    def report_error(self, antenna: int, code: frames.ErrorCode, detail: int = 0) -> None:
        """Send an ERROR frame (antenna 255 = the board)."""
        with self._lock:
            self._send(frames.BoardErrorReport(antenna, int(code), detail))

    # ------------------------------------------------------------ protocol

    def boot(self) -> None:
        """What a board does at power-up: sequence from 0, HELLO, every inventory."""
        with self._lock:
            self._encoder = FrameEncoder()
            self._deframer = Deframer(frames.HOST_FRAME_TYPES)
            self._started = time.monotonic()
            self._send_hello()

    def heartbeat(self) -> None:
        """Send one HEARTBEAT with the board's counters."""
        with self._lock:
            self.sweeps += 1
            uptime = int((time.monotonic() - self._started) * 1000) & 0xFFFFFFFF
            self._send(frames.Heartbeat(uptime, self.sweeps, 0, self._deframer.dropped))

    def receive(self, data: bytes) -> None:
        """Bytes from the host: act on every command they complete."""
        with self._lock:
            if self.silent:
                return
            for received in self._deframer.feed(data):
                frame = received.frame
                self.commands.append(frame)
                if isinstance(frame, frames.RequestHello):
                    self._send_hello()
                elif isinstance(frame, frames.RequestInventory):
                    for antenna in range(len(self.tags)):
                        self._send_inventory(antenna)
                elif isinstance(frame, frames.SetLight):
                    self.lights[frame.light] = frame.pattern

    def take_output(self) -> bytes:
        """Every byte the board has queued for the host (and forget them)."""
        with self._lock:
            out = bytes(self._out)
            self._out.clear()
            return out

    # ------------------------------------------------------------ faults

    def inject(self, raw: bytes) -> None:
        """Put raw bytes on the line between frames (noise, a stray debug print …)."""
        with self._lock:
            self._out += raw

    def corrupt_next(self, count: int = 1) -> None:
        """Flip one bit in the CRC of each of the next ``count`` frames."""
        with self._lock:
            self._corrupt_next += count

    def send_other_version(self, version: int) -> None:
        """Send a HEARTBEAT that claims another protocol version (right CRC)."""
        with self._lock:
            self._out += encode_frame(frames.Heartbeat(0, 0, 0, 0), self._encoder.next_seq, version)

    # ------------------------------------------------------------ internals

    def _send_hello(self) -> None:
        names = tuple(self.antenna_names)
        self._send(frames.Hello(self.board_id, self.firmware, 1, self.heartbeat_ms, names))
        for antenna in range(len(self.tags)):
            self._send_inventory(antenna)

    def _send_inventory(self, antenna: int) -> None:
        self._send(frames.Inventory(antenna, tuple(self.tags[antenna])))

    def _send(self, frame: frames.Frame) -> None:
        if self.silent:
            return
        wire = bytearray(self._encoder.encode(frame))
        if self._corrupt_next:
            self._corrupt_next -= 1
            # the byte before the closing delimiter is CRC (or its COBS code): never zero
            wire[-2] ^= 0x01 if wire[-2] != 0x01 else 0x03
        self._out += wire


class PtyBoard:
    """Runs a :class:`SimBoard` over a pseudo-terminal; ``path`` is what the bridge opens.

    ``path`` is a symlink to the pty's slave side, re-pointed on every replug (as udev
    does for ``/dev/serial/by-id``). :meth:`unplug` closes the pty — the bridge's reads
    fail as when a USB cable is pulled — and removes the link; :meth:`replug` opens a new
    pty and boots the board. With ``split_writes`` every write is cut into random small
    pieces with pauses between them, so the bridge reads frames in arbitrary chunks.
    """

    def __init__(
        self,
        board: SimBoard,
        path: Path,
        *,
        split_writes: bool = False,
        seed: int = 0,
    ) -> None:
        self.board = board
        self.path = path
        self.split_writes = split_writes
        self.dropped_writes = 0
        self._rng = random.Random(seed)
        self._master: int | None = None
        self._slave: int | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def plugged(self) -> bool:
        """True while the pty exists (the cable is in)."""
        return self._master is not None

    def start(self) -> PtyBoard:
        """Plug in and start the board's thread."""
        self.replug()
        self._thread = threading.Thread(target=self._run, name="simboard", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the thread and unplug."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.unplug()

    def __enter__(self) -> PtyBoard:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def unplug(self) -> None:
        """Pull the cable: close the pty, remove the link."""
        with self._lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._master = self._slave = None
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()

    def replug(self) -> None:
        """Plug the cable in: a new pty behind the same link; the board boots."""
        self.unplug()
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no CR/LF translation before the bridge opens it
        os.set_blocking(master, False)
        tmp = self.path.with_name(self.path.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        tmp.symlink_to(os.ttyname(slave))
        tmp.replace(self.path)
        with self._lock:
            self._master, self._slave = master, slave
        self.board.boot()

    def _run(self) -> None:
        next_beat = time.monotonic()
        watched: int | None = None
        poller = select.poll()  # not select(): it refuses a descriptor above 1023
        while not self._stop.is_set():
            with self._lock:
                master = self._master
            if master is None:
                self._stop.wait(0.01)
                continue
            if master != watched:
                if watched is not None:
                    poller.unregister(watched)
                poller.register(master, select.POLLIN)
                watched = master
            try:
                ready = poller.poll(5)
                if any(event & select.POLLIN for _, event in ready):
                    self.board.receive(os.read(master, 4096))
                elif ready:  # POLLHUP/POLLERR: no host on the line yet, or unplugged
                    self._stop.wait(0.01)
            except OSError:
                self._stop.wait(0.01)  # unplugged under us, or no host on the line
            now = time.monotonic()
            if now >= next_beat:
                next_beat = now + self.board.heartbeat_ms / 1000
                self.board.heartbeat()
            self._write(master, self.board.take_output())

    def _write(self, master: int, data: bytes) -> None:
        while data:
            n = self._rng.randint(1, 24) if self.split_writes else len(data)
            chunk, data = data[:n], data[n:]
            try:
                os.write(master, chunk)
            except OSError:  # pty buffer full (nobody reading) or unplugged: bytes are lost
                self.dropped_writes += 1
                return
            if self.split_writes:
                time.sleep(self._rng.choice((0, 0, 0.0005, 0.002)))


__all__ = ["PtyBoard", "SimBoard"]
