"""``/metrics`` of a running hub, read as the operator's Prometheus reads it (issue 15,
acceptance 2): a real hub, a simulated node dealing through the hub's broker, the dealer
at the console over HTTP, the figures scraped over HTTP and parsed with
``prometheus_client``'s own parser — and each figure moved by what happened at the table."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect

from feltwire.protocol import reader_tags_topic
from hub.config import WebSettings
from hub.web.auth import Role
from tests.support.room import DECK, Room, room

METRICS_TOKEN = "prometheus-scrape-token-0123456789"

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def parse(text: str) -> Samples:
    """Every sample of a scrape, by name and labels (the table label left out)."""
    out: Samples = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            labels = tuple(sorted((k, v) for k, v in s.labels.items() if k != "table"))
            out[(s.name, labels)] = s.value
    return out


async def scrape(r: Room, **headers: str) -> httpx.Response:
    auth = headers or {"Authorization": f"Bearer {METRICS_TOKEN}"}
    return await asyncio.to_thread(httpx.get, f"{r.hub.web_url}/metrics", headers=auth, timeout=10)


async def figures(r: Room) -> Samples:
    response = await scrape(r)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return parse(response.text)


def moved(before: Samples, after: Samples) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The samples that changed, by how much (a new sample counts from 0)."""
    return {
        key: value - before.get(key, 0.0)
        for key, value in after.items()
        if value != before.get(key, 0.0)
    }


def counters_only(delta: dict[tuple[str, tuple[tuple[str, str], ...]], float]) -> dict[str, float]:
    """The changes of the counters, as ``name{label=value}`` (the histograms left out)."""
    return {
        name + ("{" + ",".join(f"{k}={v}" for k, v in labels) + "}" if labels else ""): d
        for (name, labels), d in delta.items()
        if name.endswith("_total")
        and not name.startswith(("feltwire_read_to_frame", "feltwire_event_log_append"))
    }


async def send_raw(r: Room, topic: str, payload: bytes) -> None:
    """One message to the hub's broker from a plain client of the test's (not a node: no
    availability, no will); waits until the hub has handled it."""
    broker = r.hub.broker
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id="metrics-test-sender")
    client.connect(broker.host, broker.port)
    client.loop_start()
    try:
        handled = r.hub.service.handled + 1
        info = client.publish(topic, payload, qos=1, retain=False)
        await asyncio.to_thread(info.wait_for_publish, 10)
        assert await asyncio.to_thread(r.hub.service.wait_handled, handled, 10)
    finally:
        client.loop_stop()
        client.disconnect()


def histogram_count(samples: Samples, name: str) -> float:
    return samples.get((f"{name}_count", ()), 0.0)


@pytest.fixture
def web() -> Iterator[WebSettings]:
    yield WebSettings(port=0, metrics_token=METRICS_TOKEN, token_secret="s" * 32)


async def test_metrics_move_as_reads_alerts_and_a_hand_happen(
    web: WebSettings, tmp_path: Path
) -> None:
    """Each figure is there from the start; then each step at the table moves exactly
    the figures it should, by exactly what a floor manager would count."""
    async with room(web, live_equity=False, state_dir=tmp_path) as r:
        await r.sweep()  # the node's first sweep: every antenna's (empty) inventory
        start = await figures(r)
        names = {name for name, _ in start}
        for figure in (
            "feltwire_messages_received_total",
            "feltwire_reads_accepted_total",
            "feltwire_reads_lost_total",
            "feltwire_tags_refused_total",
            "feltwire_hands_total",
            "feltwire_hands_stored_total",
            "feltwire_nodes_online",
            "feltwire_websocket_clients",
            "feltwire_read_to_frame_seconds_bucket",
            "feltwire_event_log_append_seconds_bucket",
        ):
            assert figure in names, figure
        assert start[("feltwire_nodes_online", ())] == 1
        assert start[("feltwire_hands_total", (("outcome", "finished"),))] == 0

        # the hole cards: six reads, one per card
        await r.deal()
        dealt = await figures(r)
        assert counters_only(moved(start, dealt)) == {
            "feltwire_messages_received_total": 6,
            "feltwire_reads_accepted_total": 6,
        }
        # each changed an antenna: six frames on the feeds, timed; logged, timed
        assert (
            histogram_count(dealt, "feltwire_read_to_frame_seconds")
            - histogram_count(start, "feltwire_read_to_frame_seconds")
            == 6
        )
        assert histogram_count(dealt, "feltwire_event_log_append_seconds") > histogram_count(
            start, "feltwire_event_log_append_seconds"
        )

        # a card laid on seat 5, which is not in the hand, and taken back: two reads, one
        # alert of the rules
        r.table.reader("seat5").place(DECK.uid_for("9s"))
        await r.sweep()
        r.table.reader("seat5").lift(DECK.uid_for("9s"))
        await r.sweep()
        empty_seat = await figures(r)
        assert counters_only(moved(dealt, empty_seat)) == {
            "feltwire_messages_received_total": 2,
            "feltwire_reads_accepted_total": 2,
            "feltwire_alerts_total{code=card_to_empty_seat}": 1,
        }

        # a message for an antenna the table does not have: refused, by its reason
        await send_raw(r, reader_tags_topic("t1", "n", "seat99"), b'{"v": 1}')
        refused = await figures(r)
        assert counters_only(moved(empty_seat, refused)) == {
            "feltwire_messages_received_total": 1,
            "feltwire_messages_refused_total{reason=unknown_reader}": 1,
        }

        # the button and the small blind fold at the muck, the big blind mucks: the hand
        # is played (three sweeps, each read on the seat's and the muck's antenna)
        sb, bb, button = r.seats
        for seat in (button, sb, bb):
            for card in r.held[seat]:
                r.table.move(DECK.uid_for(card), f"seat{seat}", "muck")
            await r.sweep()
        book = r.hub.service.hand_book  # the store takes the hand in its writer thread
        for _ in range(1000):
            await asyncio.to_thread(book.flush)
            if book.written:
                break
            await asyncio.sleep(0.01)
        played = await figures(r)
        assert counters_only(moved(refused, played)) == {
            "feltwire_messages_received_total": 6,
            "feltwire_reads_accepted_total": 6,
            "feltwire_hands_total{outcome=finished}": 1,
            "feltwire_hands_stored_total{result=written}": 1,
        }

        # between hands, a tag that is not in the deck on the board: the read is taken,
        # the tag refused, and the hub's security alert sent
        r.table.reader("board").place("DEADBEEF")
        await r.sweep()
        unknown = await figures(r)
        assert counters_only(moved(played, unknown)) == {
            "feltwire_messages_received_total": 1,
            "feltwire_reads_accepted_total": 1,
            "feltwire_tags_refused_total{reason=unknown_tag}": 1,
            "feltwire_alerts_total{code=unknown_tag}": 1,
        }
        assert unknown[("feltwire_nodes_online", ())] == 1


