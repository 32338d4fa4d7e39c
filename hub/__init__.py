"""hub: the table's brain — MQTT ingest, the rules, the web apps, storage.

``hub.rules`` is pure (no I/O, no clock, no randomness); the service, web and broker
modules are the imperative shell around it.
"""
