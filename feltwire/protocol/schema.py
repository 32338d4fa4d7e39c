"""The published contract: one JSON Schema (Draft 2020-12) document of every MQTT payload
and every page feed, and ``feltwire protocol schema`` that prints or writes it.

The document's ``$defs`` name each payload (``ReaderInventory``, ``LightCommand``,
``AlertPayload`` …) and each feed's union (``PublicFrame``, ``ConsoleFrame``,
``OverlayFrame``) and the JSON API answers it publishes (``HandList``, ``HandView``,
``HistoryStats``);
``x-feltwire`` says which topic, which WebSocket and which API route carries which.
``docs/protocol.schema.json`` is this document, committed; a test keeps it current.

>>> doc = schema_document()
>>> doc["x-feltwire"]["feeds"]["/ws/public"]
'#/$defs/PublicFrame'
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from pydantic import TypeAdapter
from pydantic.json_schema import JsonSchemaMode

from feltwire.cli import command_parser
from feltwire.protocol.alerts import AlertPayload
from feltwire.protocol.frames import ConsoleFrame, OverlayFrame, PublicFeedFrame, PublicFrame
from feltwire.protocol.history import HandList, HandView, HistoryStats
from feltwire.protocol.payloads import (
    PROTOCOL_VERSION,
    Availability,
    ButtonPress,
    LightCommand,
    ReaderInventory,
)
from feltwire.protocol.topics import TOPIC_PREFIX

DRAFT: Final = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_ID: Final = f"urn:feltwire:protocol:v{PROTOCOL_VERSION}"
SCHEMA_FILE: Final = "docs/protocol.schema.json"
"""Where the repository keeps the published document (relative to its root)."""

_ENTRIES: Final[dict[str, Any]] = {
    "ReaderInventory": ReaderInventory,
    "ButtonPress": ButtonPress,
    "LightCommand": LightCommand,
    "Availability": Availability,
    "AlertPayload": AlertPayload,
    "PublicFeedFrame": PublicFeedFrame,
    "PublicFrame": PublicFrame,
    "ConsoleFrame": ConsoleFrame,
    "OverlayFrame": OverlayFrame,
    "HandList": HandList,
    "HandView": HandView,
    "HistoryStats": HistoryStats,
}
"""Each named entry of the document and the type it is the schema of."""

TOPICS: Final = {
    f"{TOPIC_PREFIX}/{{table}}/node/{{node}}/reader/{{reader}}/tags": "ReaderInventory",
    f"{TOPIC_PREFIX}/{{table}}/node/{{node}}/button": "ButtonPress",
    f"{TOPIC_PREFIX}/{{table}}/node/{{node}}/availability": "Availability",
    f"{TOPIC_PREFIX}/{{table}}/seat/{{seat}}/light/set": "LightCommand",
    f"{TOPIC_PREFIX}/{{table}}/alerts": "AlertPayload",
    f"{TOPIC_PREFIX}/{{table}}/public": "PublicTopicPayload",
}
"""Each MQTT topic and the entry of its payload (availability: the bare word, not JSON)."""

FEEDS: Final = {
    "/ws/public": "PublicFrame",
    "/ws/console": "ConsoleFrame",
    "/ws/overlay": "OverlayFrame",
}
"""Each page's WebSocket and the entry of its frames."""

API: Final = {
    "/api/history/hands": "HandList",
    "/api/history/hands/{id}": "HandView",
    "/api/history/stats": "HistoryStats",
}
"""Each JSON API route whose answer is an entry of the document."""


def _ref(name: str) -> str:
    return f"#/$defs/{name}"


def _tidy(node: Any) -> Any:
    """Drop the OpenAPI ``discriminator`` hints pydantic writes for a nested union (their
    mapping values are schemas, not references, which OpenAPI refuses); ``oneOf`` still
    says everything. Validators of JSON Schema ignore the keyword either way."""
    if isinstance(node, list):
        return [_tidy(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _tidy(value) for key, value in node.items()}
    hint = out.get("discriminator")
    if isinstance(hint, dict) and not all(
        isinstance(v, str) for v in hint.get("mapping", {}).values()
    ):
        del out["discriminator"]
    return out


def schema_document() -> dict[str, Any]:
    """The whole contract as one JSON Schema document (a fresh dict on every call)."""
    mode: JsonSchemaMode = "validation"
    inputs = [(name, mode, TypeAdapter(kind)) for name, kind in _ENTRIES.items()]
    roots, definitions = TypeAdapter.json_schemas(inputs, ref_template="#/$defs/{model}")
    defs: dict[str, Any] = dict(definitions.get("$defs", {}))
    for (name, _), root in roots.items():
        if root == {"$ref": _ref(name)}:
            continue  # a model: its schema is in the definitions under its name already
        if name in defs:
            raise RuntimeError(f"two schemas are named {name}")
        defs[name] = root
    defs["PublicTopicPayload"] = {
        "description": "a public feed frame, as JSON (it carries no v today)",
        "$ref": _ref("PublicFeedFrame"),
    }
    doc: dict[str, Any] = _tidy(
        {
            "$schema": DRAFT,
            "$id": SCHEMA_ID,
            "title": f"feltwire protocol v{PROTOCOL_VERSION}",
            "description": (
                "Every MQTT payload and every page frame feltwire sends. Validate a message "
                "against the $defs entry its topic or WebSocket names in x-feltwire."
            ),
            "x-feltwire": {
                "version": PROTOCOL_VERSION,
                "topics": {topic: _ref(name) for topic, name in TOPICS.items()},
                "feeds": {path: _ref(name) for path, name in FEEDS.items()},
                "api": {path: _ref(name) for path, name in API.items()},
            },
            "$defs": dict(sorted(defs.items())),
        }
    )
    return doc


def schema_text() -> str:
    """The document as the committed file has it: indented JSON, one newline at the end."""
    return json.dumps(schema_document(), indent=2, ensure_ascii=False) + "\n"


def main(argv: Sequence[str]) -> int:
    """Entry point of ``feltwire protocol``."""
    parser, commands = command_parser("feltwire protocol", "the wire protocol's published contract")
    schema = commands.add_parser(
        "schema", help="print the JSON Schema of every MQTT payload and page frame"
    )
    schema.add_argument("--out", type=Path, help=f"write it to this file (e.g. {SCHEMA_FILE})")
    args = parser.parse_args(list(argv))
    text = schema_text()
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        args.out.write_text(text, encoding="utf-8")
    except OSError as err:
        print(f"feltwire protocol schema: cannot write {args.out}: {err}", file=sys.stderr)
        return 1
    return 0


__all__ = ["FEEDS", "SCHEMA_FILE", "SCHEMA_ID", "TOPICS", "main", "schema_document", "schema_text"]
