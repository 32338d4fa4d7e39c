"""table_node: the Pi at the table — readers in, inventories out over MQTT.

Readers sit behind the small :class:`~table_node.reader.Reader` interface; the simulated
backend (:mod:`table_node.simulated`) is just another reader, so the demo runs the same
node code as a real table.
"""
