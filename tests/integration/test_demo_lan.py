"""Issue 17: ``feltwire demo --host 0.0.0.0`` prints addresses a phone on the LAN can open
— this machine's own LAN addresses — not 127.0.0.1 (which on the phone is the phone).
The test reads the banner only: it sends nothing to those addresses."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from simulator.lan import lan_addresses

ROOT = Path(__file__).resolve().parents[2]


def test_a_demo_on_every_interface_prints_the_lan_addresses() -> None:
    mine = lan_addresses()
    if not mine:
        pytest.skip("this machine has no LAN address")
    proc = subprocess.Popen(
        [sys.executable, "-m", "feltwire", "demo", "--host", "0.0.0.0", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env=os.environ | {"PYTHONUNBUFFERED": "1"},
    )
    banner: list[str] = []
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            banner.append(line.rstrip("\n"))
            if line.lstrip().startswith("mistakes"):
                break
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    urls = [m.group(1) for ln in banner if (m := re.search(r": (http://\S+)", ln))]
    assert len(urls) >= 3, banner
    hosts = {urlsplit(u).hostname for u in urls}
    assert "127.0.0.1" not in hosts and hosts <= set(mine), banner
    assert urlsplit(urls[0]).hostname == mine[0]
