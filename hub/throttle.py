"""Compatibility shim (issue 14): the throttled log moved to :mod:`hub.app.throttle`.

The integrator deletes this module once every importer uses the new path.
"""

from hub.app.throttle import ThrottledLog

__all__ = ["ThrottledLog"]
