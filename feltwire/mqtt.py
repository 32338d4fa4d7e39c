"""The MQTT client of nodes and bridges: paho-mqtt 2.x, MQTT 3.1.1, last-will availability.

Needs the ``paho-mqtt`` package (the ``node`` and ``bridge`` extras); nothing else in
``feltwire`` imports this module.

Every QoS 1 message goes through an :class:`~feltwire.outbox.Outbox` first: paho keeps
unacknowledged messages across a broker outage in memory and resends them in order; the
outbox keeps them across a restart of the node itself.

Order is kept by handing paho a message only while the connection is up, from one sender
thread. paho sends a message published between its CONNECT and the broker's CONNACK at
once, ahead of the ones it queued before the socket existed (its maintainers: publishing
before the connection completes "is not supported"); and after a reconnect it resends what
was in flight only after ``on_connect`` returns. So what is published while the connection
is down waits here, in order, and goes to paho once paho's own resends are out: at
``on_connect`` when nothing was in flight, else at the first acknowledgement after it.
A retained availability or inventory is therefore never overtaken by an older one.

Given several brokers (``[mqtt] url = [...]``, the nodes of a cluster), the client moves
to the next when its connection to one is refused or lost (:class:`~feltwire.brokers.
BrokerRotation`: at once, round robin; the backoff only once every broker failed in a
row). Nothing above changes: what was in flight is resent to the new broker after its
CONNACK, the outbox's messages follow in order, and the availability goes out again on
every connection — ``online`` (and the will, ``offline``) on whichever broker the node is
on. The hub drops a message it gets twice by its sequence number.
"""

from __future__ import annotations

import contextlib
import logging
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from feltwire.brokers import BrokerRotation
from feltwire.config import MqttClientSettings
from feltwire.outbox import Outbox
from feltwire.protocol import AVAILABILITY_OFFLINE, AVAILABILITY_ONLINE, availability_topic

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Waiting:
    """A message not handed to paho yet (``row`` None: not in the outbox)."""

    row: int | None
    topic: str
    payload: bytes
    qos: int
    retain: bool


