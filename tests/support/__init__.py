"""What the tests share: behavioural fakes, real processes the tests start, and the
machinery behind the fixtures (the fixtures themselves live in the conftest files:
``tests/conftest.py``, ``tests/browser/conftest.py``,
``tests/integration/security/conftest.py``). Nothing here is collected as a test.

Processes and ports
    :mod:`~tests.support.ports` (free ports, waiting for a listener),
    :mod:`~tests.support.mosquitto` (a Mosquitto of the test's own),
    :mod:`~tests.support.guarded_brokers` (Mosquitto on the shipped template and the
    embedded broker, with certificates and credentials made at test time),
    :mod:`~tests.support.mqtt_client` (a paho client recording what the broker did),
    :mod:`~tests.support.broker_checks` (what the broker security tests check: clients
    of several credentials, the hub's persistent session, a late subscriber),
    :mod:`~tests.support.browser` (headless Chromium through Playwright),
    :mod:`~tests.support.loop_thread` (a service on an event loop in a thread of its own),
    :mod:`~tests.support.mqtt_proxy` (a TCP proxy that duplicates, delays and reorders
    a client's MQTT messages, or cuts the network and holds the connections).
Hubs and rooms
    :mod:`~tests.support.hub_configs` (the hub configs most tests run: embedded broker,
    or a broker the test started),
    :mod:`~tests.support.service` (a hub service in the test process, no broker),
    :mod:`~tests.support.service_surface` (antennas reported straight to that service),
    :mod:`~tests.support.node_reports` (a node's inventories as MQTT messages, no broker),
    :mod:`~tests.support.guarded_hub` (a real hub on a guarded broker),
    :mod:`~tests.support.web_hub` (a real hub with web users; signing in),
    :mod:`~tests.support.room` (a real hub with a node dealing at its table),
    :mod:`~tests.support.console_rig` (the same for the console's browser tests),
    :mod:`~tests.support.eventlog_damage` (a log left by a killed writer, and damage),
    :mod:`~tests.support.wal_frames` (SQLite's WAL read frame by frame; the last commit
    torn),
    :mod:`~tests.support.table_procs` (hub and node as processes for the fault tests:
    seeded hands, the dealer at the console, copies of the state directory, the log's
    rows, the node's outbox, the alerts topic),
    :mod:`~tests.support.clocks` (clocks the test moves),
    :mod:`~tests.support.commands` (running a command's ``main`` in-process),
    :mod:`~tests.support.doctests` (a module's docstring examples as a test).
Rules and equity
    :mod:`~tests.support.oracle_pokerkit` (PokerKit as the engine's oracle),
    :mod:`~tests.support.dealer_sim` (the simulated dealer and antenna surface),
    :mod:`~tests.support.monitor_tables` (one hand's table with a dealing monitor),
    :mod:`~tests.support.table_play` (table hands played through the engine),
    :mod:`~tests.support.drawn_hands` (hands drawn by hypothesis),
    :mod:`~tests.support.table_scripts` (short table scripts in PHH notation),
    :mod:`~tests.support.equity_oracle` (poker-equity as the equity oracle).
Hardware
    :mod:`~tests.support.bridge` (the bridge's in-memory transport and wire to a SimBoard),
    :mod:`~tests.support.frame_strategies` (hypothesis strategies for serial frames),
    :mod:`~tests.support.firmware` (the board's MicroPython firmware, imported by path),
    :mod:`~tests.support.registration_pad` (the deck registration pad and its node).
Documents
    :mod:`~tests.support.readme` (the README's text and TOML examples).
"""
