"""systemd's notify protocol, as the units use it (``Type=notify``, ``WatchdogSec=``).

Each process — ``feltwire hub``, ``feltwire node`` (simulated backend) and ``feltwire
bridge`` (a simulated board on a pty) — runs as a real child process against a real
Mosquitto, with ``$NOTIFY_SOCKET`` naming an AF_UNIX datagram socket the test binds (what
systemd does) and ``$WATCHDOG_USEC`` set short. The test reads what systemd would: READY=1
once the process serves, WATCHDOG=1 again and again while it runs, STOPPING=1 on SIGTERM.
Each runs twice: as is, and under the seccomp filter of the units' ``MemoryDenyWriteExecute=yes``
(:mod:`tests.support.mdwe`), to see Python and its C extensions run without writable code.
"""

from __future__ import annotations

import ctypes.util
import itertools
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from feltwire.publisher import InventoryPublisher
from feltwire.sdnotify import Watchdog, notify
from table_node.node import Node
from tests.support.bridge import ListTransport, board_on_a_pty
from tests.support.mosquitto import MosquittoProcess
from tests.support.ports import free_port

WATCHDOG_USEC = 400_000
"""WatchdogSec=0.4 s: a WATCHDOG=1 is due every 0.2 s."""
START = 30.0
"""Generous bound for a Python process to start on a loaded 2-core box (not a timing test)."""


class NotifySocket:
    """The socket systemd listens on for one unit: what each process sent, in order."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.received: list[str] = []

    def env(self) -> dict[str, str]:
        return os.environ | {"NOTIFY_SOCKET": str(self.path), "WATCHDOG_USEC": str(WATCHDOG_USEC)}

    def wait_for(self, state: str, proc: subprocess.Popen[bytes], timeout: float) -> float:
        """Read datagrams until one is ``state``; returns when (monotonic)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                out = proc.stdout.read() if proc.poll() is not None and proc.stdout else b""
                pytest.fail(f"no {state} within {timeout} s; got {self.received}; {out!r}")
            self.sock.settimeout(min(left, 0.5))
            try:
                data = self.sock.recv(4096).decode()
            except TimeoutError:
                if proc.poll() is not None:
                    out = proc.stdout.read() if proc.stdout else b""
                    pytest.fail(f"exited ({proc.returncode}) before {state}: {out!r}")
                continue
            self.received.append(data)
            if data == state:
                return time.monotonic()

    def close(self) -> None:
        self.sock.close()


MDWE = Path(__file__).resolve().parents[1] / "support" / "mdwe.py"
MDWE_SKIP = "libseccomp is not installed (needed to apply MemoryDenyWriteExecute's filter)"


@pytest.fixture(params=["plain", "MemoryDenyWriteExecute"])
def wrapper(request: pytest.FixtureRequest) -> list[str]:
    """The command prefix: none, or the MemoryDenyWriteExecute filter."""
    if request.param == "plain":
        return []
    if ctypes.util.find_library("seccomp") is None:
        pytest.skip(MDWE_SKIP)
    return [sys.executable, str(MDWE)]


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[NotifySocket]:
    sock = NotifySocket(tmp_path / "notify")
    try:
        yield sock
    finally:
        sock.close()


