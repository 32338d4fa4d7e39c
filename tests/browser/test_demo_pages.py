"""The README's demo command shows all three pages with a simulated table playing.

``./scripts/demo`` is started once, as a user would (on a free port, with short pauses);
the URLs it prints are what the tests open: the public view, the dealer console (with a
dealer token) and the producer's overlay (with the producer token). The simulated players
act through the console's HTTP API while the pages are open; the demo's own config shows
hole cards live on the overlay, and nowhere else.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from tests.support.pages import ws_url

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
PAGES = ("public view", "dealer console", "overlay")
WAIT = 120.0
"""Seconds to wait for something the demo does (a loaded two-core machine is slow)."""

Frame = dict[str, Any]


@dataclass
class RunningDemo:
    """The demo process, its printed banner and the three page URLs it names."""

    proc: subprocess.Popen[str]
    banner: list[str]
    urls: dict[str, str]


@pytest.fixture(scope="module")
def demo() -> Iterator[RunningDemo]:
    """``./scripts/demo --port 0`` running until the module's tests are done."""
    readme = (ROOT / "README.md").read_text()
    assert "./scripts/demo" in readme
    with tempfile.TemporaryFile("w+") as errors:
        proc = subprocess.Popen(
            [str(ROOT / "scripts" / "demo"), "--port", "0", "--step-seconds", "0.02"],
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            cwd=ROOT,
            env=os.environ | {"PYTHONUNBUFFERED": "1"},
        )
        try:
            assert proc.stdout is not None
            banner: list[str] = []
            deadline = time.monotonic() + WAIT
            while time.monotonic() < deadline:
                line = proc.stdout.readline()
                if not line:
                    break
                banner.append(line.rstrip("\n"))
                if line.lstrip().startswith("mistakes"):  # the banner's last line
                    break
            urls = {}
            for line in banner:
                m = re.match(r"\s+(public view|dealer console|overlay)\s*: (http://\S+)$", line)
                if m:
                    urls[m.group(1)] = m.group(2)
            if set(urls) != set(PAGES):
                errors.seek(0)
                pytest.fail(f"the demo printed {banner}; stderr: {errors.read()[-2000:]}")
            yield RunningDemo(proc, banner, urls)
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                rc = proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                raise
        errors.seek(0)
        assert rc == 0, errors.read()[-2000:]


async def frames_until(
    ws: ClientConnection, done: Callable[[Frame], bool], *, seen: list[Frame]
) -> Frame:
    """Read frames (each kept in ``seen``) until one satisfies ``done``; that frame."""
    async with asyncio.timeout(WAIT):
        while True:
            frame: Frame = json.loads(await ws.recv())
            seen.append(frame)
            if done(frame):
                return frame


def hole_cards_in(frame: Frame) -> list[str]:
    """The hole cards a feed frame names: cards on a seat antenna, or a card dealt to a
    seat face down."""
    if frame.get("type") == "snapshot":
        return [
            c for a in frame.get("antennas", []) if a["kind"] == "seat" for c in a.get("cards", [])
        ]
    if frame.get("type") == "antenna" and frame.get("kind") == "seat":
        return list(frame.get("cards", []))
    if frame.get("event") == "HoleCardDealt" and not frame.get("up") and frame.get("card"):
        return [frame["card"]]
    return []


def test_the_demo_prints_the_three_pages_and_says_hole_cards_are_live(demo: RunningDemo) -> None:
    urls = demo.urls
    base = urls["public view"].rstrip("/")
    assert urls["public view"] == base + "/"
    assert re.fullmatch(re.escape(base) + r"/console\?token=fwt1\.\S+", urls["dealer console"])
    assert re.fullmatch(re.escape(base) + r"/overlay\?token=\S+", urls["overlay"])
    text = "\n".join(demo.banner).lower()
    assert "hole cards are live" in text and "demo" in text
    # each token opens its own page and no more: the dealer's cannot open the overlay
    dealer = urlsplit(urls["dealer console"]).query
    with httpx.Client(timeout=10, trust_env=False) as http:
        assert http.get(urls["overlay"]).status_code == 200
        assert http.get(f"{base}/overlay").status_code == 401
        assert http.get(f"{base}/overlay?{dealer}").status_code == 403


async def test_the_public_view_shows_the_players_acting_and_hands_ending(
    demo: RunningDemo,
) -> None:
    url = demo.urls["public view"]
    async with httpx.AsyncClient(timeout=10, trust_env=False) as http:
        page = await http.get(url)
    assert page.status_code == 200
    seen: list[Frame] = []
    async with connect(ws_url(url, "/ws/public")) as ws:
        first = await frames_until(ws, lambda f: True, seen=seen)
        assert first["type"] == "snapshot"
        # the players' actions come in through the console API while the page is open…
        action = await frames_until(
            ws,
            lambda f: f.get("event") == "ActionTaken" and f.get("source") == "console",
            seen=seen,
        )
        assert action["seat"] in range(1, 7) and action["kind"]
        # …and a hand is played to its end: the pot goes to someone
        end = await frames_until(
            ws, lambda f: f.get("type") == "hand_end" and not f["voided"], seen=seen
        )
        assert end["awards"] and len(end["stacks"]) == 6
    assert not [f for f in seen if hole_cards_in(f)], "the public feed named a hole card"


async def test_the_overlay_shows_hole_cards_at_once(demo: RunningDemo) -> None:
    url = demo.urls["overlay"]
    async with httpx.AsyncClient(timeout=10, trust_env=False) as http:
        assert (await http.get(url)).status_code == 200
    seen: list[Frame] = []
    async with connect(ws_url(url, "/ws/overlay")) as ws:
        first = await frames_until(ws, lambda f: True, seen=seen)
        assert first["type"] == "snapshot" and first["delay_s"] == 0
        frame = await frames_until(ws, lambda f: bool(hole_cards_in(f)), seen=seen)
    assert all(re.fullmatch(r"[2-9TJQKA][cdhs]", c) for c in hole_cards_in(frame))


async def test_the_dealer_console_warns_that_hole_cards_are_live(demo: RunningDemo) -> None:
    url = demo.urls["dealer console"]
    async with httpx.AsyncClient(timeout=10, trust_env=False) as http:
        page = await http.get(url)
    assert page.status_code == 200, page.text[:200]
    seen: list[Frame] = []
    async with connect(ws_url(url, "/ws/console")) as ws:
        state = await frames_until(ws, lambda f: True, seen=seen)
        assert state["live_hole_cards"] is True
        # the console sees the players' actions too (entered through its own API)
        await frames_until(ws, lambda f: f.get("event") == "ActionTaken", seen=seen)


async def test_screenshots_of_the_three_pages(demo: RunningDemo, browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for name, shot in zip(PAGES, ("public", "console", "overlay"), strict=True):
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        received: list[object] = []

        def feed_opened(ws: Any, got: list[object] = received) -> None:
            ws.on("framereceived", lambda payload: got.append(payload))

        page.on("websocket", feed_opened)
        response = await page.goto(demo.urls[name])
        assert response is not None and response.status == 200, name
        # the page is live: its feed has sent the snapshot and the hand's changes since
        deadline = time.monotonic() + WAIT
        while len(received) < 5:
            assert time.monotonic() < deadline, f"the {name} page's feed sent {len(received)}"
            await asyncio.sleep(0.1)
        if shot in ("public", "console"):  # the demo's table has six seats, not ten
            await page.wait_for_selector("#seats .seat", timeout=WAIT * 1000)
            assert await page.locator("#seats .seat").count() == 6, shot
        await page.screenshot(path=str(ARTIFACTS / f"demo-{shot}.png"))
        await page.close()
