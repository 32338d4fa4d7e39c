"""The hub's MQTT connection: one client (aiomqtt) that feeds the services of all the
hub's tables, reconnects when the broker goes away and sends what the services queue
(light commands, alerts, the public topic).

:func:`run_mqtt` is the adapter the composition root starts; each table's
:class:`~hub.app.table_app.TableApp` only sees the messages of its own table.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from collections import deque
from collections.abc import Mapping, Sequence

import aiomqtt
import paho.mqtt.client as mqtt

from feltwire.brokers import BrokerRotation
from feltwire.config import MqttUrl
from feltwire.protocol import (
    TOPIC_PREFIX,
    reader_tags_filter,
)
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
    """Feed every table of the hub from one broker connection; reconnects forever.

    The connection subscribes to each table's reader, button and node availability
    topics (a node's ``online``/``offline``, its last will), hands each
    message to the table its topic names (a topic of no table served here goes to the
    first table, whose ingest refuses it as ``bad_topic``), and sends every table's
    outgoing messages. Each table takes its messages in order in a worker of its own
    (:meth:`TableApp.take_message`), the tables side by side. Over ``mqtts://`` the
    broker's certificate is checked against ``tls.ca_file`` (unset: the system CAs),
    and ``tls.cert_file``/``key_file`` prove the hub under mutual TLS. Each table is
    told when the connection comes up and when it is lost
    (:meth:`TableApp.broker_connected`: the console's ``broker_lost``/``broker_back``).
    Up to ``max_batch`` of a table's messages waiting together are taken at once, their
    inputs logged in one transaction (``event_log_batch``; 1: one commit per message).
    ``broker`` may be a list, the nodes of a broker cluster: the hub moves to the next
    when its connection to one is refused or lost (:func:`_next_broker`).
    """
    if max_batch < 1:
        raise ValueError(f"max_batch must be at least 1, not {max_batch}")
    tables = {services.table: services} if isinstance(services, TableApp) else dict(services)
    if not tables:
        raise ValueError("run_mqtt needs at least one table")
    brokers = [broker] if isinstance(broker, MqttUrl) else list(broker)
    if not brokers:
        raise ValueError("run_mqtt needs at least one broker")
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
        (topic_filter, 1)
        for table in tables
        for topic_filter in (
            reader_tags_filter(table),
            f"{TOPIC_PREFIX}/{table}/node/+/button",
            f"{TOPIC_PREFIX}/{table}/node/+/availability",
        )
    ]
    # each table's event-log writes run in its own writer thread (TableApp): fsyncs of
    # several files overlap, so the disk does not limit how many tables one hub carries
    workers = [
        asyncio.create_task(_take_messages(service, max_batch), name=f"ingest-{service.table}")
        for service in tables.values()
    ]
    try:
        await _serve_broker(tables, brokers, keepalive, tls_params, filters)
    finally:
        for worker in workers:
            worker.cancel()


async def _take_messages(service: TableApp, max_batch: int = EVENT_LOG_BATCH) -> None:
    """One table's worker: its messages in order as they come, those waiting together
    (``max_batch`` at most) taken as one batch (:meth:`TableApp.take_batch`: one
    transaction). A batch whose handling fails (the event log cannot be written) is
    counted, logged and dropped; the table goes on with the next."""
    while True:
        batch = [await service.inbox.get()]
        while len(batch) < max_batch and not service.inbox.empty():
            batch.append(service.inbox.get_nowait())
        try:
            await service.take_batch(batch)
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


async def _serve_broker(
    tables: dict[str, TableApp],
    brokers: Sequence[MqttUrl],
    keepalive: int,
    tls_params: aiomqtt.TLSParameters | None,
    filters: list[tuple[str, int]],
) -> None:
    """Connect, subscribe, route each message to its table's inbox, send the tables'
    messages; reconnect forever (to the next broker of a list: :func:`_next_broker`)."""
    first = next(iter(tables.values()))
    # the first broker, the next when one fails; after a round of failures 0.5 s doubled
    # up to 10 s (a hub of one broker: that backoff alone); up 5 s: a new count
    rotation = BrokerRotation(brokers, min_delay=0.5, max_delay=10.0)
    while True:
        broker = rotation.current
        try:
            async with aiomqtt.Client(
                broker.host,
                broker.port,
                username=broker.username,
                password=broker.password,
                identifier=f"feltwire-hub-{first.table}",
                # a persistent session: the broker queues reads for the hub while it is away
                clean_session=False,
                keepalive=keepalive,
                tls_params=tls_params,
                protocol=aiomqtt.ProtocolVersion.V311,
                max_queued_incoming_messages=100_000,
            ) as client:
                for i in range(0, len(filters), _FILTERS_PER_SUBSCRIBE):
                    chunk = filters[i : i + _FILTERS_PER_SUBSCRIBE]
                    granted = await client.subscribe(chunk)
                    _check_granted(chunk, granted)
                log.info("hub subscribed at %s for %d table(s)", rotation.describe(), len(tables))
                for service in tables.values():
                    service.broker_connected(True)
                rotation.connected(now=asyncio.get_running_loop().time())
                senders = [
                    asyncio.create_task(_send_outgoing(service, client))
                    for service in tables.values()
                ]
                try:
                    async for message in client.messages:
                        payload = message.payload
                        if not isinstance(payload, bytes | bytearray):
                            payload = str(payload).encode()
                        topic = str(message.topic)
                        parts = topic.split("/", 3)
                        service = tables.get(parts[2], first) if len(parts) > 2 else first
                        service.inbox.put_nowait((topic, bytes(payload), bool(message.retain)))
                finally:
                    for sender in senders:
                        sender.cancel()
        except aiomqtt.MqttError as exc:
            for service in tables.values():
                service.broker_connected(False, str(exc))
            await _next_broker(rotation, exc)


async def _next_broker(rotation: BrokerRotation, exc: aiomqtt.MqttError) -> None:
    """The connection to ``rotation.current`` failed (``exc``): move to the next broker
    of the list, now or — once every broker failed in a row — after the backoff."""
    lost = rotation.describe()
    delay = rotation.failed(now=asyncio.get_running_loop().time())
    log.warning(
        "broker connection lost (%s) at %s; connecting to %s in %.1f s",
        exc,
        lost,
        rotation.describe(),
        delay,
    )
    await asyncio.sleep(delay)


_FILTERS_PER_SUBSCRIBE = 64
"""Topic filters per SUBSCRIBE packet (a hub of many tables subscribes in a few packets)."""


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
    connection."""
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
