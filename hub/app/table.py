"""One table's application as the layers above see it: the live side
(:class:`~hub.app.hub_service.HubService`: reads, presence, feeds, log) and, when the hub
enforces the rules, the rules side (:class:`~hub.app.table_service.TableService`).

The two sides know each other only through the ports (:mod:`hub.app.ports`); this module,
which imports both, is where the layers above get the rules side with its full type.

>>> from feltwire.deck import simulated_deck
>>> from hub.config import default_readers
>>> from hub.app.hub_service import HubService
>>> live = HubService(table="t1", readers=default_readers(), deck=simulated_deck(),
...                   max_payload_bytes=4096, overlay_delay_s=0)
>>> table_rules(live) is None
True
"""

from __future__ import annotations

from hub.app.hub_service import HubService
from hub.app.table_service import TableService

__all__ = ["table_rules"]


def table_rules(live: HubService) -> TableService | None:
    """The rules side of the table ``live`` serves (None: the hub shows presence only)."""
    rules = live.rules
    assert rules is None or isinstance(rules, TableService), type(rules)
    return rules
