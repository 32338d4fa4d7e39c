"""Errors of the hub's adapters (broker, MQTT, audit trail): one root, each also a builtin."""

from __future__ import annotations

from feltwire.errors import FeltwireError


class AdapterError(FeltwireError):
    """Root of what the hub's adapters raise on purpose."""


class AuditError(AdapterError, OSError):
    """The audit trail cannot be opened, or its chain does not verify."""
