"""The hub's MQTT connections (aiomqtt): they feed each table's application, reconnect
when the broker goes away and send what each table queues (light commands, alerts, the
public topic).

A hub alone (no ``[cluster]``) links all of its tables over **one** connection
(:class:`HubLink`), on one persistent session. A hub in a room of several hubs links each
table it serves over a connection of its own (:func:`run_table_link`), on the table's
own persistent session, which moves with the table from hub to hub. Either way the
composition root starts one link per table it serves (and stops it when the hub stops
serving the table), and each table's :class:`~hub.app.table_app.TableApp` only sees the
messages of its own table, acknowledged to the broker once they are in its event log.

Why not a connection per table everywhere: at 50 tables on one hub, 50 connections cost
the read → overlay path five times its median against one (``bench/room.py``;
docs/benchmarks.md) — a price only a room of several hubs, whose tables move, has a
reason to pay.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence

import aiomqtt
import paho.mqtt.client as mqtt

from feltwire.brokers import BrokerRotation
from feltwire.config import MqttUrl
from feltwire.protocol import TOPIC_PREFIX, hub_client_id, reader_tags_filter
from hub.adapters.paho_socket import chunked
from hub.app.errors import LogUnavailable
from hub.app.ports import Inbound
from hub.app.publisher import nothing_in_flight
from hub.app.table_app import TableApp
from hub.config import EVENT_LOG_BATCH, TlsFiles

log = logging.getLogger(__name__)


_FILTERS_PER_SUBSCRIBE = 64
"""Topic filters per SUBSCRIBE packet (a hub of many tables subscribes in a few packets)."""

OUTGOING_IN_FLIGHT = 1000
"""The hub's messages (QoS 1) its MQTT client sends before the broker has acknowledged
them. paho's default, 20, held everything after the twentieth until a PUBACK came back —
and a PUBACK is read only when the event loop reaches the socket: at 50 tables and ten
times a dealer's pace, 17,000 messages (lights among them) waited in the client after
three minutes, some 10 MB a minute (docs/reliability.md, "The fifth run"). Mosquitto,
amqtt and RabbitMQ take a client's QoS 1 messages without a window of their own (MQTT
3.1.1 has none); 1,000 is the window the brokers' templates give the hub's reads the
other way (``max_inflight_messages``)."""

OUTGOING_UNACKNOWLEDGED_MAX = 60_000
"""At most this many of a connection's messages handed to its MQTT client and not
acknowledged (in flight or queued in the client). paho numbers them 1–65,535 and refuses
a message whose number is still taken ("message queue full"), which ended the sender of
the table's messages while the connection went on. Beyond this many, the hub's messages
wait in the table's own queue until acknowledgements come
(``feltwire_mqtt_outgoing_waiting`` counts both; tests/integration/faults/
test_outgoing_backlog.py)."""

BACKLOG_POLL_S = 0.05
"""How often a connection at :data:`OUTGOING_UNACKNOWLEDGED_MAX` looks for room again, and
one behind with nothing new to send whether its backlog is gone."""


def _filters(table: str) -> list[tuple[str, int]]:
    """What the hub subscribes to for ``table`` (QoS 1): its readers' inventories, its
    buttons, and its nodes' availability (``online``/``offline``, their last will)."""
    return [
        (reader_tags_filter(table), 1),
        (f"{TOPIC_PREFIX}/{table}/node/+/button", 1),
        (f"{TOPIC_PREFIX}/{table}/node/+/availability", 1),
    ]


def _tls_params(brokers: Sequence[MqttUrl], tls: TlsFiles | None) -> aiomqtt.TLSParameters | None:
    """TLS for ``mqtts://`` (a list's brokers: all or none, :func:`parse_mqtt_urls`): the
    broker's certificate checked against ``tls.ca_file`` (unset: the system CAs), and
    ``tls.cert_file``/``key_file`` proving the hub under mutual TLS."""
    if not brokers[0].tls:
        return None
    files = tls if tls is not None else TlsFiles()
    return aiomqtt.TLSParameters(
        ca_certs=str(files.ca_file) if files.ca_file is not None else None,
        certfile=str(files.cert_file) if files.cert_file is not None else None,
        keyfile=str(files.key_file) if files.key_file is not None else None,
        cert_reqs=ssl.CERT_REQUIRED,
    )


