"""Which broker of a list to connect to next: the nodes of a broker cluster, in turn.

A client given several brokers (``[mqtt] url = [...]``, :func:`feltwire.config.parse_mqtt_urls`)
starts on the first. When its connection to one fails — refused, or lost after it was up
— it moves to the next at once, round robin; only once every broker of the list has failed
in a row does it wait, with the backoff a client of one broker always had (``min_delay``,
doubled each round, at most ``max_delay``). A connection that stayed up ``stable_s`` ends
the count: the client stays on that broker until it fails in its turn, then moves on at
once. One that is dropped sooner counts as a failure of its round — a broker that takes
the client and throws it out again (a cluster node whose peers are still deciding who holds
the client's id) cannot keep it reconnecting without a pause.

Pure (no I/O; the caller gives the time): the node's and bridge's paho transport
(:mod:`feltwire.mqtt`) and the hub's connection (:mod:`hub.adapters.mqtt`) ask it where
to go and how long to wait.

>>> from feltwire.config import parse_mqtt_urls
>>> brokers = BrokerRotation(parse_mqtt_urls(["mqtt://a", "mqtt://b", "mqtt://c"]), min_delay=1)
>>> brokers.current.host
'a'
>>> [(brokers.failed(now=0), brokers.current.host) for _ in range(7)]
[(0.0, 'b'), (0.0, 'c'), (1.0, 'a'), (0.0, 'b'), (0.0, 'c'), (2.0, 'a'), (0.0, 'b')]

Up on ``b`` for a minute, then lost: ``c`` at once, ``a`` at once, and only then a wait
(the count began again: the shortest) before ``b``.

>>> brokers.connected(now=100); brokers.failed(now=160), brokers.current.host
(0.0, 'c')
>>> [brokers.failed(now=161) for _ in range(2)]
[0.0, 1.0]

Taken and dropped at once, again and again: that is a round of failures, then a wait.

>>> flapping = []
>>> for t in range(3):
...     brokers.connected(now=200 + t)
...     flapping.append(brokers.failed(now=200.01 + t))
>>> flapping
[0.0, 0.0, 2.0]
>>> one = BrokerRotation(parse_mqtt_urls("mqtt://a"), min_delay=1, max_delay=5)
>>> [one.failed(now=0) for _ in range(5)]
[1.0, 2.0, 4.0, 5.0, 5.0]
"""

from __future__ import annotations

from collections.abc import Sequence

from feltwire.config import MqttUrl, broker_name

__all__ = ["BrokerRotation"]


class BrokerRotation:
    """The brokers of a list in turn, with a backoff after each round that failed whole
    (see the module). Not thread-safe: one connection loop asks it."""

    def __init__(
        self,
        addresses: Sequence[MqttUrl],
        *,
        min_delay: float = 1,
        max_delay: float = 5,
        stable_s: float = 5,
    ) -> None:
        if not addresses:
            raise ValueError("BrokerRotation needs at least one broker")
        if min_delay < 0 or max_delay < min_delay:
            raise ValueError(f"bad backoff: min_delay {min_delay}, max_delay {max_delay}")
        self.addresses = list(addresses)
        self.min_delay = min_delay
        self.max_delay = max_delay
        self.stable_s = stable_s
        self._up_since: float | None = None
        self._index = 0
        self._failed_in_round = 0
        self._rounds_failed = 0

    @property
    def current(self) -> MqttUrl:
        """The broker to connect to (the one connected to, while a connection is up)."""
        return self.addresses[self._index]

    @property
    def several(self) -> bool:
        """Whether there is more than one broker to move between."""
        return len(self.addresses) > 1

    def describe(self, address: MqttUrl | None = None) -> str:
        """A broker (the current one by default) as the logs name it: its URL without the
        password, and with several brokers its place in the list (``2 of 3``)."""
        address = self.current if address is None else address
        name = broker_name(address)
        if not self.several:
            return name
        return f"{name} ({self.addresses.index(address) + 1} of {len(self.addresses)})"

    def connected(self, *, now: float) -> None:
        """The connection to :attr:`current` came up at ``now`` (seconds, any clock the
        caller keeps to)."""
        self._up_since = now

    def failed(self, *, now: float) -> float:
        """The connection to :attr:`current` failed or was lost at ``now``: move to the
        next broker (now :attr:`current`) and return how long to wait before connecting to
        it — 0 while the round has brokers left to try, the backoff once every one failed.
        A connection that was up ``stable_s`` or longer starts a new count."""
        up_since, self._up_since = self._up_since, None
        if up_since is not None and now - up_since >= self.stable_s:
            self._failed_in_round = 0
            self._rounds_failed = 0
        self._index = (self._index + 1) % len(self.addresses)
        self._failed_in_round += 1
        if self._failed_in_round < len(self.addresses):
            return 0.0
        self._failed_in_round = 0
        delay = float(min(self.min_delay * 2.0**self._rounds_failed, self.max_delay))
        self._rounds_failed += 1
        return delay
