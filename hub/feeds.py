"""Compatibility shim (issue 14): the live feeds moved to :mod:`hub.app.feeds`, the
frame type to :mod:`hub.views.frames`.

The integrator deletes this module once every importer uses the new path.
"""

from hub.app.feeds import Broadcaster, DelayedRelease, Subscription
from hub.views.frames import Event

__all__ = ["Broadcaster", "DelayedRelease", "Event", "Subscription"]
