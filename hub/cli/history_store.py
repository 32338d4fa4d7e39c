"""What the ``feltwire history`` commands that read the kept hands share (``export``,
``stats``): finding the hands store and choosing the hands.

``--config hub.toml`` names the hub's store (its ``[hands]``); ``--state-dir DIR`` the
SQLite store ``hands.sqlite`` in that directory (where ``feltwire demo --state-dir``
keeps its hands). ``--table``, ``--game`` (variant code), ``--player`` (a name or a club
id) and ``--since`` / ``--until``: a date (``2026-12-02``, from midnight UTC) or a time
(``2026-12-02T21:30``, UTC unless it says otherwise); ``--until`` is exclusive.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from feltwire.config import load_command_config
from hub.adapters.hands.store import HANDS_FILE, HandStore, sqlite_url
from hub.app.errors import HandStoreError
from hub.app.hand_history import HandQuery
from hub.app.hand_history import moment as hand_moment
from hub.bootstrap import hands_url
from hub.cli.hub import default_state_dir
from hub.config import HandsSettings, HubConfig

__all__ = [
    "add_location_arguments",
    "add_store_arguments",
    "hand_query",
    "hands_settings",
    "moment",
    "open_store",
]


def add_store_arguments(parser: argparse.ArgumentParser, player: str) -> None:
    """The store's and the filters' arguments on ``parser`` (``player``: what
    ``--player`` does, for its help)."""
    add_location_arguments(parser)
    parser.add_argument("--table", help="only this table")
    parser.add_argument("--since", type=moment, help="hands started at or after (UTC)")
    parser.add_argument("--until", type=moment, help="hands started before (UTC)")
    parser.add_argument("--player", help=player)
    parser.add_argument("--game", help="one game (variant code: NT, PO, F7S …)")


def add_location_arguments(parser: argparse.ArgumentParser) -> None:
    """``--config`` or ``--state-dir``: where the store is."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--config", type=Path, help="the hub's hub.toml (its [hands] store)")
    where.add_argument("--state-dir", type=Path, help="a state directory (its hands.sqlite)")


def hands_settings(args: Any, prog: str) -> HandsSettings:
    """The ``[hands]`` settings of the config (with ``--state-dir``: the defaults)."""
    if args.state_dir is not None:
        return HandsSettings()
    config = load_command_config(HubConfig, args.config, prog)
    return HandsSettings() if isinstance(config, int) else config.hands


def moment(text: str) -> float:
    """A date or time argument as seconds since the epoch (UTC unless it says)."""
    try:
        return hand_moment(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def hand_query(args: Any, player: str | None = None) -> HandQuery:
    """The hands the filter arguments choose (``player`` in place of ``--player``)."""
    chosen = args.player if player is None else player
    return HandQuery(args.table, args.since, args.until, chosen, args.game)


def open_store(args: Any, prog: str) -> HandStore | str:
    """The store the arguments name, opened, or what is wrong."""
    if args.state_dir is not None:
        path = args.state_dir / HANDS_FILE
        if not path.exists():
            return f"no hands store in {args.state_dir} (no {HANDS_FILE})"
        url = sqlite_url(path)
    else:
        config = load_command_config(HubConfig, args.config, prog)
        if isinstance(config, int):
            return "the config cannot be read"
        if config.state_dir is None:
            config = config.model_copy(update={"state_dir": default_state_dir()})
        found = hands_url(config)
        if found is None:
            return "the config keeps no hands store ([hands] enabled = false)"
        url = found
    try:
        return HandStore.open(url)
    except HandStoreError as exc:
        return str(exc)
