"""feltwire: the ground floor every feltwire process shares.

The wire protocol (topics, message models, schema versions), card codes and config
loading live here. This package imports nothing from ``hub``, ``table_node`` or
``firmware_bridge``.
"""

__version__ = "0.1.0"