async def test_websocket_clients_are_counted_by_feed(web: WebSettings) -> None:
    """A TV on the public view, the dealer's console and the producer's overlay: one
    client on each feed while they are open, none after they close."""
    async with room(web, live_equity=False) as r:
        ws = r.hub.web_url.replace("http://", "ws://")
        producer = r.hub.token(Role.PRODUCER)

        def clients(samples: Samples) -> dict[str, float]:
            return {
                dict(labels)["feed"]: value
                for (name, labels), value in samples.items()
                if name == "feltwire_websocket_clients"
            }

        assert clients(await figures(r)) == {"public": 0, "console": 0, "overlay": 0}
        async with (
            connect(f"{ws}/ws/public") as public,
            connect(f"{ws}/ws/console?token={r.dealer}") as console,
            connect(f"{ws}/ws/overlay?token={producer}") as overlay,
        ):
            for page in (public, console, overlay):
                json.loads(await page.recv())  # its snapshot: it is subscribed
            assert clients(await figures(r)) == {"public": 1, "console": 1, "overlay": 1}
        for _ in range(100):
            if clients(await figures(r)) == {"public": 0, "console": 0, "overlay": 0}:
                break
            await asyncio.sleep(0.05)
        assert clients(await figures(r)) == {"public": 0, "console": 0, "overlay": 0}


async def test_metrics_need_the_metrics_token_or_an_admin(web: WebSettings) -> None:
    """No credential: 401; a dealer's token: 403; a wrong bearer token: 401; the
    configured metrics token or an admin's token: the figures."""
    async with room(web, live_equity=False) as r:
        assert (await scrape(r, Accept="text/plain")).status_code == 401
        dealer = await scrape(r, Authorization=f"Bearer {r.dealer}")
        assert dealer.status_code == 403
        wrong = await scrape(r, Authorization="Bearer not-the-metrics-token-at-all")
        assert wrong.status_code == 401
        for bearer in (METRICS_TOKEN, r.hub.token(Role.ADMIN)):
            ok = await scrape(r, Authorization=f"Bearer {bearer}")
            assert ok.status_code == 200
            assert "feltwire_reads_accepted_total" in ok.text


async def test_healthz_names_what_it_checked(web: WebSettings) -> None:
    async with room(web, live_equity=False) as r:
        response = await asyncio.to_thread(httpx.get, f"{r.hub.web_url}/healthz", timeout=10)
        assert response.status_code == 200
        body = response.json()
        assert body["status"] == "ok" and body["checks"] == {"event_loop": "ok"}
        assert body["tables"] == ["t1"] and body["uptime_s"] >= 0


async def test_two_hubs_in_one_process_keep_their_own_figures(web: WebSettings) -> None:
    """Each hub has a registry of its own: a read at one table moves only its figures."""
    async with room(web, live_equity=False) as one, room(web, live_equity=False) as two:
        await one.sweep()
        first, second = await figures(one), await figures(two)
        assert first[("feltwire_reads_accepted_total", ())] == 13  # one per antenna
        assert second[("feltwire_reads_accepted_total", ())] == 0
