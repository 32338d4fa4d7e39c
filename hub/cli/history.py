"""``feltwire history``: hand-history commands (the thin I/O shell around :mod:`hub.rules.phh`
and the hands store, :mod:`hub.adapters.hands`).

``feltwire history replay PATH... [--json]`` replays ``.phh`` / ``.phhs`` files, or every
such file under a folder, through the rules engine and prints one line per hand:

* without ``--json``: ``PATH[#HAND]  ok|MISMATCH|ILLEGAL  …`` and a summary line;
* with ``--json``: one JSON object per hand, ``{"file": …, "hand": …,
  "finishing_stacks": [...]}`` plus ``"expected"`` (the file's ``finishing_stacks``, if
  any), ``"matches"`` (true/false, null when the file has none) and, when the hand could
  not be replayed, ``"error"`` (the rule id and reason) with ``"finishing_stacks": null``.

Exit status: 0 when every hand replays and matches; 1 when any input is illegal, a file
cannot be read, or the replayed stacks differ from the file's ``finishing_stacks``. One
difference is not counted as a failure: a file that records an odd-chip split as half
chips (some Pluribus hands: ``10112.5``) cannot be matched by whole chips (R-POT-2); such a
hand is reported with ``"matches": false, "half_chip_split": true`` and exits 0 when the
replay differs from the file by at most half a chip per seat with the same total.

``feltwire history import-log --config hub.toml [--table T] [--json]`` rebuilds the hands
store (``[hands]`` of the config, by default ``hands.sqlite`` in its state directory) from
the tables' event logs: every input of each log is replayed through the rules, as a hub's
start does, and every hand that ends is written unless the store has it already (the
store's writes are idempotent), so it may run again at any time. SQLite logs must not be
in use (stop the hub: it holds them locked); with ``event_log_url`` the tables' rows are
read from PostgreSQL in a read-only session, which may run beside the hub. On a
terminal it shows its progress (inputs replayed, hands written); ``--json`` prints one
JSON object per table instead,
``{"table", "log", "inputs", "written", "already", "failed"}``. Ctrl-C stops it between
two hands: every hand written is whole (one transaction each), and running it again
finishes the work. Exit status: 0 done, 1 a log could not be read or a hand not written,
2 a bad config or no store, 130 interrupted.

After the import the config's retention settings are applied (``[hands]
hidden_cards_days``, ``keep_days``: :mod:`hub.adapters.hands.retention`), so what they
erased does not come back from the logs; ``feltwire history prune`` applies them at once
(:mod:`hub.cli.history_prune`).

``feltwire history export --format phh|pokerstars|ohh …`` writes the kept hands
(:mod:`hub.cli.history_export` says how); ``feltwire history stats …`` prints the
players' statistics (:mod:`hub.cli.history_stats`).

>>> main(["replay", "--json", "/nonexistent.phh"])  # doctest: +ELLIPSIS
{"file": "/nonexistent.phh", "hand": null, "finishing_stacks": null, "error": "..."}
1
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any, TextIO

from feltwire.cli import command_parser
from feltwire.config import load_command_config
from hub.adapters.eventlog.backend import TableLog
from hub.adapters.eventlog.errors import psycopg_missing
from hub.adapters.eventlog.pg_schema import safe_url
from hub.adapters.eventlog.store import EventLog
from hub.adapters.hands.retention import apply_retention
from hub.adapters.hands.store import HandStore
from hub.app.errors import EventLogError, HandStoreError, LogUnavailable
from hub.bootstrap import event_log_path, hands_url, replay_table
from hub.cli import history_export, history_prune, history_stats
from hub.cli.hub import default_state_dir
from hub.cli.progress import Progress as _Progress
from hub.config import HubConfig
from hub.rules.errors import RulesError
from hub.rules.phh import HandHistory, loads_all, replay_history

__all__ = ["main"]

_SUFFIXES = (".phh", ".phhs")


def _files(paths: Sequence[str]) -> Iterator[Path]:
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = [f for f in path.rglob("*") if f.suffix in _SUFFIXES and f.is_file()]
            yield from sorted(found, key=_natural)
        else:
            yield path


def _natural(path: Path) -> list[Any]:
    key: list[Any] = []
    for part in path.parts:
        stem = part.rsplit(".", 1)[0]
        key.append((0, int(stem), part) if stem.isdigit() else (1, 0, part))
    return key


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def _half_chip_split(got: Sequence[Decimal], expected: Sequence[Decimal]) -> bool:
    if len(got) != len(expected) or sum(got) != sum(expected):
        return False
    fractional = any(e != e.to_integral_value() for e in expected)
    return fractional and all(
        abs(g - e) <= Decimal("0.5") for g, e in zip(got, expected, strict=True)
    )


def _replay_one(hh: HandHistory) -> tuple[list[Decimal] | None, str | None]:
    try:
        hand = replay_history(hh)
    except RulesError as exc:
        return None, str(exc)
    return [hh.to_file_units(s) for s in hand.stacks], None


def _replay(paths: Sequence[str], as_json: bool, out: TextIO) -> int:
    counts = {"exact": 0, "half": 0, "mismatch": 0, "illegal": 0, "unchecked": 0}
    for path in _files(paths):
        try:
            hands = list(loads_all(path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError, RulesError) as exc:
            counts["illegal"] += 1
            message = str(exc)
            if as_json:
                bad = {"file": str(path), "hand": None, "finishing_stacks": None, "error": message}
                print(json.dumps(bad), file=out)
            else:
                print(f"{path}  ILLEGAL  {message}", file=out)
            continue
        for label, hh in hands:
            hand_id: Any = label or hh.metadata.get("hand")
            stacks, error = _replay_one(hh)
            expected = hh.finishing_stacks
            row: dict[str, Any] = {
                "file": str(path),
                "hand": hand_id,
                "finishing_stacks": None if stacks is None else [_number(s) for s in stacks],
            }
            if expected is not None:
                row["expected"] = [_number(e) for e in expected]
            if error is not None:
                counts["illegal"] += 1
                row["error"] = error
                status = f"ILLEGAL  {error}"
            elif expected is None:
                counts["unchecked"] += 1
                row["matches"] = None
                status = "ok (no finishing_stacks to compare)"
            else:
                assert stacks is not None
                if list(expected) == stacks:
                    counts["exact"] += 1
                    row["matches"] = True
                    status = "ok"
                elif _half_chip_split(stacks, expected):
                    counts["half"] += 1
                    row["matches"] = False
                    row["half_chip_split"] = True
                    status = "ok (the file splits an odd chip into halves; R-POT-2)"
                else:
                    counts["mismatch"] += 1
                    row["matches"] = False
                    status = "MISMATCH  expected " + " ".join(str(_number(e)) for e in expected)
            if as_json:
                print(json.dumps(row), file=out)
            else:
                name = f"{path}#{hand_id}" if label else str(path)
                shown = "" if stacks is None else " ".join(str(_number(s)) for s in stacks)
                print(f"{name}  {status}  {shown}".rstrip(), file=out)
    total = sum(counts.values())
    if not as_json:
        print(
            f"{total} hands: {counts['exact']} exact, {counts['half']} half-chip splits,"
            f" {counts['unchecked']} without finishing stacks, {counts['mismatch']}"
            f" mismatches, {counts['illegal']} illegal",
            file=out,
        )
    return 1 if counts["mismatch"] or counts["illegal"] else 0


def _log_place(config: HubConfig, table: str) -> str:
    """Where ``table``'s event log is, for people: its file, or the database's URL
    without its password (``event_log_url``)."""
    if config.event_log_url is not None:
        return safe_url(config.event_log_url)
    assert config.state_dir is not None
    return str(event_log_path(config.state_dir, table, several=bool(config.tables)))


def _open_log(config: HubConfig, table: str) -> TableLog | None:
    """``table``'s event log opened for the replay (None: the table has none): the SQLite
    file — which a running hub holds locked (EventLogError) — or, with ``event_log_url``,
    its rows in PostgreSQL in a read-only session (a running hub may append meanwhile:
    the replay reads the inputs there when it starts)."""
    url = config.event_log_url
    if url is None:
        path = Path(_log_place(config, table))
        return EventLog(path, table) if path.exists() else None
    try:
        from hub.adapters.eventlog.pg import PgEventLog, last_input
    except ImportError as exc:  # pragma: no cover - the postgres extra is missing
        raise psycopg_missing() from exc
    if last_input(url, table) == 0:
        return None
    return PgEventLog(url, table, read_only=True)


def _import_table(config: HubConfig, table: str, store: HandStore, out: TextIO) -> dict[str, Any]:
    """Replay one table's log into ``store``; the counts (KeyboardInterrupt passes, after
    the hands handed over are written)."""
    row: dict[str, Any] = {"table": table, "log": _log_place(config, table), "inputs": 0}
    row |= {"written": 0, "already": 0, "failed": 0}
    event_log = _open_log(config, table)
    if event_log is None:
        return row | {"error": "no event log"}
    resolved = next(t for t in config.table_configs() if t.table == table)
    try:
        app = replay_table(config, resolved, event_log)
        book = app.hand_book
        book.attach(store)
        progress = _Progress(out, table, event_log.last_seq)
        progress.hands = 0

        def step(seq: int) -> None:
            progress.hands = book.written + book.already
            progress(seq)

        book.progress = step
        try:
            row["inputs"] = app.replay()
        finally:
            app.close()  # the hands handed over are written, each whole
            progress.end()
            row |= {"written": book.written, "already": book.already, "failed": book.failed}
    finally:
        event_log.close()
    return row


def _import_log(args: Any, out: TextIO) -> int:
    prog = "feltwire history import-log"
    config = load_command_config(HubConfig, args.config, prog)
    if isinstance(config, int):
        return config
    if config.state_dir is None:
        config = config.model_copy(update={"state_dir": default_state_dir()})
    url = hands_url(config)
    tables = [t.table for t in config.table_configs()]
    if args.table is not None and args.table not in tables:
        print(f"{prog}: no table {args.table!r} in the config", file=sys.stderr)
        return 2
    if url is None:
        print(f"{prog}: the config keeps no hands store ([hands] enabled = false)", file=sys.stderr)
        return 2
    try:
        store = HandStore.open(url)
    except HandStoreError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    assert config.state_dir is not None
    ok = True
    try:
        for table in [args.table] if args.table else tables:
            try:
                row = _import_table(config, table, store, out)
            except KeyboardInterrupt:
                print(
                    f"{prog}: interrupted at table {table}; every hand written is whole — "
                    "run it again to finish",
                    file=sys.stderr,
                )
                return 130
            except (EventLogError, LogUnavailable, OSError) as exc:
                row = {"table": table, "log": _log_place(config, table), "error": str(exc)}
            ok = ok and "error" not in row and not row.get("failed")
            if args.json:
                print(json.dumps(row), file=out)
            elif "error" in row:
                print(f"table {table}: {row['log']}: {row['error']}", file=out)
            else:
                print(
                    f"table {table}: {row['inputs']} inputs replayed, {row['written']} hands "
                    f"written, {row['already']} already stored, {row['failed']} failed",
                    file=out,
                )
        done = apply_retention(store, config.hands, time.time())
        if done.erased_cards or done.deleted_hands:
            print(
                f"{prog}: retention ([hands] hidden_cards_days, keep_days): "
                f"{done.erased_cards} hidden cards erased, {done.deleted_hands} hands deleted",
                file=sys.stderr,
            )
    finally:
        store.close()
    return 0 if ok else 1


def main(argv: list[str]) -> int:
    """Entry point of ``feltwire history`` (``argv`` excludes ``feltwire history``)."""
    parser, sub = command_parser(
        "feltwire history",
        "Hand histories: replay PHH files; rebuild the hands store; export the kept hands; "
        "the players' statistics.",
    )
    replay = sub.add_parser(
        "replay", help="replay .phh/.phhs files or folders and print the finishing stacks"
    )
    replay.add_argument("paths", nargs="+", metavar="PATH", help="a .phh/.phhs file or a folder")
    replay.add_argument("--json", action="store_true", help="one JSON object per hand")
    imp = sub.add_parser(
        "import-log", help="rebuild the hands store from the tables' event logs (hub stopped)"
    )
    imp.add_argument("--config", type=Path, required=True, help="the hub's hub.toml")
    imp.add_argument("--table", help="only this table (default: every table of the config)")
    imp.add_argument("--json", action="store_true", help="one JSON object of counts per table")
    history_export.add_parser(sub)
    history_stats.add_parser(sub)
    history_prune.add_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "import-log":
        return _import_log(args, sys.stdout)
    if args.command == "export":
        return history_export.export(args)
    if args.command == "stats":
        return history_stats.stats(args)
    if args.command == "prune":
        return history_prune.prune(args)
    return _replay(args.paths, args.json, sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
