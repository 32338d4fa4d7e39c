"""The demo's simulated table: a dealer who deals by the rules (and makes chosen
mistakes), the antenna surfaces it deals onto, and ``feltwire demo``.

It sits above ``hub`` and ``table_node`` (it drives both) and belongs to the ``demo``
extra; nothing in ``hub``, ``table_node`` or ``firmware_bridge`` imports it.
"""
