"""Compatibility shim (issue 14): the ingest moved to :mod:`hub.app.ingest`.

The integrator deletes this module once every importer uses the new path.
"""

from hub.app.ingest import InventoryRead

__all__ = ["InventoryRead"]
