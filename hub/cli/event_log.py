"""``feltwire event-log``: check the hub's event logs, accept a loss explicitly, copy
the SQLite logs into PostgreSQL.

    feltwire event-log check --config hub.toml [--table T]
    feltwire event-log accept-loss --config hub.toml [--table T]
    feltwire event-log copy --config hub.toml [--to postgresql://…] [--table T] [--json]

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

``copy`` moves a room from SQLite to PostgreSQL: each table's SQLite log (found as
above, in ``state_dir``, whatever ``event_log_url`` says) is verified and copied into the
database at ``--to`` — by default the config's ``event_log_url``, which keeps the
password out of the shell's history — every input with its chain, and its snapshots, in
one transaction per table (:func:`hub.adapters.eventlog.pg_copy.copy_log`). A table the
database holds already with exactly those inputs is left as it is (so a run after an
interruption finishes the rest), one it holds other rows of is refused; so is a damaged
log and one a running hub holds. Then ``event_log_url`` in ``hub.toml`` makes the hub
resume every table where it was. On a terminal it shows its progress; ``--json`` prints
one object per table instead: ``{"table", "log", "to", "status": "copied" | "already"
| "no log" | "not copied", "inputs", "last", "snapshots", "losses_not_copied"}`` (and
``"error"``). Exit status: 0 every table copied, already there or without a log; 1 a
table refused or not copied, or no table has a SQLite log at all (a wrong ``state_dir``?);
2 a bad config, table or URL; 130 interrupted (Ctrl-C: the table under way is not in
the database at all, and running it again finishes).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from feltwire.cli import command_parser
from feltwire.config import load_command_config
from hub.adapters.eventlog.backend import PG_SCHEMES
from hub.adapters.eventlog.pg_schema import safe_url
from hub.adapters.eventlog.repair import accept_loss
from hub.adapters.eventlog.report import check_log
from hub.app.errors import EventLogError
from hub.app.records import local_time
from hub.bootstrap import event_log_path
from hub.cli.hub import default_state_dir
from hub.cli.progress import Progress
from hub.config import HubConfig

PROG = "feltwire event-log"


def _parser() -> argparse.ArgumentParser:
    parser, commands = command_parser(
        PROG,
        "Check the hub's event logs; accept a loss explicitly; copy the SQLite logs into "
        "PostgreSQL.",
    )
    for name, text in (
        ("check", "verify each table's event log and print OK or the damage (exit 1)"),
        (
            "accept-loss",
            "keep what verifies of a damaged log, move the damaged files aside, reseal",
        ),
        (
            "copy",
            "copy each table's SQLite log (state_dir) into PostgreSQL, verified before and "
            "after, one transaction per table (the hub stopped)",
        ),
    ):
        command = commands.add_parser(name, help=text, description=text)
        command.add_argument("--config", type=Path, required=True, help="the hub's hub.toml")
        command.add_argument("--table", help="only this table (default: every table)")
        if name == "copy":
            command.add_argument(
                "--to",
                metavar="URL",
                help="the PostgreSQL database, postgresql://user@host:5432/db (default: the "
                "config's event_log_url; a password here shows in the shell's history — "
                "PGPASSWORD or ~/.pgpass keep it out)",
            )
            command.add_argument("--json", action="store_true", help="one JSON object per table")
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


def _copy_text(row: dict[str, Any]) -> str:
    """A table's copy, for people."""
    head = f"table {row['table']}: {row['log']} -> {row['to']}"
    status = row["status"]
    if status == "not copied":
        return head + "\n  NOT COPIED: " + str(row["error"]).replace("\n", "\n  ")
    if status == "no log":
        return head + "\n  no SQLite log: nothing to copy (the hub starts a new log there)"
    inputs = f"{row['inputs']} inputs (the last of {row['last']})"
    if status == "already":
        return head + f"\n  already there: the database holds the same {inputs}; nothing written"
    snapshots = row["snapshots"]
    snap = f" and the snapshot as of input {snapshots[0]}" if snapshots else ""
    lines = [head, f"  copied {inputs}{snap}; checked as the hub checks it: OK"]
    if row["losses_not_copied"]:
        lines.append(
            f"  note: {row['losses_not_copied']} loss(es) accepted on the SQLite log are not "
            "carried (`feltwire event-log check` on the SQLite log lists them)"
        )
    lines += [f"  note: {note}" for note in row.get("notes", [])]
    return "\n".join(lines)


def _copy(
    config: HubConfig, file: Path, logs: list[tuple[str, Path]], to: str | None, as_json: bool
) -> int:
    """``copy``: each table's SQLite log into the database at ``to`` (None: the config's
    ``event_log_url``); ``file``: the config's file, for the next step's words."""
    url = to if to is not None else config.event_log_url
    if url is None:
        print(
            f"{PROG} copy: where to? --to postgresql://… or event_log_url in {file}",
            file=sys.stderr,
        )
        return 2
    if not url.startswith(PG_SCHEMES):
        print(f"{PROG} copy: --to is a postgresql://… URL, not {safe_url(url)!r}", file=sys.stderr)
        return 2
    try:
        from hub.adapters.eventlog.pg_copy import copy_log
    except ImportError as exc:  # pragma: no cover - the postgres extra is missing
        print(
            f"{PROG} copy: psycopg is not installed ({exc}): pip install 'feltwire[postgres]'",
            file=sys.stderr,
        )
        return 2
    ok, found = True, False
    for table, path in logs:
        progress = Progress(sys.stderr, table, 0, unit="inputs copied")
        progress.on = progress.on and not as_json

        def step(done: int, total: int, progress: Progress = progress) -> None:
            progress.total = max(total, 1)
            progress(done)

        row: dict[str, Any]
        try:
            done = copy_log(path, table, url, progress=step)
            row = done.json() | ({"notes": list(done.notes)} if done.notes else {})
        except KeyboardInterrupt:
            progress.end()
            print(
                f"{PROG} copy: interrupted at table {table}, of which nothing was copied (the "
                "tables before it are); run it again to finish",
                file=sys.stderr,
            )
            return 130
        except EventLogError as exc:
            row = {"table": table, "log": str(path), "to": safe_url(url), "status": "not copied"}
            row["error"] = str(exc)
        finally:
            progress.end()
        ok = ok and row["status"] != "not copied"
        found = found or row["status"] != "no log"
        print(json.dumps(row) if as_json else _copy_text(row), flush=True)
    if not found:
        where = logs[0][1].parent if logs else "the state directory"
        print(
            f"{PROG} copy: no table has a SQLite log in {where}: is state_dir in {file} the hub's?",
            file=sys.stderr,
        )
        return 1
    if ok and not as_json:
        print(
            f'next: event_log_url = "{safe_url(url)}" in {file} (with its password, or '
            "PGPASSWORD / ~/.pgpass), then start the hub: each table resumes where its log ends"
        )
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
    if args.command == "copy":
        return _copy(config, args.config, logs, args.to, args.json)
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
