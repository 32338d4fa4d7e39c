"""Fakes for the bridge tests: an in-memory transport, a wire to a SimBoard, a SimBoard
behind a pseudo-terminal with a bridge config for it, waiting for a condition, and reading
a retained message from a real broker."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge.errors import PortError
from firmware_bridge.simboard import PtyBoard, SimBoard
from tests.support.retained import retained_messages


class ListTransport:
    """An in-memory transport: keeps what would have gone to the broker."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, bytes, int, bool]] = []

    def publish(self, topic: str, payload: bytes, *, qos: int, retain: bool) -> None:
        self.sent.append((topic, payload, qos, retain))

    def inventories(self) -> list[dict[str, object]]:
        """The ReaderInventory payloads, decoded, in order."""
        return [json.loads(p) for t, p, _, _ in self.sent if t.endswith("/tags")]

    def availability(self) -> list[bytes]:
        return [p for t, p, _, _ in self.sent if t.endswith("/availability")]

    def latest(self) -> dict[str, list[str]]:
        """Each reader's last published uids."""
        out: dict[str, list[str]] = {}
        for msg in self.inventories():
            out[str(msg["reader"])] = list(msg["uids"])  # type: ignore[call-overload]
        return out


@dataclass
class WirePort:
    """A port whose other end is a SimBoard, in memory: no threads, no timing.

    ``unplugged`` makes every read and write fail as pyserial does when a USB cable is
    pulled; ``noise`` is put on the line before the board's next bytes.
    """

    board: SimBoard
    unplugged: bool = False
    noise: bytearray = field(default_factory=bytearray)
    writes: list[bytes] = field(default_factory=list)
    closed: bool = False

    def read(self, size: int) -> bytes:
        if self.unplugged or self.closed:
            raise PortError("serial port fake lost: device disconnected")
        data = bytes(self.noise) + self.board.take_output()
        self.noise.clear()
        return data

    def write(self, data: bytes) -> None:
        if self.unplugged or self.closed:
            raise PortError("serial port fake lost while writing")
        self.writes.append(data)
        self.board.receive(data)

    def close(self) -> None:
        self.closed = True


def wait_for(cond: Callable[[], bool], timeout: float = 5.0, what: str = "condition") -> None:
    """Poll ``cond`` until it holds; fail the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.01)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def retained(port: int, topic: str) -> bytes | None:
    """The retained message on ``topic`` at the broker on 127.0.0.1:port (None if none
    came within a second of the broker's SUBACK)."""
    got = retained_messages(port, [topic])
    return got[-1][1] if got else None


@contextmanager
def board_on_a_pty(workdir: Path, broker_url: str, settings: str = "") -> Iterator[Path]:
    """A simulated reader board (one antenna, ``seat1``; a heartbeat every 100 ms) on a
    pseudo-terminal, and the config of bridge ``b1`` at table ``t1`` for it on the broker
    at ``broker_url`` (``settings``: more top-level lines of it): yields the config
    file's path while the board runs."""
    board = SimBoard(antennas=("seat1",), heartbeat_ms=100)
    with PtyBoard(board, workdir / "ttyBOARD") as pty:
        config = workdir / "bridge.toml"
        config.write_text(
            f'bridge_id = "b1"\ntable = "t1"\nport = "{pty.path}"\n{settings}'
            f'state_dir = "{workdir / "state"}"\n[mqtt]\nurl = "{broker_url}"\n'
        )
        yield config
