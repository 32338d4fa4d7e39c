"""Shared fixtures: free ports and real Mosquitto processes started by the tests."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest


def free_port() -> int:
    """A TCP port nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_port(port: int, timeout: float = 10.0) -> None:
    """Block until something accepts connections on 127.0.0.1:port."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.02)
    raise TimeoutError(f"nothing listening on port {port} after {timeout} s")


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


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[MosquittoProcess]:
    """A fresh Mosquitto on a free port, stopped after the test."""
    broker = MosquittoProcess(tmp_path)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


CHROMIUM = next(
    (p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if os.path.exists(p)),
    "/usr/bin/chromium",
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (scripts/test installs it)."""
    from playwright.async_api import async_playwright

    if not os.path.exists(CHROMIUM):  # noqa: ASYNC240 - a single stat at setup
        pytest.fail("chromium is not installed: run ./scripts/test, which installs it")
    async with async_playwright() as pw:
        b = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            await b.close()
