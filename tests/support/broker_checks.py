"""Steps the broker security tests take through :mod:`tests.support.mqtt_client`:
clients of several credentials at once, a client on the hub's persistent session, and
what a subscriber that comes later finds retained."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from tests.support.guarded_brokers import Guarded, TableSecrets
from tests.support.mqtt_client import QUIET, Client, connect

HUB_CLIENT_ID = "feltwire-hub-table1"
"""The MQTT client id of table1's hub: the broker keeps its session (and queue)."""


@contextmanager
def clients(broker: Guarded, secrets: TableSecrets, *who: str) -> Iterator[list[Client]]:
    """A client for each of the credentials ``who`` (keys of ``secrets.users``), in that
    order, each connected (asserted); all closed when the block ends."""
    connected = [connect(broker, secrets, secrets.users[key]) for key in who]
    try:
        assert all(c.connected.is_set() for c in connected), [c.refused for c in connected]
        yield connected
    finally:
        for client in connected:
            client.close()


def connect_on_hub_session(broker: Guarded, secrets: TableSecrets, who: str) -> Client:
    """Connect with the credential ``who`` under table1's hub client id, on a persistent
    session (clean session off): while it is away the broker queues its QoS 1 messages."""
    cred = secrets.users[who]
    return connect(broker, secrets, cred, client_id=HUB_CLIENT_ID, clean_session=False)


def leave_hub_session(broker: Guarded, secrets: TableSecrets, who: str, topic_filter: str) -> None:
    """Table1's hub connects on its persistent session, subscribes to ``topic_filter``
    (granted at QoS 1) and goes away: the broker now queues what comes for it."""
    hub = connect_on_hub_session(broker, secrets, who)
    assert hub.connected.is_set()
    assert hub.subscribe(topic_filter) == [1]
    hub.close()


def retained_for_late_subscriber(
    broker: Guarded, secrets: TableSecrets, who: str, topic_filter: str
) -> list[tuple[str, bytes]]:
    """What a client of the credential ``who`` connecting now gets on ``topic_filter``
    (its subscription granted at QoS 1) within :data:`~tests.support.mqtt_client.QUIET`
    seconds: the messages the broker kept retained there."""
    late = connect(broker, secrets, secrets.users[who])
    try:
        assert late.subscribe(topic_filter) == [1]
        time.sleep(QUIET)
        return list(late.messages)
    finally:
        late.close()
