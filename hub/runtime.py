"""Compatibility shim (issue 14): the composition root moved to :mod:`hub.bootstrap`.

The integrator deletes this module once every importer uses the new path.
"""

from hub.bootstrap import HubRuntime, event_log_path, start_hub

__all__ = ["HubRuntime", "event_log_path", "start_hub"]
