"""Errors of the table node."""

from __future__ import annotations

from feltwire.errors import FeltwireError


class NodeError(FeltwireError, RuntimeError):
    """Something the node cannot do (a missing antenna, a tag that is not there …)."""
