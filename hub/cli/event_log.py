"""``feltwire event-log``: check the hub's event logs, and accept a loss explicitly.

    feltwire event-log check --config hub.toml [--table T]
    feltwire event-log accept-loss --config hub.toml [--table T]

``check`` verifies each table's log read-only (every row's hash chain, the last row
against the seal: :func:`hub.adapters.eventlog.check_log`) and prints its path, how many inputs
verify, the last one's sequence number and time, and OK or the damage; exit 1 when a log
is damaged or cannot be checked (a running hub holds it). ``accept-loss`` is how the
operator lets a hub start on a damaged log (it refuses to otherwise): it keeps the inputs
that verify, moves the damaged files aside as ``events.sqlite.damaged-<UTC time>`` (with
their ``-wal`` and ``.seal``) for forensics, rebuilds and reseals the log, records the
loss in it (the hub tells the dealer at start) and prints what was dropped. The logs are
found as ``feltwire hub`` finds them: ``state_dir`` of the config, else
``$STATE_DIRECTORY`` or ``./feltwire-state`` — or, with ``event_log_url``, in that
PostgreSQL database: ``check`` verifies each table's rows there (their chain, no input
missing: :func:`hub.adapters.eventlog.pg.check_url`, read-only), and ``accept-loss``
refuses (a database is restored from its backup, see :mod:`hub.adapters.eventlog.pg`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from feltwire.cli import command_parser
from feltwire.config import load_command_config
from hub.adapters.eventlog.repair import accept_loss
from hub.adapters.eventlog.report import check_log
from hub.app.errors import EventLogError
from hub.app.records import local_time
from hub.bootstrap import event_log_path
from hub.cli.hub import default_state_dir
from hub.config import HubConfig

PROG = "feltwire event-log"


def _parser() -> argparse.ArgumentParser:
    parser, commands = command_parser(PROG, "Check the hub's event logs; accept a loss explicitly.")
    for name, text in (
        ("check", "verify each table's event log and print OK or the damage (exit 1)"),
        (
            "accept-loss",
            "keep what verifies of a damaged log, move the damaged files aside, reseal",
        ),
    ):
        command = commands.add_parser(name, help=text, description=text)
        command.add_argument("--config", type=Path, required=True, help="the hub's hub.toml")
        command.add_argument("--table", help="only this table (default: every table)")
    return parser


def _logs(config: HubConfig, only: str | None) -> list[tuple[str, Path]]:
    """Each table's id and log path, as the hub finds them (EventLogError: no such table)."""
    state_dir = config.state_dir if config.state_dir is not None else default_state_dir()
    tables = [t.table for t in config.table_configs()]
    if only is not None:
        if only not in tables:
            raise EventLogError(f"no table {only!r} in the config (tables: {', '.join(tables)})")
        tables = [only]
    several = bool(config.tables)
    return [(t, event_log_path(state_dir, t, several=several)) for t in tables]


def _check(table: str, path: Path) -> bool:
    report = check_log(path, table)
    print(f"table {table}: {path}")
    if report.damage is not None:
        print("  " + report.message().replace("\n", "\n  "))
        return False
    if report.schema is None and report.seal is None:
        print("  OK: no log yet (the hub starts a new one)")
    else:
        last = (
            f", the last ({report.inputs}) of {local_time(report.last_time)}"
            if report.inputs
            else ""
        )
        notes = []
        if report.schema == 1:
            notes.append("schema 1: the hub migrates it when it opens it")
        if report.ahead:
            notes.append("the seal lags behind the log: the hub rewrites it")
        note = f" ({'; '.join(notes)})" if notes else ""
        print(f"  OK: {report.inputs} inputs{last}{note}")
    for loss in report.losses:
        print(f"  accepted loss: {loss}")
    return True


def _accept(table: str, path: Path) -> None:
    loss = accept_loss(path, table)
    if loss is None:
        print(f"table {table}: {path} is sound; nothing to accept")
        return
    print(f"table {table}: {path}: loss accepted and recorded in the log")
    print(f"  {loss.description}")


def _on_postgres(url: str, tables: list[str], command: str) -> int:
    """``check`` or ``accept-loss`` of the logs in the PostgreSQL database at ``url``."""
    from hub.adapters.eventlog.pg import check_url, safe_url

    if command != "check":
        print(
            f"{PROG}: the event logs are in PostgreSQL ({safe_url(url)}): accept-loss is for "
            "SQLite files; restore the database from its backup",
            file=sys.stderr,
        )
        return 2
    ok = True
    for table in tables:
        try:
            report = check_url(url, table)
        except EventLogError as exc:
            print(f"table {table}: {exc}")
            ok = False
            continue
        print(f"table {table}: {report.where}")
        if report.damage is not None:
            print("  " + report.message().replace("\n", "\n  "))
            ok = False
        elif report.inputs == 0:
            print("  OK: no log yet (the hub starts a new one)")
        else:
            wall = report.last_wall if report.last_wall is not None else report.last_t
            print(f"  OK: {report.inputs} inputs, the last of {local_time(wall)}")
    return 0 if ok else 1


def main(argv: list[str]) -> int:
    """Entry point of ``feltwire event-log``; returns the exit code."""
    args = _parser().parse_args(argv)
    config = load_command_config(HubConfig, args.config, PROG)
    if isinstance(config, int):
        return config
    try:
        logs = _logs(config, args.table)
    except EventLogError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    if config.event_log_url is not None:
        return _on_postgres(config.event_log_url, [table for table, _ in logs], args.command)
    ok = True
    for table, path in logs:
        try:
            if args.command == "check":
                ok = _check(table, path) and ok
            else:
                _accept(table, path)
        except (EventLogError, OSError) as exc:
            print(f"table {table}: {exc}")
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