def _client(
    broker: MqttUrl,
    identifier: str,
    keepalive: int,
    tls_params: aiomqtt.TLSParameters | None,
) -> aiomqtt.Client:
    """A client on the persistent session ``identifier`` (the broker queues the reads
    while no hub takes them), acknowledging each message only when told
    (:class:`Acks`: once its input is logged)."""
    client = aiomqtt.Client(
        broker.host,
        broker.port,
        username=broker.username,
        password=broker.password,
        identifier=identifier,
        clean_session=False,
        keepalive=keepalive,
        tls_params=tls_params,
        protocol=aiomqtt.ProtocolVersion.V311,
        max_queued_incoming_messages=100_000,
        max_inflight_messages=OUTGOING_IN_FLIGHT,
    )
    # aiomqtt's paho client, driven by this event loop; before CONNECT: the queued reads
    # come at once, every packet of a read taken in one turn of the loop (ChunkedSocket)
    client._client.manual_ack_set(True)
    client._client._create_socket = chunked(client._client._create_socket)  # type: ignore[method-assign]
    return client


async def arrivals(client: aiomqtt.Client) -> AsyncIterator[aiomqtt.Message]:
    """The messages ``client`` receives (MqttError once it is disconnected), every one
    already queued taken at once: aiomqtt's iterator makes a task and a wait for each
    message — three turns of the event loop, each running all else that is ready first —
    so a backlog (a burst, or what came while the loop was busy) waited in its queue,
    taken one message per three turns."""
    queue = client._queue  # aiomqtt's queue of received messages (``len(client.messages)``)
    async for message in client.messages:
        yield message
        while not queue.empty():
            yield queue.get_nowait()


async def _subscribe(client: aiomqtt.Client, filters: list[tuple[str, int]]) -> None:
    """Subscribe to ``filters`` in a few packets, logging what the broker refused."""
    for i in range(0, len(filters), _FILTERS_PER_SUBSCRIBE):
        chunk = filters[i : i + _FILTERS_PER_SUBSCRIBE]
        _check_granted(chunk, await client.subscribe(chunk))


