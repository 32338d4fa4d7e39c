"""The hub's MQTT connections: one client (aiomqtt) per table served, on the table's own
persistent session, that feeds the table's application, reconnects when the broker goes
away and sends what the table queues (light commands, alerts, the public topic).

:func:`run_table_link` is the adapter the composition root starts for each table it
serves (and stops when the hub stops serving it); each table's
:class:`~hub.app.table_app.TableApp` only sees the messages of its own table.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from collections import deque
from collections.abc import Callable, Mapping, Sequence

import aiomqtt
import paho.mqtt.client as mqtt

from feltwire.brokers import BrokerRotation
from feltwire.config import MqttUrl
from feltwire.protocol import HUB_CLIENT_ID_PREFIX, TOPIC_PREFIX, reader_tags_filter
from hub.app.errors import LogUnavailable
from hub.app.table_app import TableApp
from hub.config import EVENT_LOG_BATCH, TlsFiles

log = logging.getLogger(__name__)


async def run_mqtt(
    services: TableApp | Mapping[str, TableApp],
    broker: MqttUrl | Sequence[MqttUrl],
    *,
    keepalive: int = 15,
    tls: TlsFiles | None = None,
    max_batch: int = EVENT_LOG_BATCH,
) -> None:
    """Link every table of ``services`` to the broker (:func:`run_table_link` each, side
    by side) until cancelled."""
    tables = [services] if isinstance(services, TableApp) else list(services.values())
    if not tables:
        raise ValueError("run_mqtt needs at least one table")
    links = [
        asyncio.create_task(
            run_table_link(t, broker, keepalive=keepalive, tls=tls, max_batch=max_batch),
            name=f"mqtt-{t.table}",
        )
        for t in tables
    ]
    try:
        await asyncio.gather(*links)
    finally:
        for link in links:
            link.cancel()


async def run_table_link(
    service: TableApp,
    broker: MqttUrl | Sequence[MqttUrl],
    *,
    keepalive: int = 15,
    tls: TlsFiles | None = None,
    max_batch: int = EVENT_LOG_BATCH,
) -> None:
    """Feed one table from the broker and send its messages; reconnects forever (until
    cancelled: the hub stops, or stops serving the table).

    The table has a connection of its own, client id ``feltwire-hub-<table>``, on a
    **persistent session**: while no hub is connected for the table — the hub restarts,
    or in a room of several hubs the table moves to another hub — the broker queues the
    table's reads for the session, and whichever hub serves the table next takes them.
    Each message is **acknowledged only once its input is in the event log** (or it was
    refused, or the log failed it: counted, as ever): a hub that dies, or loses the table,
    between receiving a read and logging it leaves it unacknowledged, and the broker
    delivers it again on the session's next connection. The hub drops what it already
    logged by (node, seq), so nothing is lost and nothing taken twice.

    It subscribes to the table's reader, button and node availability topics (a node's
    ``online``/``offline``, its last will), hands each message to the table's inbox,
    taken in order by a worker (:meth:`TableApp.take_batch`: up to ``max_batch`` waiting
    together in one transaction), and sends the table's outgoing messages. Over
    ``mqtts://`` the broker's certificate is checked against ``tls.ca_file`` (unset: the
    system CAs), and ``tls.cert_file``/``key_file`` prove the hub under mutual TLS. The
    table is told when the connection comes up and when it is lost
    (:meth:`TableApp.broker_connected`: the console's ``broker_lost``/``broker_back``).
    A table whose hub may not speak for it now (:meth:`TableApp.speaks`: a lease not
    confirmed) does not connect its session until it may. ``broker`` may be a list, the
    nodes of a broker cluster: the link moves to the next when its connection to one is
    refused or lost (:func:`_next_broker`).
    """
    if max_batch < 1:
        raise ValueError(f"max_batch must be at least 1, not {max_batch}")
    brokers = [broker] if isinstance(broker, MqttUrl) else list(broker)
    if not brokers:
        raise ValueError("a table's link needs at least one broker")
    table = service.table
    files = tls if tls is not None else TlsFiles()
    tls_params = (
        aiomqtt.TLSParameters(
            ca_certs=str(files.ca_file) if files.ca_file is not None else None,
            certfile=str(files.cert_file) if files.cert_file is not None else None,
            keyfile=str(files.key_file) if files.key_file is not None else None,
            cert_reqs=ssl.CERT_REQUIRED,
        )
        if brokers[0].tls  # a list's brokers: all mqtts:// or none (parse_mqtt_urls)
        else None
    )
    filters = [
        (reader_tags_filter(table), 1),
        (f"{TOPIC_PREFIX}/{table}/node/+/button", 1),
        (f"{TOPIC_PREFIX}/{table}/node/+/availability", 1),
    ]
    acks = Acks()
    # the table's event-log writes run in its own writer thread (TableApp): fsyncs of
    # several tables' files overlap, so the disk does not limit how many tables one hub
    # carries
    worker = asyncio.create_task(_take_messages(service, max_batch), name=f"ingest-{table}")
    try:
        await _serve_broker(service, brokers, keepalive, tls_params, filters, acks)
    finally:
        worker.cancel()


Ack = Callable[[], None]
"""Acknowledges one message to the broker (once its input is logged)."""


class Acks:
    """A table link's acknowledgements: each message's ack is good only on the connection
    it came on (message ids start again on a new connection; the broker delivers again
    what an old connection left unacknowledged)."""

    def __init__(self) -> None:
        self.connection = 0
        self._client: mqtt.Client | None = None

    def connected(self, client: mqtt.Client) -> None:
        """A new connection: acks of messages of earlier ones are dropped."""
        self.connection += 1
        self._client = client

    def of(self, mid: int, qos: int) -> Ack | None:
        """The ack of message ``mid`` received now at ``qos`` (None: nothing to ack)."""
        if qos == 0:
            return None
        connection, client = self.connection, self._client

        def ack() -> None:
            if client is not None and connection == self.connection:
                client.ack(mid, qos)

        return ack


async def _take_messages(service: TableApp, max_batch: int = EVENT_LOG_BATCH) -> None:
    """One table's worker: its messages in order as they come, those waiting together
    (``max_batch`` at most) taken as one batch (:meth:`TableApp.take_batch`: one
    transaction), then acknowledged to the broker. A batch whose handling fails (the event
    log cannot be written) is counted, logged, acknowledged and dropped; the table goes
    on with the next. A batch the table's hub may no longer log (another hub owns the
    table) is not acknowledged: the broker gives it to that hub."""
    while True:
        batch = [await service.inbox.get()]
        while len(batch) < max_batch and not service.inbox.empty():
            batch.append(service.inbox.get_nowait())
        try:
            await service.take_batch(
                [(topic, payload, retain) for topic, payload, retain, _ in batch]
            )
        except LogUnavailable:
            pass  # counted (failed), logged and told to the dealer by the service
        except Exception:
            service.count("failed", len(batch))
            service.throttle.error(
                "table %s: %d messages could not be taken",
                service.table,
                len(batch),
                exc_info=True,
                key="take",
            )
        if service.feeds.tenure is not None and service.feeds.tenure.lost:
            return  # unacknowledged: the broker hands them to the table's next hub
        for *_, ack in batch:
            if ack is not None:
                ack()


async def _serve_broker(
    service: TableApp,
    brokers: Sequence[MqttUrl],
    keepalive: int,
    tls_params: aiomqtt.TLSParameters | None,
    filters: list[tuple[str, int]],
    acks: Acks,
) -> None:
    """Connect, subscribe, put each message into the table's inbox, send the table's
    messages; reconnect forever (to the next broker of a list: :func:`_next_broker`)."""
    # the first broker, the next when one fails; after a round of failures 0.5 s doubled
    # up to 10 s (a hub of one broker: that backoff alone); up 5 s: a new count
    rotation = BrokerRotation(brokers, min_delay=0.5, max_delay=10.0)
    while True:
        broker = rotation.current
        # no session for a table whose hold is unconfirmed (a time on the monotonic clock,
        # not an event: looked at again every 0.1 s)
        while not service.speaks():  # noqa: ASYNC110
            await asyncio.sleep(0.1)
        try:
            client = aiomqtt.Client(
                broker.host,
                broker.port,
                username=broker.username,
                password=broker.password,
                identifier=f"{HUB_CLIENT_ID_PREFIX}{service.table}",
                # a persistent session: the broker queues reads while no hub takes them
                clean_session=False,
                keepalive=keepalive,
                tls_params=tls_params,
                protocol=aiomqtt.ProtocolVersion.V311,
                max_queued_incoming_messages=100_000,
            )
            paho_client = client._client  # aiomqtt's paho client, driven by this event loop
            paho_client.manual_ack_set(True)  # before CONNECT: the queued reads come at once
            async with client:
                acks.connected(paho_client)
                granted = await client.subscribe(filters)
                _check_granted(filters, granted)
                log.info("hub subscribed at %s for table %s", rotation.describe(), service.table)
                service.broker_connected(True)
                rotation.connected(now=asyncio.get_running_loop().time())
                sender = asyncio.create_task(_send_outgoing(service, client))
                try:
                    async for message in client.messages:
                        payload = message.payload
                        if not isinstance(payload, bytes | bytearray):
                            payload = str(payload).encode()
                        service.inbox.put_nowait(
                            (
                                str(message.topic),
                                bytes(payload),
                                bool(message.retain),
                                acks.of(message.mid, message.qos),
                            )
                        )
                finally:
                    sender.cancel()
        except aiomqtt.MqttError as exc:
            service.broker_connected(False, str(exc))
            await _next_broker(rotation, exc, service.table)


async def _next_broker(rotation: BrokerRotation, exc: aiomqtt.MqttError, table: str) -> None:
    """Table ``table``'s connection to ``rotation.current`` failed (``exc``): move to the
    next broker of the list, now or — once every broker failed in a row — after the
    backoff."""
    lost = rotation.describe()
    delay = rotation.failed(now=asyncio.get_running_loop().time())
    log.warning(
        "table %s: broker connection lost (%s) at %s; connecting to %s in %.1f s",
        table,
        exc,
        lost,
        rotation.describe(),
        delay,
    )
    await asyncio.sleep(delay)


def _check_granted(chunk: list[tuple[str, int]], granted: object) -> None:
    """Log each subscription the broker refused (its ACL gives the hub's credential no
    read right there: a table missing from the credential)."""
    codes = list(granted) if isinstance(granted, tuple | list) else []
    for (topic_filter, _), code in zip(chunk, codes, strict=False):
        value = getattr(code, "value", code)
        if isinstance(value, int) and value >= 0x80:
            log.error(
                "the broker refused the hub's subscription to %s: does the hub's credential "
                "cover this table?",
                topic_filter,
            )


async def _send_outgoing(service: TableApp, client: aiomqtt.Client) -> None:
    """Publish the hub's messages: the current lights first, then alerts that waited for
    the connection, then each new message as it comes.

    Each is handed to the connection's MQTT client (QoS 1) without waiting for the
    broker's acknowledgement before the next: aiomqtt's ``publish`` awaits each PUBACK
    (a round trip per message, and a timeout task per message on the event loop — an
    eighth of the loop's work at 50 tables). The client keeps the QoS 1 messages in
    flight itself; those not acknowledged when the connection ends are counted
    (``outgoing_unconfirmed``) and logged — the lights go out again in full on the next
    connection. When the hub may no longer speak for the table (:meth:`TableApp.speaks`)
    nothing more is sent and the connection is closed: the table's session waits at the
    broker for the hub that serves the table next, with what it holds unacknowledged."""
    waiting: list[tuple[str, bytes, bool]] = []
    while not service.outgoing.empty():
        message = service.outgoing.get_nowait()
        if not message[2]:
            waiting.append(message)  # light commands are superseded by the full state below
    mqtt_client = client._client  # aiomqtt's paho client, driven by this event loop
    sent: deque[mqtt.MQTTMessageInfo] = deque()
    try:
        for topic, payload, retain in service.light_messages() + waiting:
            _publish(mqtt_client, topic, payload, retain, sent)
        while True:
            topic, payload, retain = await service.outgoing.get()
            if not service.speaks():
                log.warning(
                    "table %s: this hub may not speak for it now; disconnecting", service.table
                )
                mqtt_client.disconnect()
                return
            _publish(mqtt_client, topic, payload, retain, sent)
    except aiomqtt.MqttError as exc:
        service.count("outgoing_unconfirmed")  # the message the client refused
        log.warning("could not send to the broker: %s", exc)
    finally:
        unconfirmed = sum(not info.is_published() for info in sent)
        if unconfirmed:
            service.count("outgoing_unconfirmed", unconfirmed)
            log.warning(
                "table %s: %d messages to the broker not acknowledged when the connection ended",
                service.table,
                unconfirmed,
            )


def _publish(
    mqtt_client: mqtt.Client,
    topic: str,
    payload: bytes,
    retain: bool,
    sent: deque[mqtt.MQTTMessageInfo],
) -> None:
    """Hand one message to the MQTT client (QoS 1); MqttCodeError when it refuses."""
    info = mqtt_client.publish(topic, payload, qos=1, retain=retain)
    if info.rc != mqtt.MQTT_ERR_SUCCESS:
        raise aiomqtt.MqttCodeError(info.rc, "Could not publish message")
    while sent and sent[0].is_published():
        sent.popleft()
    sent.append(info)
