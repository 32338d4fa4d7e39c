"""Pages across hubs (issue 19), in a real headless Chromium: a page follows its table to
the hub that serves it now, so a producer's overlay URL keeps working across a failover.

A card room of two ``feltwire hub`` processes on a PostgreSQL and a Mosquitto of the
test's own: table ``t1`` is served by hub A, ``feltwire node`` (simulated) deals it, the
test is its dealer at the console (wherever ``/tables`` says the table is), and the
overlay is held back 15 s. The producer's overlay and the room's TV (the public view) are
open on A; once the overlay shows the delayed picture A is SIGKILLed. Hub B takes the
table, and both pages move to B by themselves — same path, token and table — and are live
again there; the overlay goes on with the delayed picture, never the live one: every hole
card the page ever drew, on A or on B, was read at the table at least the delay before
the page drew it (the node's own time of the read, against the browser's clock: the
same machine's).

On a hub alone a page whose feed closes (the hub killed and started again) reconnects to
the same hub, as ever: it does not navigate.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import paho.mqtt.client as paho
import pytest

from feltwire.deck import simulated_deck
from tests.support.cluster import (
    ReadsListener,
    RoomDealer,
    RoomHub,
    nodes_for,
    write_room_hub_config,
)
from tests.support.mosquitto import MosquittoProcess
from tests.support.postgres import PostgresServer, postgres_server
from tests.support.table_procs import TOKEN, hub_and_node, persistent_broker, rules

pytestmark = pytest.mark.timeout(420)

DELAY_MINUTES = 0.25
DELAY_S = DELAY_MINUTES * 60
STEP = 0.6
"""The node's dealer: seconds between two motions."""
WAIT = 120.0
"""Generous bound for the room to reach a state (not a timing assertion)."""
CLOCK_SLACK_S = 0.005
"""The browser's Date.now() is whole milliseconds (rounded down)."""

PLATE_CARDS = ".seat[data-seat] [data-field=cards] .card[data-card]"
"""The hole cards on the overlay's plates."""
WATCH = """
(() => {
  let said = null;
  let before = new Set();
  const look = () => {
    const status = document.getElementById("status");
    if (status && status.textContent !== said) {
      said = status.textContent;
      window.feltwireSaid(location.origin, location.pathname, said);
    }
    if (location.pathname !== "/overlay") return;
    const now = new Set();
    const plates = "PLATE_CARDS";
    for (const e of document.querySelectorAll(plates)) {
      now.add(e.closest(".seat").dataset.seat + " " + e.dataset.card);
    }
    const at = Date.now();
    for (const key of now) {
      if (!before.has(key)) {
        const [seat, card] = key.split(" ");
        window.feltwireDrew(location.origin, Number(seat), card, at);
      }
    }
    before = now;
  };
  const all = { childList: true, subtree: true, attributes: true, characterData: true };
  new MutationObserver(look).observe(document, all);
})();
""".replace("PLATE_CARDS", PLATE_CARDS)
"""Run in every document of the test's pages (A's and B's): each status text the page
shows, and every hole card the overlay draws on a plate with the browser's time it
appeared."""


class HoleReads(ReadsListener):
    """Every read the node publishes on the seats' antennas (subscribed before it starts):
    for each (seat, card), the node's times (``ts``) of the reads that had it there."""

    def __init__(self, port: int) -> None:
        self.deck = simulated_deck()
        self.reads: dict[tuple[int, str], list[float]] = {}
        super().__init__(port, "hole-reads")

    def heard(self, message: paho.MQTTMessage) -> None:
        body = json.loads(message.payload)
        reader = str(body["reader"])
        if not reader.startswith("seat"):
            return
        with self._lock:
            for uid in body["uids"]:
                card = self.deck.card_for(uid)
                if card is not None:
                    self.reads.setdefault((int(reader[4:]), card), []).append(float(body["ts"]))

    def first_read(self, seat: int, card: str) -> float | None:
        """When the node first read ``card`` on seat ``seat``'s antenna (None: never)."""
        with self._lock:
            times = self.reads.get((seat, card))
            return min(times) if times else None


class Seen:
    """What the pages showed: the overlay's hole cards (origin, seat, card, the browser's
    time in s) and each page's status texts (origin, path, text), in order."""

    def __init__(self) -> None:
        self.cards: list[tuple[str, int, str, float]] = []
        self.said: list[tuple[str, str, str]] = []

    def drew(self, origin: str, seat: int, card: str, at_ms: float) -> None:
        self.cards.append((origin, seat, card, at_ms / 1000))

    def say(self, origin: str, path: str, text: str) -> None:
        self.said.append((origin, path, text))

    def texts(self, origin: str, path: str) -> list[str]:
        """The status texts the page at ``path`` showed on ``origin``, in order."""
        return [t for o, p, t in self.said if (o, p) == (origin, path)]


