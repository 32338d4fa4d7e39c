"""The addresses the demo prints: where a phone on the club's network opens the pages.

A hub bound to every interface (``0.0.0.0`` or ``::``) is reached at this machine's LAN
addresses, not at 127.0.0.1, which on a phone is the phone itself. :func:`lan_addresses`
asks the kernel for each interface's IPv4 address (``SIOCGIFADDR``: no packet is sent);
:func:`page_bases` makes the pages' base URLs of them.

>>> page_bases("0.0.0.0", "http://127.0.0.1:8080", addresses=["192.168.1.20", "10.0.0.7"])
['http://192.168.1.20:8080', 'http://10.0.0.7:8080']
>>> page_bases("127.0.0.1", "http://127.0.0.1:8080", addresses=["192.168.1.20"])
['http://127.0.0.1:8080']
>>> page_bases("0.0.0.0", "http://127.0.0.1:8080", addresses=[])
['http://127.0.0.1:8080']
"""

from __future__ import annotations

import contextlib
import fcntl
import ipaddress
import socket
import struct
from collections.abc import Sequence
from urllib.parse import urlsplit

__all__ = ["EVERY_INTERFACE", "lan_addresses", "page_bases"]

EVERY_INTERFACE = frozenset({"0.0.0.0", "::", ""})
"""Bind addresses that mean every interface."""
_SIOCGIFADDR = 0x8915


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback and link-local, interface by
    interface (Linux); an empty list when none can be read."""
    out: list[str] = []
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        return out
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for name in names:
            with contextlib.suppress(OSError):
                request = struct.pack("256s", name[:15].encode())
                answer = fcntl.ioctl(s.fileno(), _SIOCGIFADDR, request)
                address = ipaddress.IPv4Address(answer[20:24])
                if not (address.is_loopback or address.is_link_local or address.is_unspecified):
                    out.append(str(address))
    return list(dict.fromkeys(out))


def page_bases(host: str, web_url: str, addresses: Sequence[str] | None = None) -> list[str]:
    """The base URLs to print for a web server bound to ``host`` and serving at
    ``web_url`` (the hub's own, 127.0.0.1 for every interface): one per LAN address when
    ``host`` is every interface (``addresses``: those, by default
    :func:`lan_addresses`), else ``web_url`` alone — and ``web_url`` when no LAN address
    is found."""
    if host not in EVERY_INTERFACE:
        return [web_url]
    found = lan_addresses() if addresses is None else list(addresses)
    port = urlsplit(web_url).port
    bases = [f"http://{a}:{port}" for a in found]
    return bases or [web_url]
