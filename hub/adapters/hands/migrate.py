"""The hands store's migration in a process of its own: ``python -m
hub.adapters.hands.migrate`` reads a store URL on stdin (never on the command line, where
``ps`` shows a password), opens the store there — which brings its schema to the newest
(:meth:`~hub.adapters.hands.store.HandStore.open`) — and exits 0, or prints why not on
stderr and exits 1.

A hub opens its store with ``migrate_apart=True``: a database that needs migrating (a new
one at the first start, an older hub's after an upgrade) is migrated here, so Alembic and
what it loads (about 10 MB) never stay in the hub's process, which runs all night on a
Raspberry Pi.
"""

from __future__ import annotations

import sys

from hub.adapters.hands.store import HandStore
from hub.app.errors import HandStoreError


def main() -> int:
    url = sys.stdin.readline().strip()
    try:
        HandStore.open(url).engine.dispose()
    except HandStoreError as exc:  # every failure the store knows, Alembic's included
        print(str(exc).splitlines()[0], file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
