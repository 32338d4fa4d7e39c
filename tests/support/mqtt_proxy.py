"""A TCP proxy between an MQTT client (a node) and its broker that duplicates, delays and
reorders the client's PUBLISH packets — what a flaky network, a client's resend after a
lost PUBACK, or a broker's redelivery do to the hub's input.

Packets are cut by MQTT's framing (the fixed header's type byte, then the remaining length
as a variable-length integer of up to four bytes). Only PUBLISH packets from client to
broker are touched; everything else passes in order and waits for the PUBLISHes before it
(a DISCONNECT never overtakes the messages it follows). Reordering keeps each topic's
order — MQTT 3.1.1 §4.6 promises subscribers every topic's messages in the order one
client sent them, not the order across topics — so a delayed message lets messages of
*other* topics by. A duplicate is the same packet again with the DUP flag, right after
the original on its topic (as a client resending an unacknowledged QoS 1 message); the
broker acknowledges both, and the proxy swallows the second PUBACK so the client sees one.

:meth:`MqttFaultProxy.cut` cuts the network: nothing more is passed either way, the
connections are held open (neither end hears of the cut but by its silence: the broker's
keep-alive and the client's ping), a new connection is closed at once (the host cannot be
reached); :meth:`MqttFaultProxy.restore` ends the cut — what each end sent into it is passed
on, and a connection the other end closed meanwhile is closed (the peer is gone).

:meth:`MqttFaultProxy.hold_acks` holds the broker's PUBACKs to the client (everything else
still passes): a broker, or a client's own busy loop, that acknowledges late — what the
client may send meanwhile is bounded only by how many messages it keeps in flight.
:meth:`MqttFaultProxy.release_acks` passes the held ones on, in order.

>>> encode_remaining_length(321)
b'\\xc1\\x02'
>>> split_packets(bytearray(b"\\xc0\\x00\\x30\\x03\\x00\\x01tX"))
([b'\\xc0\\x00', b'0\\x03\\x00\\x01t'], bytearray(b'X'))
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import random
from collections import Counter
from dataclasses import dataclass, field

PUBLISH = 3
PUBACK = 4
DUP_FLAG = 0x08


def encode_remaining_length(n: int) -> bytes:
    """MQTT's variable-length integer."""
    out = bytearray()
    while True:
        byte, n = n % 128, n // 128
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def split_packets(buf: bytearray) -> tuple[list[bytes], bytearray]:
    """Whole MQTT packets at the start of ``buf``, and the rest (an incomplete packet)."""
    packets: list[bytes] = []
    pos = 0
    while True:
        length, mult, i = 0, 1, pos + 1
        while True:
            if i >= len(buf):
                return packets, buf[pos:]
            byte = buf[i]
            length += (byte & 0x7F) * mult
            mult *= 128
            i += 1
            if not byte & 0x80:
                break
            if i - pos > 4:
                raise ValueError("malformed remaining length")
        end = i + length
        if end > len(buf):
            return packets, buf[pos:]
        packets.append(bytes(buf[pos:end]))
        pos = end


def _body_start(packet: bytes) -> int:
    i = 1
    while packet[i] & 0x80:
        i += 1
    return i + 1


def publish_topic_and_id(packet: bytes) -> tuple[str, int | None]:
    """A PUBLISH packet's topic and packet id (None at QoS 0)."""
    start = _body_start(packet)
    n = int.from_bytes(packet[start : start + 2], "big")
    topic = packet[start + 2 : start + 2 + n].decode()
    qos = (packet[0] >> 1) & 0x03
    if qos == 0:
        return topic, None
    at = start + 2 + n
    return topic, int.from_bytes(packet[at : at + 2], "big")


@dataclass
class Faults:
    """What the proxy does to each client PUBLISH: duplicate it with ``duplicate``
    probability, hold it back ``delay`` seconds (drawn uniformly) with ``delay_chance``;
    ``seed`` makes the run repeatable."""

    duplicate: float = 0.25
    delay_chance: float = 0.3
    delay: tuple[float, float] = (0.05, 0.4)
    seed: int = 0


@dataclass
class ProxyStats:
    """What the proxy did: PUBLISHes seen, duplicated, delayed, and overtaken (sent
    after a later one of another topic)."""

    publishes: int = 0
    duplicated: int = 0
    delayed: int = 0
    reordered: int = 0
    swallowed_pubacks: int = 0
    by_topic: Counter[str] = field(default_factory=Counter)
    duplicated_by_topic: Counter[str] = field(default_factory=Counter)


