"""The frames the hub sends to its pages and feeds, and the one edge where a protocol
model becomes the JSON object a feed carries.

Every builder in :mod:`hub.views` constructs its model of :mod:`feltwire.protocol` (so
pydantic checks the frame's shape when it is built: a builder cannot make a frame the
published schema refuses) and returns it, or — for callers that still work on JSON
objects — :func:`frame` of it: the fields the builder set, the discriminators (``type``,
``event``) always among them.

>>> from feltwire.protocol import AlertAckFrame
>>> frame(AlertAckFrame(id=3, t=1.5))
{'type': 'alert_ack', 'id': 3, 't': 1.5}
"""

from __future__ import annotations

from collections.abc import Set
from typing import Any

import pydantic_core

from feltwire.protocol.values import FrameModel

__all__ = ["Event", "frame", "frame_bytes", "frame_text"]

Event = dict[str, Any]
"""One frame of a feed, as a JSON object (what :func:`frame` makes of a protocol model).

The app and the web layer still pass frames on as these objects (they add a frame's
``hand``, ``t`` or ``n`` and merge), so the alias stays a plain dict; the views' typed
builders return the protocol models themselves."""


def frame(model: FrameModel, *, exclude: Set[str] = frozenset()) -> Event:
    """``model`` as the JSON object a feed carries: the fields its builder set (a field
    left to its default stays out, as in a frame written by hand), less ``exclude``."""
    return model.model_dump(mode="json", exclude_unset=True, exclude=set(exclude) or None)


def frame_bytes(event: Event) -> bytes:
    """``event`` as compact JSON in UTF-8 (no spaces, non-ASCII as itself): what a feed's
    WebSocket and the public MQTT topics carry. pydantic's encoder (``pydantic_core``,
    pydantic's own core), not :func:`json.dumps`: the same JSON in a quarter of the time —
    a console's state is some 4 KB, encoded for every client after every change
    (issue 16's profile). It differs from ``json.dumps`` only in how it writes some
    floats (``1e-05`` as ``0.00001``, the same number) and NaN (``null``, where
    ``json.dumps`` writes ``NaN``, which no browser parses).

    >>> frame_bytes({"type": "alert_ack", "id": 3, "t": 1.5, "name": "Zoë"}).decode()
    '{"type":"alert_ack","id":3,"t":1.5,"name":"Zoë"}'
    """
    return pydantic_core.to_json(event)


def frame_text(event: Event) -> str:
    """:func:`frame_bytes` as text (a WebSocket's text message)."""
    return frame_bytes(event).decode()
