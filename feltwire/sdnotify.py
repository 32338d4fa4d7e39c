"""Telling systemd how a service is doing: ``READY=1``, ``WATCHDOG=1``, ``STOPPING=1``.

A unit with ``Type=notify`` waits for ``READY=1`` before it counts as started, and one
with ``WatchdogSec=`` kills and restarts a process that stops sending ``WATCHDOG=1``.
The protocol (sd_notify(3)) is one datagram of ``KEY=value`` lines to the AF_UNIX socket
named in ``$NOTIFY_SOCKET``; a name that starts with ``@`` is an abstract socket. Outside
systemd the variable is unset and every call here does nothing.

Written here, about thirty lines, rather than taken from PyPI: the ``sdnotify`` package
is unmaintained since 2017 and ``systemd-python`` needs the libsystemd headers and a
compiler to build (no wheels), which a Raspberry Pi install should not need.

The :class:`Watchdog` is fed from each process's own main loop, never from a thread of
its own: a loop that hangs stops the feeding, and systemd restarts the process.

>>> Watchdog(environ={}).interval is None      # not under a watchdog
True
>>> Watchdog(environ={"WATCHDOG_USEC": "30000000"}).interval   # half of WatchdogSec=30
15.0
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Mapping


def notify(state: str, *, environ: Mapping[str, str] | None = None) -> bool:
    """Send ``state`` (e.g. ``"READY=1"``) to ``$NOTIFY_SOCKET``; False when there is
    none (not started by systemd) or the send failed — never an exception."""
    address = (os.environ if environ is None else environ).get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.sendto(state.encode(), address)
    except OSError:
        return False
    return True


class Watchdog:
    """Feeds systemd's watchdog (``WatchdogSec=``) at half its period.

    Call :meth:`kick` on every turn of the main loop: it sends ``WATCHDOG=1`` only when
    half of ``$WATCHDOG_USEC`` has passed since the last one (on the monotonic ``clock``),
    so a fast loop costs one comparison a turn. Without ``$WATCHDOG_USEC`` (or when
    ``$WATCHDOG_PID`` names another process) :attr:`interval` is None and it does nothing.
    """

    def __init__(
        self,
        *,
        environ: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        env = os.environ if environ is None else environ
        self._environ = env
        self._clock = clock
        self.interval: float | None = None
        """Seconds between two ``WATCHDOG=1`` (None: no watchdog)."""
        usec, pid = env.get("WATCHDOG_USEC", ""), env.get("WATCHDOG_PID", "")
        if usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            self.interval = int(usec) / 2_000_000
        self._last: float | None = None

    def kick(self) -> None:
        """Send ``WATCHDOG=1`` if it is due."""
        if self.interval is None:
            return
        now = self._clock()
        if self._last is None or now - self._last >= self.interval:
            self._last = now
            notify("WATCHDOG=1", environ=self._environ)


__all__ = ["Watchdog", "notify"]