def run_and_check(cmd: list[str], notify_socket: NotifySocket, wrapper: list[str]) -> None:
    """Start ``cmd``, see READY=1, then WATCHDOG=1 at least five times at about the
    watchdog's half period, then SIGTERM and STOPPING=1 and exit code 0."""
    proc = subprocess.Popen(
        [*wrapper, *cmd], env=notify_socket.env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        notify_socket.wait_for("READY=1", proc, START)
        beats = [notify_socket.wait_for("WATCHDOG=1", proc, 5.0) for _ in range(5)]
        gaps = [b - a for a, b in itertools.pairwise(beats)]
        # fed often enough for WatchdogSec (0.4 s) and not on every turn of the loop
        assert max(gaps) < WATCHDOG_USEC / 1e6, gaps
        assert min(gaps) > 0.05, gaps
        proc.send_signal(signal.SIGTERM)
        notify_socket.wait_for("STOPPING=1", proc, 10.0)
        out, _ = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, out
    assert notify_socket.received[0] == "READY=1", notify_socket.received


def _process_config(command: str, workdir: Path, broker_url: str) -> Path:
    """A minimal config of ``feltwire hub`` or ``feltwire node`` (simulated) on the broker."""
    config = workdir / f"{command}.toml"
    if command == "hub":
        text = (
            f'table = "t1"\nlive_equity = false\nstate_dir = "{workdir / "state"}"\n'
            f'[mqtt]\nurl = "{broker_url}"\n[web]\nport = {free_port()}\n'
        )
    else:
        text = (
            f'node_id = "sim"\ntable = "t1"\nstate_dir = "{workdir / "state"}"\n'
            f'[mqtt]\nurl = "{broker_url}"\n[simulator]\nstep_seconds = 0.05\nseed = 4\n'
        )
    config.write_text(text)
    return config


@pytest.mark.parametrize("command", ["hub", "node"])
def test_the_process_notifies_ready_feeds_the_watchdog_and_says_stopping(
    command: str,
    mosquitto: MosquittoProcess,
    tmp_path: Path,
    notify_socket: NotifySocket,
    wrapper: list[str],
) -> None:
    config = _process_config(command, tmp_path, mosquitto.url)
    run_and_check(
        [sys.executable, "-m", "feltwire", command, "--config", str(config)],
        notify_socket,
        wrapper,
    )


def test_bridge_notifies_ready_feeds_the_watchdog_and_says_stopping(
    mosquitto: MosquittoProcess,
    tmp_path: Path,
    notify_socket: NotifySocket,
    wrapper: list[str],
) -> None:
    with board_on_a_pty(tmp_path, mosquitto.url) as config:
        run_and_check(
            [sys.executable, "-m", "feltwire", "bridge", "--config", str(config)],
            notify_socket,
            wrapper,
        )


def test_an_abstract_notify_socket_is_reached(tmp_path: Path) -> None:
    """``@name`` in $NOTIFY_SOCKET is the abstract socket ``\\0name`` (how systemd names
    its socket in some setups)."""
    name = f"feltwire-test-{os.getpid()}-{time.monotonic_ns()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)
        assert notify("READY=1", environ={"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(100) == b"READY=1"


def test_without_systemd_nothing_is_sent_and_nothing_fails(tmp_path: Path) -> None:
    assert not notify("READY=1", environ={})
    assert not notify("READY=1", environ={"NOTIFY_SOCKET": str(tmp_path / "nobody-listens")})
    assert Watchdog(environ={}).interval is None
    # the watchdog of another process (WATCHDOG_PID) is not this one's to feed
    other = {"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": str(os.getpid() + 1)}
    assert Watchdog(environ=other).interval is None


def test_the_watchdog_is_fed_at_half_its_period(tmp_path: Path) -> None:
    now = [0.0]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(tmp_path / "n"))
        sock.setblocking(False)
        env = {"NOTIFY_SOCKET": str(tmp_path / "n"), "WATCHDOG_USEC": "2000000"}
        dog = Watchdog(environ=env, clock=lambda: now[0])
        sent = 0
        for _ in range(100):  # 10 s of a loop turning every 0.1 s
            dog.kick()
            now[0] += 0.1
        while True:
            try:
                assert sock.recv(100) == b"WATCHDOG=1"
            except BlockingIOError:
                break
            sent += 1
        assert sent == 10  # one a second: half of WatchdogSec = 2 s


class StuckReader:
    """A reader whose ``inventory()`` hangs while ``stuck`` is set (an SPI read that never
    returns)."""

    reader_id = "seat1"

    def __init__(self) -> None:
        self.stuck = threading.Event()
        self.released = threading.Event()

    def inventory(self) -> frozenset[str]:
        if self.stuck.is_set():
            self.released.wait()
        return frozenset()

    def close(self) -> None:
        self.released.set()


def test_a_sweep_that_hangs_stops_feeding_the_watchdog() -> None:
    """The node feeds the watchdog from its sweep loop, so a hung reader stops the feeding
    (systemd then restarts the node) instead of a thread ticking on regardless."""
    reader = StuckReader()
    publisher = InventoryPublisher(table="t1", node="n1", transport=ListTransport())
    node = Node([reader], publisher)
    beats: list[float] = []
    stop = threading.Event()
    sweeper = threading.Thread(target=node.run, args=(stop, 0.001, lambda: beats.append(1)))
    sweeper.start()
    try:
        deadline = time.monotonic() + 5
        while len(beats) < 5:
            assert time.monotonic() < deadline, "the sweep loop never called alive()"
            time.sleep(0.01)
        reader.stuck.set()
        time.sleep(0.1)  # the sweep under way ends; the next one hangs
        hung_at = len(beats)
        time.sleep(0.3)
        assert len(beats) == hung_at
    finally:
        stop.set()
        reader.released.set()
        sweeper.join(5)