class HubLink:
    """The MQTT link of a hub alone (no ``[cluster]``): one connection for every table it
    serves, on one persistent session (:func:`~feltwire.protocol.hub_client_id` of its
    first table, ``alone``); :meth:`run_table` is each table's link.

    Each message goes to the inbox of the table its topic names (a topic of no table
    served here goes to the first table, whose ingest refuses it as ``bad_topic``) and is
    acknowledged once its input is logged (:func:`_take_messages`, as
    :func:`run_table_link`); each table's outgoing messages go out over the same
    connection. A hub alone serves the same tables from its start to its stop; a table
    that comes while connected is subscribed to at once. ``brokers`` may be a cluster's
    list: the connection moves to the next broker when one fails (:func:`_next_broker`).
    """

    def __init__(
        self,
        brokers: Sequence[MqttUrl],
        *,
        session: str,
        keepalive: int = 15,
        tls: TlsFiles | None = None,
        max_batch: int = EVENT_LOG_BATCH,
    ) -> None:
        if max_batch < 1:
            raise ValueError(f"max_batch must be at least 1, not {max_batch}")
        if not brokers:
            raise ValueError("the hub's link needs at least one broker")
        self.brokers = list(brokers)
        self.session = session
        self.keepalive = keepalive
        self.max_batch = max_batch
        self._tls_params = _tls_params(self.brokers, tls)
        self.tables: dict[str, TableApp] = {}
        """The tables linked, by id (in the order they came: the first takes strays)."""
        self._connection: asyncio.Task[None] | None = None
        self._client: aiomqtt.Client | None = None
        """The connected client (None while connecting or away)."""
        self._senders: dict[str, asyncio.Task[None]] = {}
        self._acks = Acks()

    async def run_table(self, service: TableApp) -> None:
        """Link ``service`` over the hub's connection until cancelled."""
        table = service.table
        if table in self.tables:
            raise ValueError(f"table {table} is linked already")
        self.tables[table] = service
        worker = asyncio.create_task(
            _take_messages(service, self.max_batch), name=f"ingest-{table}"
        )
        try:
            if self._connection is None:
                self._connection = asyncio.create_task(self._serve(), name="mqtt-hub")
            elif self._client is not None:  # connected: the table joins at once
                client = self._client
                with contextlib.suppress(aiomqtt.MqttError):  # lost: the next one subscribes
                    await _subscribe(client, _filters(table))
                    self._start_sender(client, service)
            # shielded: one table's link cancelled leaves the others' connection
            await asyncio.shield(self._connection)
        finally:
            worker.cancel()
            del self.tables[table]
            sender = self._senders.pop(table, None)
            if sender is not None:
                sender.cancel()
            if not self.tables and self._connection is not None:
                # the last table gone: the connection ends, and the link with it — not
                # before its client has disconnected (else a stopped hub's connection,
                # socket and client tasks live on, with no loop to end them if it closes)
                connection, self._connection = self._connection, None
                connection.cancel()
                await asyncio.wait([connection])

    def _start_sender(self, client: aiomqtt.Client, service: TableApp) -> None:
        if service.table in self._senders or client is not self._client:
            return  # started already, or that connection is gone
        service.broker_connected(True)
        self._senders[service.table] = asyncio.create_task(
            _send_outgoing(service, client), name=f"mqtt-send-{service.table}"
        )

    async def _serve(self) -> None:
        """Connect, subscribe, route each message to its table's inbox, send the tables'
        messages; reconnect forever (to the next broker of a list)."""
        rotation = _rotation(self.brokers)
        while True:
            broker = rotation.current
            try:
                client = _client(broker, self.session, self.keepalive, self._tls_params)
                async with client:
                    self._acks.connected(client._client)
                    subscribed = list(self.tables)
                    await _subscribe(client, [f for t in subscribed for f in _filters(t)])
                    self._client = client
                    late = [t for t in self.tables if t not in subscribed]  # came meanwhile
                    await _subscribe(client, [f for t in late for f in _filters(t)])
                    where = rotation.describe()
                    log.info("hub subscribed at %s for %d table(s)", where, len(self.tables))
                    rotation.connected(now=asyncio.get_running_loop().time())
                    for service in list(self.tables.values()):
                        self._start_sender(client, service)
                    try:
                        async for message in arrivals(client):
                            self._route(message)
                    finally:
                        self._client = None
                        for sender in self._senders.values():
                            sender.cancel()
                        self._senders.clear()
            except aiomqtt.MqttError as exc:
                for service in self.tables.values():
                    service.broker_connected(False, str(exc))
                await _next_broker(rotation, exc, "the hub")

    def _route(self, message: aiomqtt.Message) -> None:
        item = self._acks.inbound(message)
        parts = item[0].split("/", 3)  # feltwire/v1/<table>/…
        service = self.tables.get(parts[2]) if len(parts) > 2 else None
        if service is None:
            service = next(iter(self.tables.values()))
        service.inbox.put_nowait(item)


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
    tls_params = _tls_params(brokers, tls)
    filters = _filters(table)
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

    def inbound(self, message: aiomqtt.Message) -> Inbound:
        """``message`` as a table's inbox takes it, with its ack on this connection."""
        payload = message.payload
        if not isinstance(payload, bytes | bytearray):
            payload = str(payload).encode()
        ack = self.of(message.mid, message.qos)
        return str(message.topic), bytes(payload), bool(message.retain), ack

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
    rotation = _rotation(brokers)
    while True:
        broker = rotation.current
        # no session for a table whose hold is unconfirmed (a time on the monotonic clock,
        # not an event: looked at again every 0.1 s)
        while not service.speaks():  # noqa: ASYNC110
            await asyncio.sleep(0.1)
        try:
            client = _client(broker, hub_client_id(service.table), keepalive, tls_params)
            paho_client = client._client  # aiomqtt's paho client, driven by this event loop
            async with client:
                acks.connected(paho_client)
                await _subscribe(client, filters)
                log.info("hub subscribed at %s for table %s", rotation.describe(), service.table)
                service.broker_connected(True)
                rotation.connected(now=asyncio.get_running_loop().time())
                sender = asyncio.create_task(_send_outgoing(service, client))
                try:
                    async for message in arrivals(client):
                        service.inbox.put_nowait(acks.inbound(message))
                finally:
                    sender.cancel()
        except aiomqtt.MqttError as exc:
            service.broker_connected(False, str(exc))
            await _next_broker(rotation, exc, f"table {service.table}")


def _rotation(brokers: Sequence[MqttUrl]) -> BrokerRotation:
    """The hub's brokers in turn: the first, the next when one fails; after a round of
    failures 0.5 s doubled up to 10 s (a hub of one broker: that backoff alone); a
    connection up 5 s starts a new count."""
    return BrokerRotation(brokers, min_delay=0.5, max_delay=10.0)


