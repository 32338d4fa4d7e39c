"""The frames the hub sends to its pages and feeds.

A frame is a JSON object with a ``type`` (``snapshot``, ``antenna``, ``event``, ``alert``,
``state`` …). Today it is a plain dict; the typed protocol models replace this alias.
"""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]
"""One frame of a feed (a JSON object)."""
