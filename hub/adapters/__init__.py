"""The hub's adapters to the world: the MQTT connection, the embedded broker and the
audit log (the event log joins them once it is a package). Only :mod:`hub.bootstrap`
wires them to the application.
"""
