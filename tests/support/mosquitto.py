"""Real Mosquitto processes started by the tests: each on a free port, with its own config
(the ``mosquitto`` fixture in ``tests/conftest.py`` hands one to a test)."""

from __future__ import annotations

import os
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


class MosquittoProcess:
    """A Mosquitto broker of the test's own, on a free port, with its own config."""

    def __init__(self, workdir: Path, extra_config: str = "") -> None:
        self.port = free_port()
        self.config = workdir / "mosquitto.conf"
        self.log = workdir / "mosquitto.log"
        # as root, Mosquitto would drop to its own user, which cannot write in our tmp dir
        user = "user root\n" if os.geteuid() == 0 else ""
        self.config.write_text(
            f"{user}listener {self.port} 127.0.0.1\nallow_anonymous true\n"
            f"log_dest file {self.log}\n{extra_config or 'persistence false'}\n"
        )
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [mosquitto_binary(), "-c", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_port(self.port)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
            self.proc = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"