class MqttFaultProxy:
    """Listens on ``127.0.0.1:port`` (0: a free port, see :attr:`port`) and forwards each
    connection to the broker at ``upstream``, with :class:`Faults` on the way up."""

    def __init__(self, upstream_port: int, faults: Faults | None = None) -> None:
        self.upstream_port = upstream_port
        self.faults = faults or Faults()
        self.rng = random.Random(self.faults.seed)
        self.stats = ProxyStats()
        self.port = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._flowing = asyncio.Event()
        self._flowing.set()
        self.refused = 0
        """Connections closed at once because the network was cut."""
        self._holding_acks = False
        self._held_acks: list[tuple[asyncio.StreamWriter, bytes]] = []

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    def cut(self) -> None:
        """Cut the network (callable from any thread)."""
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self._flowing.clear)

    def restore(self) -> None:
        """End the cut (callable from any thread)."""
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self._flowing.set)

    def hold_acks(self) -> None:
        """Hold the broker's PUBACKs to the clients until :meth:`release_acks` (callable
        from any thread)."""
        assert self._loop is not None
        self._loop.call_soon_threadsafe(setattr, self, "_holding_acks", True)

    def release_acks(self) -> None:
        """Pass the held PUBACKs on, in order, and stop holding them (any thread)."""
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self._release_acks)

    @property
    def held_acks(self) -> int:
        """PUBACKs held now."""
        return len(self._held_acks)

    def _release_acks(self) -> None:
        self._holding_acks = False
        held, self._held_acks = self._held_acks, []
        for writer, packet in held:
            if not writer.is_closing():
                writer.write(packet)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _serve(self, c_reader: asyncio.StreamReader, c_writer: asyncio.StreamWriter) -> None:
        if not self._flowing.is_set():
            self.refused += 1
            c_writer.close()
            return
        b_reader, b_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        swallow: Counter[int] = Counter()
        up = asyncio.create_task(self._upstream(c_reader, b_writer, swallow))
        down = asyncio.create_task(self._downstream(b_reader, c_writer, swallow))
        self._tasks |= {up, down}
        try:
            await asyncio.wait({up, down}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (up, down):
                task.cancel()
            for w in (b_writer, c_writer):
                w.close()
            self._tasks -= {up, down}

    async def _upstream(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, swallow: Counter[int]
    ) -> None:
        """Client → broker: schedule each packet (its release time), send in that order."""
        loop = asyncio.get_running_loop()
        queue: list[tuple[float, int, bytes, int]] = []  # (release, order, packet, seq_sent)
        order = itertools.count()
        topic_last: dict[str, float] = {}
        latest = 0.0
        wake = asyncio.Event()
        sent_seq = itertools.count()

        async def sender() -> None:
            sent_max = -1
            while True:
                while not queue:
                    wake.clear()
                    await wake.wait()
                release, n, packet, _ = queue[0]
                delay = release - loop.time()
                if delay > 0:
                    wake.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(wake.wait(), delay)
                    continue
                heapq.heappop(queue)
                if n < sent_max:
                    self.stats.reordered += 1
                sent_max = max(sent_max, n)
                next(sent_seq)
                writer.write(packet)
                await writer.drain()

        send = asyncio.create_task(sender())
        buf = bytearray()
        try:
            while True:
                data = await reader.read(65536)
                await self._flowing.wait()  # a cut holds what was sent into it
                if not data:
                    break
                buf += data
                packets, buf = split_packets(buf)
                now = loop.time()
                for packet in packets:
                    n = next(order)
                    if packet[0] >> 4 != PUBLISH:
                        # a barrier: after everything scheduled so far
                        latest = max(latest, now)
                        heapq.heappush(queue, (latest, n, packet, 0))
                        continue
                    topic, packet_id = publish_topic_and_id(packet)
                    self.stats.publishes += 1
                    self.stats.by_topic[topic] += 1
                    release = now
                    if self.rng.random() < self.faults.delay_chance:
                        release += self.rng.uniform(*self.faults.delay)
                        self.stats.delayed += 1
                    release = max(release, topic_last.get(topic, 0.0))  # the topic's order
                    topic_last[topic] = release
                    latest = max(latest, release)
                    heapq.heappush(queue, (release, n, packet, 0))
                    if packet_id is not None and self.rng.random() < self.faults.duplicate:
                        dup = bytes([packet[0] | DUP_FLAG]) + packet[1:]
                        swallow[packet_id] += 1
                        self.stats.duplicated += 1
                        self.stats.duplicated_by_topic[topic] += 1
                        heapq.heappush(queue, (release, next(order), dup, 0))
                wake.set()
            # the client hung up: what is scheduled still goes (a slow network delivers)
            while queue:
                wake.set()
                await asyncio.sleep(0.01)
        finally:
            send.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                await send

    async def _downstream(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, swallow: Counter[int]
    ) -> None:
        """Broker → client: as is, but one PUBACK per duplicate the broker acknowledged."""
        buf = bytearray()
        while True:
            data = await reader.read(65536)
            await self._flowing.wait()
            if not data:
                return
            buf += data
            packets, buf = split_packets(buf)
            for packet in packets:
                if packet[0] >> 4 == PUBACK and len(packet) == 4:
                    packet_id = int.from_bytes(packet[2:4], "big")
                    if swallow[packet_id] > 0:
                        swallow[packet_id] -= 1
                        self.stats.swallowed_pubacks += 1
                        continue
                    if self._holding_acks:
                        self._held_acks.append((writer, packet))
                        continue
                writer.write(packet)
            await writer.drain()