@pytest.fixture
def pg() -> Iterator[PostgresServer]:
    with postgres_server() as server:
        yield server


def room_hub(tmp_path: Path, name: str, pg_url: str, broker_url: str) -> RoomHub:
    d = tmp_path / name
    d.mkdir()
    config, port = write_room_hub_config(
        d,
        name,
        broker_url=broker_url,
        pg_url=pg_url,
        tables=["t1"],
        settle_s=0,
        overlay_delay_minutes=DELAY_MINUTES,
    )
    return RoomHub(name, config, port, d / "hub.log")


async def until(check: Callable[[], Awaitable[Any]], *, what: str, wait: float = WAIT) -> Any:
    """``check()``'s first truthy answer within ``wait`` seconds (fails, naming ``what``)."""
    try:
        async with asyncio.timeout(wait):
            while not (got := await check()):
                await asyncio.sleep(0.2)
            return got
    except TimeoutError:
        pytest.fail(f"waited {wait:.0f} s for {what}")


async def evaluate(page: Any, script: str) -> Any:
    """``script`` in the page, None while it navigates (no document to ask)."""
    try:
        return await page.evaluate(script)
    except Exception:  # the page's context went with a navigation
        return None


def owner(hub: RoomHub) -> str | None:
    listed = hub.tables()
    return next((t["hub"] for t in listed or () if t["table"] == "t1"), None)


def room_named(hub: RoomHub, urls: list[str]) -> bool:
    """Whether ``hub``'s ``/tables`` may be read from any origin and names the hubs at
    ``urls`` (its Link header)."""
    try:
        answer = httpx.get(f"{hub.url}/tables", headers={"Origin": "http://obs"}, timeout=5)
    except httpx.HTTPError:
        return False
    links = answer.headers.get("link", "")
    assert answer.headers["access-control-allow-origin"] == "*"
    return all(f'<{u}/tables>; rel="alternate"' in links for u in urls)


def live_hand(hub: RoomHub) -> int | None:
    """t1's live hand number as ``hub`` serves it (None: it does not)."""
    try:
        response = httpx.get(f"{hub.url}/api/public?table=t1", timeout=5)
    except httpx.HTTPError:
        return None
    return int(rules(response.json())["hand"]) if response.status_code == 200 else None


async def test_the_overlay_and_the_tv_follow_their_table_when_its_hub_dies(
    browser: Any, tmp_path: Path, pg: PostgresServer
) -> None:
    pg_url = pg.new_database()
    broker = persistent_broker(tmp_path)
    broker.start()
    reads = HoleReads(broker.port)
    a = room_hub(tmp_path, "hub-a", pg_url, broker.url)
    b = room_hub(tmp_path, "hub-b", pg_url, broker.url)
    (node,) = nodes_for(tmp_path, broker.url, ["t1"], step_seconds=STEP)
    dealer = RoomDealer([a, b], ["t1"])
    seen = Seen()
    context = await browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        await asyncio.to_thread(a.start)
        await until(lambda: asyncio.to_thread(lambda: owner(a) == "hub-a"), what="A to serve t1")
        await asyncio.to_thread(b.start)
        # any hub of the room names the room's hubs, to pages of any origin
        await until(
            lambda: asyncio.to_thread(room_named, b, [a.url, b.url]), what="B to name A and B"
        )
        await asyncio.to_thread(node.start)
        dealer.start()
        await context.expose_function("feltwireDrew", seen.drew)
        await context.expose_function("feltwireSaid", seen.say)
        await context.add_init_script(WATCH)
        overlay = await context.new_page()
        await overlay.goto(f"{a.url}/overlay?token={TOKEN}&table=t1&lang=en")
        tv = await context.new_page()
        await tv.goto(f"{a.url}/?lang=cs")  # no ?table=: A's first table, t1; in Czech
        await tv.wait_for_selector("#status[data-state='live']", timeout=WAIT * 1000)
        # the overlay shows the delayed picture: a hand, and hole cards on the plates
        await until(
            lambda: evaluate(overlay, "document.body.dataset.hand"), what="a hand on the overlay"
        )
        await until(lambda: cards_on_plates(overlay), what="hole cards on the overlay's plates")
        at_kill = await asyncio.to_thread(live_hand, a)
        assert at_kill is not None
        await asyncio.to_thread(a.kill9)
        killed = time.time()

        # both pages move to B by themselves and are live again there
        async def on_b(page: Any, live: str) -> bool:
            return page.url.startswith(b.url + "/") and await evaluate(page, live) is True

        overlay_live = "document.body.dataset.status === 'live'"
        tv_live = "document.getElementById('status').dataset.state === 'live'"
        await until(lambda: on_b(overlay, overlay_live), what="the overlay live on B")
        await until(lambda: on_b(tv, tv_live), what="the public view live on B")
        assert await asyncio.to_thread(owner, b) == "hub-b"
        moved = urlsplit(overlay.url)
        assert moved.path == "/overlay"
        assert parse_qs(moved.query) == {"token": [TOKEN], "table": ["t1"], "lang": ["en"]}
        moved = urlsplit(tv.url)
        assert moved.path == "/"
        assert parse_qs(moved.query) == {"lang": ["cs"], "table": ["t1"]}
        # the TV shows the live table at B
        await until(
            lambda: on_b_hand(tv, b),
            what="the public view at B to show B's live hand",
        )
        # the overlay goes on, held back: a hand dealt after the kill comes out at B
        await until(
            lambda: overlay_hand_past(overlay, at_kill),
            what=f"the overlay at B to show a hand after hand {at_kill}",
        )
        shown = int(await evaluate(overlay, "document.body.dataset.hand"))
        live = await asyncio.to_thread(live_hand, b)
        assert live is not None and shown <= live
    finally:
        await context.close()
        dealer.stop()
        node.stop()
        for hub in (a, b):
            hub.stop()
        reads.close()
        broker.stop()
    # while they looked the pages said so, then where they went — in their language
    overlay_said = seen.texts(a.url, "/overlay")
    assert "reconnecting…" in overlay_said, overlay_said
    assert overlay_said[-1] == "moving to hub hub-b…", overlay_said
    tv_said = seen.texts(a.url, "/")
    assert "znovu se připojuji…" in tv_said, tv_said
    assert tv_said[-1] == "přecházím na hub hub-b…", tv_said
    # no hole card on the overlay before its delay, from A or from B
    assert {o for o, *_ in seen.cards} == {a.url, b.url}, seen.cards
    early = []
    for origin, seat, card, at in seen.cards:
        first = reads.first_read(seat, card)
        if first is None or at - first < DELAY_S - CLOCK_SLACK_S:
            early.append((origin, seat, card, None if first is None else round(at - first, 3)))
    assert early == [], f"hole cards drawn before the {DELAY_S:.0f} s delay: {early}"
    for hub in (a, b):  # for the record (pytest -s)
        firsts = [(reads.first_read(s, c) or at, at) for o, s, c, at in seen.cards if o == hub.url]
        held = sum(1 for read, _ in firsts if read < killed)
        print(
            f"{hub.name}: {len(firsts)} hole cards drawn ({held} read before the kill), "
            f"each {min(at - read for read, at in firsts):.2f} s or more after its read"
        )


