"""The wire protocol: every MQTT topic and payload and every page frame, in one place.

The contract is documented in ``docs/protocol.md`` and published as JSON Schema in
``docs/protocol.schema.json`` (``feltwire protocol schema``); this package is its
executable form and every process imports it:

* :mod:`~feltwire.protocol.topics` — the topic grammar ``feltwire/v1/<table>/…``;
* :mod:`~feltwire.protocol.payloads` — the MQTT payloads of nodes and the hub's light
  commands, with their strict reader (each carries the schema version ``v``);
* :mod:`~feltwire.protocol.alerts` — alert frames and the alerts topic's payload;
* :mod:`~feltwire.protocol.table`, :mod:`~feltwire.protocol.events`,
  :mod:`~feltwire.protocol.console`, :mod:`~feltwire.protocol.overlay` — the page frames;
* :mod:`~feltwire.protocol.frames` — each feed's discriminated union;
* :mod:`~feltwire.protocol.history` — the hand history's API payloads;
* :mod:`~feltwire.protocol.schema` — the JSON Schema document of all of it.

>>> reader_tags_topic("t1", "pi-north", "seat3")
'feltwire/v1/t1/node/pi-north/reader/seat3/tags'
>>> topic = parse_topic("feltwire/v1/t1/node/pi-north/reader/seat3/tags")
>>> topic.kind, topic.table, topic.node, topic.target
(<TopicKind.READER_TAGS: 'reader_tags'>, 't1', 'pi-north', 'seat3')
"""

# The package's names: every public name (``__all__``) of the contract's modules, so a
# name is listed once, where it is defined (the building blocks in ``values`` and the
# schema command stay in their modules).
from feltwire.protocol import (
    alerts,
    console,
    events,
    frames,
    history,
    overlay,
    payloads,
    table,
    topics,
)
from feltwire.protocol.alerts import *  # noqa: F403
from feltwire.protocol.console import *  # noqa: F403
from feltwire.protocol.events import *  # noqa: F403
from feltwire.protocol.frames import *  # noqa: F403
from feltwire.protocol.history import *  # noqa: F403
from feltwire.protocol.overlay import *  # noqa: F403
from feltwire.protocol.payloads import *  # noqa: F403
from feltwire.protocol.table import *  # noqa: F403
from feltwire.protocol.topics import *  # noqa: F403

__all__ = [
    *alerts.__all__,
    *console.__all__,
    *events.__all__,
    *frames.__all__,
    *history.__all__,
    *overlay.__all__,
    *payloads.__all__,
    *table.__all__,
    *topics.__all__,
]
