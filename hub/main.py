"""Compatibility shim (issue 14): ``feltwire hub`` moved to :mod:`hub.cli.hub`.

The integrator deletes this module once every importer uses the new path.
"""

from hub.cli.hub import default_state_dir, main

__all__ = ["default_state_dir", "main"]