async def on_b_hand(page: Any, b: RoomHub) -> bool:
    """Whether the public view shows t1's live hand as B serves it."""
    shown = await evaluate(page, "document.getElementById('hand-no').dataset.hand")
    live = await asyncio.to_thread(live_hand, b)
    return shown is not None and live is not None and shown == str(live)


async def cards_on_plates(page: Any) -> bool:
    """Whether the overlay shows hole cards on its plates."""
    return bool(await evaluate(page, f"document.querySelectorAll('{PLATE_CARDS}').length"))


async def overlay_hand_past(page: Any, hand: int) -> bool:
    """Whether the overlay shows a hand after ``hand``, its hole cards on the plates."""
    shown = await evaluate(page, "document.body.dataset.hand")
    return bool(shown) and int(shown) > hand and await cards_on_plates(page)


async def test_on_a_hub_alone_a_closed_feed_reconnects_to_the_same_hub(
    browser: Any, tmp_path: Path
) -> None:
    broker = MosquittoProcess(tmp_path)
    broker.start()
    hub, _ = hub_and_node(tmp_path, broker.url, seed=1, step_seconds=STEP)
    context = await browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        await asyncio.to_thread(hub.start)
        tv = await context.new_page()
        overlay = await context.new_page()
        urls = {
            tv: f"{hub.url}/?table=t1&lang=en",
            overlay: f"{hub.url}/overlay?token={TOKEN}&lang=en",
        }
        navigated: list[str] = []
        for page, url in urls.items():
            await page.goto(url)
            page.on("framenavigated", lambda frame: navigated.append(frame.url))
        states = {
            tv: "document.getElementById('status').dataset.state",
            overlay: "document.body.dataset.status",
        }

        async def all_say(state: str) -> bool:
            return all([await evaluate(page, js) == state for page, js in states.items()])

        await until(lambda: all_say("live"), what="the pages live")
        for page in urls:
            await page.evaluate("window.stayed = true")
        await asyncio.to_thread(hub.kill9)
        await until(lambda: all_say("reconnecting"), what="the pages reconnecting")
        await asyncio.to_thread(hub.start)  # the same port: the same hub, back
        await until(lambda: all_say("live"), what="the pages live again")
        for page, url in urls.items():
            assert page.url == url
            assert await page.evaluate("window.stayed") is True  # the same document
        assert navigated == []
    finally:
        await context.close()
        hub.stop()
        broker.stop()
