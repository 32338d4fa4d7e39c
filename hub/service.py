"""Compatibility shim (issue 14): the per-table service moved to :mod:`hub.app.hub_service`.

The integrator deletes this module once every importer uses the new path.
"""

from hub.app.errors import LogUnavailable
from hub.app.hub_service import HubService

__all__ = ["HubService", "LogUnavailable"]
