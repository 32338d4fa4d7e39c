"""``feltwire history stats``: the players' statistics of the kept hands (the I/O shell
around :mod:`hub.adapters.hands.stats`, which says what each figure counts).

    feltwire history stats [--config hub.toml | --state-dir DIR] [--table T]
        [--since DATE] [--until DATE] [--player NAME] [--game CODE] [--sessions] [--json]

The store and the filters as :mod:`hub.cli.history_store` says; ``--player`` shows that
person only (a name or a club id). One row per person, or with ``--sessions`` one per
session (a person's hands at one table with no more than 60 minutes between two): a
table of figures, or with ``--json`` one JSON object a line — the counts and the figures
(:meth:`hub.adapters.hands.stats.Stats.as_json`; percentages 0–100, null when nothing
could count; a session's ``table``, ``started`` and ``ended`` in seconds since the
epoch). Exit status: 0 done (also when no hand matched), 2 a bad argument or no store.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, TextIO

from hub.adapters.hands.stats import SessionStats, Stats, player_stats, session_stats
from hub.cli.history_store import add_store_arguments, hand_query, open_store

__all__ = ["add_parser", "stats"]

PROG = "feltwire history stats"
_COLUMNS = ("player", "hands", "VPIP", "PFR", "3-bet", "AF", "WTSD", "W$SD", "net")
_RATES = ("chips/h", "hands/h")


def add_parser(sub: Any) -> None:
    """The ``stats`` command's arguments, on ``feltwire history``'s subcommands."""
    cmd = sub.add_parser("stats", help="the players' statistics of the kept hands")
    add_store_arguments(cmd, "only this player (name or club id)")
    cmd.add_argument("--sessions", action="store_true", help="one row per session")
    cmd.add_argument("--json", action="store_true", help="one JSON object a line")


def _figure(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M")


def _row(s: Stats) -> list[str]:
    who = s.player.name + (f" ({s.player.club_id})" if s.player.club_id else "")
    head = [who]
    if isinstance(s, SessionStats):
        head += [s.table, _when(s.started), _when(s.ended)]
    figures = (s.vpip, s.pfr, s.three_bet)
    return [
        *head,
        str(s.hands),
        *(_figure(f) for f in figures),
        _figure(s.aggression, 2),
        _figure(s.wtsd),
        _figure(s.wsd),
        f"{s.net:+d}",
        _figure(s.chips_per_hour, 0),
        _figure(s.hands_per_hour),
    ]


def _table(rows: Sequence[Stats], sessions: bool, out: TextIO) -> None:
    header = [_COLUMNS[0], *(("table", "from", "to") if sessions else ()), *_COLUMNS[1:]]
    lines = [[*header, *_RATES], *(_row(s) for s in rows)]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header) + len(_RATES))]

    def show(cells: Sequence[str]) -> str:
        right = [c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True)]
        return "  ".join([cells[0].ljust(widths[0]), *right]).rstrip()

    print(show(lines[0]), file=out)
    print("  ".join("-" * w for w in widths), file=out)
    for line in lines[1:]:
        print(show(line), file=out)


def stats(args: Any, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run ``feltwire history stats`` with parsed ``args``; the exit status."""
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    store = open_store(args, PROG)
    if isinstance(store, str):
        print(f"{PROG}: {store}", file=stderr)
        return 2
    try:
        query = hand_query(args)
        rows: Sequence[Stats] = (
            session_stats(store, query) if args.sessions else player_stats(store, query)
        )
    finally:
        store.close()
    if args.json:
        for s in rows:
            print(json.dumps(s.as_json()), file=stdout)
    elif not rows:
        print("no hands matched", file=stdout)
    else:
        _table(rows, args.sessions, stdout)
    return 0
