"""Compatibility shim (issue 14): the table's rules service moved to
:mod:`hub.app.table_service`, its frames to :mod:`hub.views.table`.

The integrator deletes this module once every importer uses the new path.
"""

from hub.app.table_service import ConsoleInput, TableService
from hub.views.table import public_event

__all__ = ["ConsoleInput", "TableService", "public_event"]
