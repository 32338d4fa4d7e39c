"""``feltwire history prune``: apply the hands store's retention settings now.

    feltwire history prune [--config hub.toml | --state-dir DIR] [--json]

The store and its ``[hands]`` settings (``hidden_cards_days``, ``keep_days``) are the
config's; with ``--state-dir``, the SQLite store there under the default settings. A
running hub applies them at its start and every hour by itself
(:mod:`hub.adapters.hands.retention`); this is for the operator who changed them, or
wants a store cleaned before it is copied. Prints what it did (``--json``: one object
``{"erased_cards", "deleted_hands"}``); exit 0, 1 when the store failed, 2 when there
is no store.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from sqlalchemy.exc import SQLAlchemyError

from hub.adapters.hands.retention import apply_retention
from hub.app.errors import HandStoreError
from hub.cli.history_store import add_location_arguments, hands_settings, open_store

PROG = "feltwire history prune"


def add_parser(sub: Any) -> None:
    """``prune``'s arguments, on ``feltwire history``'s subcommands."""
    prune: argparse.ArgumentParser = sub.add_parser(
        "prune", help="apply the hands store's retention settings now"
    )
    add_location_arguments(prune)
    prune.add_argument("--json", action="store_true", help="the counts as one JSON object")


def prune(args: Any, out: TextIO | None = None) -> int:
    """Run ``feltwire history prune`` with parsed ``args``."""
    out = sys.stdout if out is None else out
    store = open_store(args, PROG)
    if isinstance(store, str):
        print(f"{PROG}: {store}", file=sys.stderr)
        return 2
    try:
        done = apply_retention(store, hands_settings(args, PROG), time.time())
    except (HandStoreError, SQLAlchemyError) as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1
    finally:
        store.close()
    if args.json:
        counts = {"erased_cards": done.erased_cards, "deleted_hands": done.deleted_hands}
        print(json.dumps(counts), file=out)
    else:
        print(f"{done.erased_cards} hidden cards erased, {done.deleted_hands} hands deleted",
              file=out)  # fmt: skip
    return 0
