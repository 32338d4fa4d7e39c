"""Fixtures every part of the suite may use: a real Mosquitto on a free port, a
PostgreSQL server of the tests' own (one per session), and the table's certificates and
credentials made once per session. Their machinery lives in
:mod:`tests.support`; the browser's fixture is in ``tests/browser/conftest.py``, the
guarded brokers' in ``tests/integration/security/conftest.py``."""

from __future__ import annotations

import gc
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.guarded_brokers import TableSecrets, make_table_secrets
from tests.support.mosquitto import MosquittoProcess
from tests.support.postgres import PostgresServer, postgres_server


@pytest.fixture(autouse=True)
def _process_logging_restored() -> Iterator[None]:
    """The process's logging as it was before each test: a command's ``main`` run in the
    tests' process (``feltwire hub``'s, ``feltwire event-log``'s, past its config check)
    sets up logging on the stderr pytest captures for that one test. Left in place, every
    later test logged into a closed file, and each record's failure was printed with its
    traceback from whichever thread logged — formatting a traceback parses source, and
    Python 3.11.7 parsing in two threads at once can fail the other with "SystemError: AST
    constructor recursion depth mismatch" (CPython gh-106905; CI met it in
    test_schemathesis, its hub's thread logging while the test imported schemathesis).
    pytest's own capture handlers are left to pytest."""
    root = logging.getLogger()

    def streams() -> list[logging.Handler]:
        return [h for h in root.handlers if type(h) is logging.StreamHandler]

    before, level = streams(), root.level
    yield
    for handler in streams():
        if handler not in before:
            root.removeHandler(handler)
    for handler in before:
        if handler not in root.handlers:
            root.addHandler(handler)
    root.setLevel(level)


@pytest.fixture(autouse=True, scope="module")
def _module_garbage_collected() -> Iterator[None]:
    """Each module's garbage collected as the module ends: a socket, transport or
    stream a module's tests left unclosed warns — an error, by pyproject's
    ``filterwarnings`` — in that module's last test, not in whichever test the collector
    happened to run in next (the tests run on several workers in no fixed order: a hub's
    listening socket left open by its stop failed a rules test of another module)."""
    yield
    gc.collect()


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[MosquittoProcess]:
    """A fresh Mosquitto on a free port, stopped after the test."""
    broker = MosquittoProcess(tmp_path)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """The tests' own PostgreSQL server (started once, when a test first asks for it;
    the test is skipped, with the reason, when PostgreSQL is not installed)."""
    with postgres_server() as server:
        yield server


@pytest.fixture(scope="session")
def table_secrets(tmp_path_factory: pytest.TempPathFactory) -> TableSecrets:
    """A CA, a server certificate for 127.0.0.1/localhost, a node's client certificate,
    and credentials: the hub and node ``pi1`` of table1, the hub and node ``pi9`` of table2."""
    return make_table_secrets(tmp_path_factory.mktemp("secrets"))
