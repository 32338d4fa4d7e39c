"""The serial port adapter: pyserial behind the small :class:`Port` interface.

The bridge only needs "read what arrived", "write these bytes" and "close"; everything
pyserial can raise becomes :class:`~firmware_bridge.errors.PortError`, so the bridge has
one thing to catch when a cable is pulled. Tests hand the bridge the same adapter over a
pseudo-terminal (or ``loop://``), so the real pyserial code runs.

>>> port = SerialPort("loop://", 115200, timeout=0.01)
>>> port.write(b"\\x00hello\\x00")
>>> port.read(64)
b'\\x00hello\\x00'
>>> port.close()
"""

from __future__ import annotations

import contextlib
from typing import Protocol

import serial

from firmware_bridge.errors import PortError


class Port(Protocol):
    """A byte stream to one board."""

    def read(self, size: int) -> bytes:
        """Up to ``size`` bytes; waits at most the port's timeout, then ``b""``."""
        ...

    def write(self, data: bytes) -> None:
        """Send ``data`` (raises PortError when the port is gone)."""
        ...

    def close(self) -> None:
        """Release the port; safe to call twice."""
        ...


class SerialPort:
    """A pyserial port (device path or pyserial URL) that raises only PortError.

    A plain device path is opened exclusively (``flock``), so a second bridge — or
    ModemManager probing a new ttyACM — cannot read the same board unnoticed.
    """

    def __init__(self, url: str, baud: int, *, timeout: float = 0.05) -> None:
        self.url = url
        extra = {} if "://" in url else {"exclusive": True}
        try:
            self._serial = serial.serial_for_url(
                url, baudrate=baud, timeout=timeout, write_timeout=1.0, **extra
            )
        except (serial.SerialException, OSError, ValueError) as exc:
            raise PortError(f"cannot open serial port {url}: {exc}") from None

    def read(self, size: int) -> bytes:
        """Whatever arrived (at least one byte unless the timeout passes), up to ``size``."""
        try:
            waiting = int(self._serial.in_waiting)
            data = self._serial.read(max(1, min(size, waiting)))
        except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
            # pyserial raises TypeError/AttributeError when the port was closed under it
            raise PortError(f"serial port {self.url} lost: {exc}") from None
        return bytes(data)

    def write(self, data: bytes) -> None:
        """Send ``data`` completely (or raise PortError)."""
        try:
            self._serial.write(data)
        except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
            raise PortError(f"serial port {self.url} lost while writing: {exc}") from None

    def close(self) -> None:
        """Close the port, ignoring a device that is already gone."""
        with contextlib.suppress(serial.SerialException, OSError):
            self._serial.close()


__all__ = ["Port", "SerialPort"]