async def _next_broker(rotation: BrokerRotation, exc: aiomqtt.MqttError, whose: str) -> None:
    """The connection (``whose``: ``table t1``, ``the hub``) to ``rotation.current`` failed
    (``exc``): move to the next broker of the list, now or — once every broker failed in a
    row — after the backoff."""
    lost = rotation.describe()
    delay = rotation.failed(now=asyncio.get_running_loop().time())
    log.warning(
        "%s: broker connection lost (%s) at %s; connecting to %s in %.1f s",
        whose,
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
    flight itself, at most :data:`OUTGOING_UNACKNOWLEDGED_MAX` of them unacknowledged (the
    rest wait in the table's queue); more than it sends at once
    (:data:`OUTGOING_IN_FLIGHT`) is logged as a backlog, and its end too. Those not
    acknowledged when the connection ends are counted (``outgoing_unconfirmed``) and
    logged — the lights go out again in full on the next connection. When the hub may no
    longer speak for the table (:meth:`TableApp.speaks`) nothing more is sent and the
    connection is closed: the table's session waits at the broker for the hub that
    serves the table next, with what it holds unacknowledged."""
    waiting: list[tuple[str, bytes, bool]] = []
    while not service.outgoing.empty():
        message = service.outgoing.get_nowait()
        if not message[2]:
            waiting.append(message)  # light commands are superseded by the full state below
    mqtt_client = client._client  # aiomqtt's paho client, driven by this event loop
    sent: deque[mqtt.MQTTMessageInfo] = deque()
    backlog = _Backlog(service.table)

    def in_flight() -> int:
        return sum(not info.is_published() for info in sent)

    async def room() -> None:
        """Until the client holds fewer than :data:`OUTGOING_UNACKNOWLEDGED_MAX` (the next
        message waits where it is, counted)."""
        _acknowledged(sent)
        while len(sent) >= OUTGOING_UNACKNOWLEDGED_MAX:
            backlog.full(len(sent))
            await asyncio.sleep(BACKLOG_POLL_S)
            _acknowledged(sent)

    def send(topic: str, payload: bytes, retain: bool) -> None:
        _publish(mqtt_client, topic, payload, retain, sent)
        backlog.note(len(sent))

    service.feeds.in_flight = in_flight  # /metrics: feltwire_mqtt_outgoing_waiting
    try:
        for topic, payload, retain in service.light_messages() + waiting:
            await room()
            send(topic, payload, retain)
        while True:
            await room()
            while backlog.behind and service.outgoing.empty():
                await asyncio.sleep(BACKLOG_POLL_S)  # to say when the backlog is gone
                _acknowledged(sent)
                backlog.note(len(sent))
            topic, payload, retain = await service.outgoing.get()
            if not service.speaks():
                log.warning(
                    "table %s: this hub may not speak for it now; disconnecting", service.table
                )
                mqtt_client.disconnect()
                return
            send(topic, payload, retain)
    except aiomqtt.MqttError as exc:
        service.count("outgoing_unconfirmed")  # the message the client refused
        log.warning("could not send to the broker: %s", exc)
    finally:
        if service.feeds.in_flight is in_flight:  # not a newer connection's
            service.feeds.in_flight = nothing_in_flight
        unconfirmed = in_flight()
        if unconfirmed:
            service.count("outgoing_unconfirmed", unconfirmed)
            log.warning(
                "table %s: %d messages to the broker not acknowledged when the connection ended",
                service.table,
                unconfirmed,
            )


class _Backlog:
    """Says when a connection's messages start to wait for the broker's acknowledgements
    (more unacknowledged than it keeps in flight) and when they stop (under half that
    again): a line each, not one a message."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.behind = False
        self.capped = False

    def note(self, unacknowledged: int) -> None:
        if not self.behind and unacknowledged > OUTGOING_IN_FLIGHT:
            self.behind = True
            log.warning(
                "table %s: %d messages to the broker wait for its acknowledgement (more than"
                " the %d sent at once): the broker or this hub is slow; the seat lights and"
                " alerts go out late",
                self.table,
                unacknowledged,
                OUTGOING_IN_FLIGHT,
            )
        elif self.behind and unacknowledged <= OUTGOING_IN_FLIGHT // 2:
            self.behind = self.capped = False
            log.info("table %s: the broker acknowledges the hub's messages again", self.table)

    def full(self, unacknowledged: int) -> None:
        if not self.capped:
            self.capped = True
            log.warning(
                "table %s: %d messages to the broker unacknowledged, the most a connection"
                " holds: the next wait in the hub",
                self.table,
                unacknowledged,
            )


def _acknowledged(sent: deque[mqtt.MQTTMessageInfo]) -> None:
    """Drop the acknowledged messages at the head of ``sent`` (the broker acknowledges
    in order)."""
    while sent and sent[0].is_published():
        sent.popleft()


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
    sent.append(info)
