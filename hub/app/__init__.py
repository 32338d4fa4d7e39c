"""The per-table application: every accepted input is recorded (the event log), applied
(presence, the rules, lights, equity, the clocks) and published (the feeds, the broker)
behind small ports (:mod:`hub.app.ports`).

Above :mod:`hub.views` and :mod:`hub.config`, below :mod:`hub.adapters`, :mod:`hub.web`
and :mod:`hub.bootstrap`; it imports no adapter.
"""
