"""Real Mosquitto processes started by the tests: each on a free port, with its own config
(the ``mosquitto`` fixture in ``tests/conftest.py`` hands one to a test)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.ports import free_port, wait_port


def mosquitto_binary() -> str:
    """The Mosquitto executable (scripts/test installs it when missing)."""
    found = shutil.which("mosquitto") or (
        "/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None
    )
    if found is None:
        pytest.fail("mosquitto is not installed: run ./scripts/test, which installs it")
    return found


class Mosquitto:
    """A Mosquitto broker of the test's own in ``workdir``: its config ``text`` (listening
    on ``port``) in ``mosquitto.conf``, its log in ``mosquitto.log``; started and stopped,
    and started again if need be."""

    def __init__(self, workdir: Path, port: int, text: str) -> None:
        self.port = port
        self.config = workdir / "mosquitto.conf"
        self.log = workdir / "mosquitto.log"
        # as root, Mosquitto would drop to its own user, which cannot use our tmp dir
        user = "user root\n" if os.geteuid() == 0 else ""
        self.config.write_text(f"{user}log_dest file {self.log}\n{text}")
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and wait until it listens; if it never does, fail with what it said."""
        self.proc = subprocess.Popen(
            [mosquitto_binary(), "-c", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            wait_port(self.port)
        except TimeoutError:
            self.proc.kill()
            _, err = self.proc.communicate()
            raise RuntimeError(f"mosquitto did not start: {err.decode()}") from None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.communicate(timeout=10)  # waits, and closes its stderr pipe
            self.proc = None


class MosquittoProcess(Mosquitto):
    """A Mosquitto broker of the test's own, on a free port, anonymous, with ``extra_config``
    (none: ``persistence false``)."""

    def __init__(self, workdir: Path, extra_config: str = "") -> None:
        port = free_port()
        super().__init__(
            workdir,
            port,
            f"listener {port} 127.0.0.1\nallow_anonymous true\n"
            f"{extra_config or 'persistence false'}\n",
        )

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"


TEMPLATE = Path(__file__).resolve().parents[2] / "systemd" / "mosquitto" / "feltwire.conf"
"""The Mosquitto configuration the project ships for a club (``systemd/mosquitto``)."""


def template_queue_settings(*, nodelay: bool = True) -> str:
    """The shipped template's queue and socket settings — the lines a flood and a busy
    room depend on (``nodelay`` False: without its ``set_tcp_nodelay``)."""
    keep = re.compile(
        r"^(max_queued_messages|max_queued_bytes|max_inflight_messages|set_tcp_nodelay)\b"
    )
    lines = [ln for ln in TEMPLATE.read_text().splitlines() if keep.match(ln)]
    assert len(lines) == 4, lines
    return "\n".join(ln for ln in lines if nodelay or not ln.startswith("set_tcp_nodelay"))
