"""The node's MQTT client: paho-mqtt 2.x, MQTT 3.1.1, with a last-will availability topic."""

from __future__ import annotations

import contextlib
import logging
import ssl
import threading

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from feltwire.config import MqttClientSettings
from feltwire.protocol import AVAILABILITY_OFFLINE, AVAILABILITY_ONLINE, availability_topic

log = logging.getLogger(__name__)


class PahoTransport:
    """Publishes for one node; announces ``online`` and leaves ``offline`` as its will.

    Messages published while the broker is away are queued by paho and sent, in order,
    when the connection comes back.
    """

    def __init__(self, settings: MqttClientSettings, *, table: str, node: str) -> None:
        addr = settings.address
        self._availability = availability_topic(table, node)
        self._connected = threading.Event()
        self._client = paho.Client(
            callback_api_version=CallbackAPIVersion.VERSION2,
            client_id=f"feltwire-node-{node}",
            protocol=paho.MQTTv311,
        )
        self._client.max_queued_messages_set(0)
        self._client.max_inflight_messages_set(100)
        if addr.username:
            self._client.username_pw_set(addr.username, addr.password)
        if addr.tls:
            self._client.tls_set(cert_reqs=ssl.CERT_REQUIRED)
        self._client.will_set(self._availability, AVAILABILITY_OFFLINE, qos=1, retain=True)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.reconnect_delay_set(min_delay=1, max_delay=10)
        self._client.connect_async(addr.host, addr.port, keepalive=settings.keepalive)
        self._client.loop_start()

    def _on_connect(
        self,
        client: paho.Client,
        userdata: object,
        flags: paho.ConnectFlags,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        if reason.is_failure:
            log.error("broker refused the connection: %s", reason)
            return
        log.info("connected to the broker")
        client.publish(self._availability, AVAILABILITY_ONLINE, qos=1, retain=True)
        self._connected.set()

    def _on_disconnect(
        self,
        client: paho.Client,
        userdata: object,
        flags: paho.DisconnectFlags,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        self._connected.clear()
        if reason.is_failure:
            log.warning("lost the broker (%s); reconnecting", reason)

    def wait_connected(self, timeout: float) -> bool:
        """Block until connected (True) or the timeout passes (False)."""
        return self._connected.wait(timeout)

    def publish(self, topic: str, payload: bytes, *, qos: int, retain: bool) -> None:
        """Queue a message; paho sends it now or after a reconnect."""
        self._client.publish(topic, payload, qos=qos, retain=retain)

    def close(self) -> None:
        """Say ``offline``, flush and disconnect."""
        if self._connected.is_set():
            info = self._client.publish(
                self._availability, AVAILABILITY_OFFLINE, qos=1, retain=True
            )
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout=2)
        self._client.disconnect()
        self._client.loop_stop()