class PahoTransport:
    """Publishes for one node; announces ``online`` and leaves ``offline`` as its will."""

    def __init__(
        self,
        settings: MqttClientSettings,
        *,
        table: str,
        node: str,
        outbox: Outbox | None = None,
        client_id: str | None = None,
        online_on_connect: bool = True,
    ) -> None:
        """``online_on_connect=False``: on (re)connect, repeat the availability last
        published through :meth:`publish` (``offline`` until then) instead of announcing
        ``online`` — for a bridge, which is only as online as the board behind it."""
        self._brokers = BrokerRotation(settings.addresses, min_delay=1, max_delay=5)
        self._keepalive = settings.keepalive
        addr = self._brokers.current  # every broker of the list: the same scheme and user
        self._availability = availability_topic(table, node)
        self._online_on_connect = online_on_connect
        self._last_availability = AVAILABILITY_OFFLINE
        self._connected = threading.Event()
        self._outbox = outbox if outbox is not None else Outbox(None)
        # _gate: held while deciding to hand a message to paho and handing it, and while
        # the connection is marked down, so nothing reaches paho after on_disconnect;
        # never taken on paho's thread while paho holds its message lock (on_publish)
        self._gate = threading.Lock()
        self._lock = threading.Lock()  # the bookkeeping below; never held calling paho
        self._waiting: deque[_Waiting] = deque()
        self._open = False  # paho may be handed messages (connected, its resends out)
        self._resends_pending = False  # connected, waiting for paho's resends to go out
        self._in_flight = 0  # handed to paho, not acknowledged
        self._closing = False
        self._wake = threading.Event()
        self._rows: dict[int, int] = {}  # paho mid -> outbox row
        self._early_acks: set[int] = set()  # acks that beat the mid -> row bookkeeping
        self._untracked: set[int] = set()  # QoS 1 messages outside the outbox (availability)
        self._subscriptions: dict[str, Callable[[str, bytes], None]] = {}
        self.handler_errors = 0
        self.broker_failures = 0
        """Connections to a broker refused, unreachable or lost (each logged), counted."""
        # the table too: the same node id on two tables must not take over each other's
        # session (the broker would drop one, firing its last will)
        self.client_id = client_id or f"feltwire-node-{table}-{node}"
        """The MQTT client id this node connects with."""
        self._client = paho.Client(
            callback_api_version=CallbackAPIVersion.VERSION2,
            client_id=self.client_id,
            protocol=paho.MQTTv311,
        )
        self._client.max_queued_messages_set(0)
        self._client.max_inflight_messages_set(100)
        if addr.username:
            self._client.username_pw_set(addr.username, addr.password)
        if addr.tls:
            self._client.tls_set(
                ca_certs=settings.ca_file,
                certfile=settings.cert_file,
                keyfile=settings.key_file,
                cert_reqs=ssl.CERT_REQUIRED,
            )
        self._client.will_set(self._availability, AVAILABILITY_OFFLINE, qos=1, retain=True)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_publish = self._on_publish
        self._client.on_message = self._on_message
        self._client.on_connect_fail = self._on_connect_fail
        self._client.reconnect_delay_set(min_delay=1, max_delay=5)
        # what a previous run of this node left unacknowledged goes first, in order
        leftover = self._outbox.pending()
        if leftover:
            log.info("resending %d messages kept from before the restart", len(leftover))
        for msg in leftover:
            self._waiting.append(_Waiting(msg.row, msg.topic, msg.payload, msg.qos, msg.retain))
        self._sender = threading.Thread(target=self._send_loop, name="mqtt-sender", daemon=True)
        self._sender.start()
        self._client.connect_async(addr.host, addr.port, keepalive=settings.keepalive)
        self._client.loop_start()

    @property
    def broker(self) -> str:
        """The broker the client is on, or tries next (its URL without the password)."""
        return self._brokers.describe()

    # ------------------------------------------------------------ paho's thread

    def _on_connect(
        self,
        client: paho.Client,
        userdata: object,
        flags: paho.ConnectFlags,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        if reason.is_failure:
            # paho calls on_disconnect next, which moves on to the next broker
            log.error("broker %s refused the connection: %s", self._brokers.describe(), reason)
            return
        self._brokers.connected(now=time.monotonic())
        log.info("connected to the broker %s", self._brokers.describe())
        with self._gate:
            # the availability again, after everything published before it (the broker
            # may hold our will's offline from an unclean disconnect)
            announce = AVAILABILITY_ONLINE if self._online_on_connect else self._last_availability
            self._waiting.append(_Waiting(None, self._availability, announce, 1, True))
            with self._lock:
                resends = self._in_flight > 0
            # paho resends what was in flight after this returns: hand over after that
            self._resends_pending = resends
            self._open = not resends
        for topic_filter in list(self._subscriptions):
            client.subscribe(topic_filter, qos=1)
        self._connected.set()
        self._wake.set()

    def _on_disconnect(
        self,
        client: paho.Client,
        userdata: object,
        flags: paho.DisconnectFlags,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        with self._gate:
            self._open = False
            self._resends_pending = False
        self._connected.clear()
        if self._closing:
            return
        # a refused CONNACK (logged by _on_connect) ends here too
        self._move_on(f"lost the broker {self._brokers.describe()} ({reason})", logging.WARNING)

    def _on_connect_fail(self, client: paho.Client, userdata: object) -> None:
        # each try of a broker that is down: logged, not loud (the loss said it)
        self._move_on(f"cannot reach the broker {self._brokers.describe()}", logging.INFO)

    def _move_on(self, what: str, level: int) -> None:
        """The connection to the current broker failed: point paho's next reconnect at the
        next broker of the list, after the rotation's wait (0 while the round lasts)."""
        self.broker_failures += 1
        delay = round(self._brokers.failed(now=time.monotonic()))
        following = self._brokers.current
        # paho waits reconnect_delay before each reconnect: min = max = this wait
        self._client.reconnect_delay_set(min_delay=delay, max_delay=delay)
        if self._brokers.several:
            # paho reconnects to the host and port of the last connect_async (this only
            # sets them and the keep-alive: the messages in flight stay, and are resent
            # after the next CONNACK, whichever broker it comes from)
            self._client.connect_async(following.host, following.port, keepalive=self._keepalive)
        log.log(level, "%s; connecting to %s in %d s", what, self._brokers.describe(), delay)

    def _on_publish(
        self,
        client: paho.Client,
        userdata: object,
        mid: int,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        # paho holds its message lock here: no _gate (a sender holding it may be waiting
        # for that lock); the flags are plain writes, the sender picks them up
        if self._resends_pending:
            self._resends_pending = False
            self._open = True  # this ack was read after paho sent its resends
            self._wake.set()
        with self._lock:
            self._in_flight -= 1
            if mid in self._untracked:
                self._untracked.discard(mid)
                return
            row = self._rows.pop(mid, None)
            if row is None:
                self._early_acks.add(mid)
                return
        self._outbox.ack(row)

    def _on_message(self, client: paho.Client, userdata: object, msg: paho.MQTTMessage) -> None:
        for topic_filter, handler in list(self._subscriptions.items()):
            if paho.topic_matches_sub(topic_filter, msg.topic):
                try:
                    handler(msg.topic, bytes(msg.payload))
                except Exception:  # a bad handler must not kill the network thread
                    self.handler_errors += 1
                    log.exception("handling %s failed", msg.topic)

    # ------------------------------------------------------------- the sender

    def _send_loop(self) -> None:
        while True:
            self._wake.wait(0.5)
            self._wake.clear()
            while self._hand_one():
                pass
            if self._closing:
                return

    def _hand_one(self) -> bool:
        """Give paho the next waiting message if the connection takes it; False if none."""
        with self._gate:
            if not self._open or not self._waiting:
                return False
            msg = self._waiting.popleft()
            with self._lock:
                self._in_flight += 1
            info = self._client.publish(msg.topic, msg.payload, qos=msg.qos, retain=msg.retain)
        with self._lock:
            if info.mid in self._early_acks:
                self._early_acks.discard(info.mid)
                acked = True
            elif msg.row is None:
                self._untracked.add(info.mid)
                acked = False
            else:
                self._rows[info.mid] = msg.row
                acked = False
        if acked and msg.row is not None:
            self._outbox.ack(msg.row)
        return True

    # ------------------------------------------------------------ the node's side

    def subscribe(self, topic_filter: str, handler: Callable[[str, bytes], None]) -> None:
        """Call ``handler(topic, payload)`` for every message matching ``topic_filter``."""
        self._subscriptions[topic_filter] = handler
        if self._connected.is_set():
            self._client.subscribe(topic_filter, qos=1)

    def wait_connected(self, timeout: float) -> bool:
        """Block until connected (True) or the timeout passes (False)."""
        return self._connected.wait(timeout)

    @property
    def unacknowledged(self) -> int:
        """Messages the broker has not acknowledged yet."""
        return len(self._outbox)

    def publish(self, topic: str, payload: bytes, *, qos: int, retain: bool) -> None:
        """Store and queue a message; it goes out in order, now or after a reconnect."""
        if qos == 0:
            self._client.publish(topic, payload, qos=0, retain=retain)
            return
        row = self._outbox.add(topic, payload, qos=qos, retain=retain)
        with self._gate:
            if topic == self._availability:
                self._last_availability = payload
            self._waiting.append(_Waiting(row, topic, payload, qos, retain))
        self._wake.set()

    def close(self, *, graceful: bool = True) -> None:
        """Hand over what waits, say ``offline``, flush and disconnect (``graceful=False``:
        just drop the line)."""
        self._closing = True
        self._wake.set()
        self._sender.join(timeout=2)
        if graceful and self._connected.is_set():
            with self._gate:
                with self._lock:
                    self._in_flight += 1  # its ack is counted off like any other
                info = self._client.publish(
                    self._availability, AVAILABILITY_OFFLINE, qos=1, retain=True
                )
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout=2)
        self._client.disconnect()
        self._client.loop_stop()
        self._outbox.close()
