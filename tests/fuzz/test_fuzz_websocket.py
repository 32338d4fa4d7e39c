"""Fuzzing the pages' WebSockets (issue 15): a real hub served over real HTTP, clients
of /ws/public, /ws/console (with a dealer token) and /ws/overlay (with the producer
token) sending any text and binary frames. A feed takes nothing from its clients:
each message is counted (``web_refusals["ws_client_message_ignored"]``), logged
(throttled) and ignored — the sender's socket stays open and keeps receiving, and so
does every other client. (Before the fix, one binary frame killed the socket with a
KeyError traceback from Starlette's ``receive_text`` and closed it without a close
frame.)"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from feltwire.deck import simulated_deck
from feltwire.protocol import reader_tags_topic
from hub.bootstrap import HubRuntime, start_hub
from hub.web import dependencies
from hub.web.auth import Role
from hub.web.dependencies import FEED_MESSAGE_IGNORED
from tests.support.fuzz_strategies import fuzz_settings
from tests.support.loop_thread import LoopThread
from tests.support.web_hub import app_of, hub_config

DECK = simulated_deck()
client_messages = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=300),
    st.sampled_from(["", "{}", "null", '{"type": "ack"}', "\x00", "ping"]),
)
frames = st.lists(client_messages, min_size=1, max_size=6)


class LiveHub:
    """A hub on an event loop in a thread of its own, and a way to make it publish."""

    def __init__(self) -> None:
        self.loop_thread: LoopThread[HubRuntime] = LoopThread(self._up, self._down, name="hub")
        self.seq = 1_733_000_000_000
        self.hub = self.loop_thread.start()

    async def _up(self) -> HubRuntime:
        import asyncio

        self.loop = asyncio.get_running_loop()
        return await start_hub(hub_config())

    async def _down(self, hub: HubRuntime) -> None:
        await hub.stop()

    def url(self, feed: str) -> str:
        base = self.hub.web_url.replace("http", "ws", 1)
        if feed == "console":
            return f"{base}/ws/console?token={self.hub.token(Role.DEALER)}"
        if feed == "overlay":
            return f"{base}/ws/overlay?token={self.hub.producer_token}"
        return f"{base}/ws/public"

    def publish_antenna(self) -> int:
        """Have a card come or go on the board (a public frame); its ``n``."""
        import asyncio

        service = self.hub.service
        self.seq += 1
        uids = [DECK.uid_for("As")] if self.seq % 2 else []
        payload = {
            "v": 1,
            "node": "n1",
            "seq": self.seq,
            "ts": 1.7e9,
            "reader": "burn",
            "uids": uids,
        }

        async def take() -> int:
            service.handle_message(
                reader_tags_topic(service.table, "n1", "burn"), json.dumps(payload).encode()
            )
            return service.changes

        return asyncio.run_coroutine_threadsafe(take(), self.loop).result(10)


@pytest.fixture(scope="module")
def live() -> Iterator[LiveHub]:
    hub = LiveHub()
    try:
        yield hub
    finally:
        hub.loop_thread.stop()


def receive_antenna(ws: ClientConnection, n: int) -> None:
    """Read until the antenna frame numbered ``n`` arrives (fail after 10 s)."""
    while True:
        frame = json.loads(ws.recv(timeout=10))
        if frame.get("type") == "antenna" and frame.get("n") == n:
            return


@pytest.mark.parametrize("feed", ["public", "console", "overlay"])
def test_whatever_a_client_sends_is_counted_and_every_client_keeps_receiving(
    live: LiveHub, feed: str, caplog: pytest.LogCaptureFixture
) -> None:
    counts = app_of(live.hub).state.web_refusals
    sent = [counts[FEED_MESSAGE_IGNORED]]
    with connect(live.url("public")) as observer, connect(live.url(feed)) as sender:
        observer.recv(timeout=10)
        sender.recv(timeout=10)

        @fuzz_settings(40)
        @given(messages=frames)
        def exchange(messages: list[str | bytes]) -> None:
            for message in messages:
                sender.send(message)
            sent[0] += len(messages)
            n = live.publish_antenna()
            receive_antenna(observer, n)
            if feed != "overlay":  # the overlay's frames wait out its delay
                receive_antenna(sender, n)
            sender.ping().wait(10)  # still open: the server answers
            deadline = time.monotonic() + 10  # the server reads them as they come
            while counts[FEED_MESSAGE_IGNORED] < sent[0] and time.monotonic() < deadline:
                time.sleep(0.01)
            assert counts[FEED_MESSAGE_IGNORED] == sent[0]

        left_out = dependencies._said.suppressed_total
        with caplog.at_level(logging.WARNING, logger="hub.web.dependencies"):
            exchange()
        # logged, a few lines a minute (the rest only counted: the journal is spared)
        logged = "a feed takes nothing from its clients; ignored" in caplog.text
        assert logged or dependencies._said.suppressed_total > left_out
