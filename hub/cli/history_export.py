"""``feltwire history export``: the hands the hub kept, as PHH, PokerStars-style text or
Open Hand History (the I/O shell around :mod:`hub.adapters.hands.history`,
:mod:`hub.rules.exports` and :mod:`hub.adapters.hands.reader`).

    feltwire history export --format phh|pokerstars|ohh [--config hub.toml | --state-dir DIR]
        [--table T] [--since DATE] [--until DATE] [--player NAME] [--game CODE]
        [--perspective shown|hero|all] [--hero NAME] [--out DIR|FILE] [--json]

The store and the filters are found and read as :mod:`hub.cli.history_store` says
(``--config`` or ``--state-dir``; ``--since`` / ``--until`` dates or times, UTC);
``--player`` keeps the hands that name or club id was dealt in.

``--perspective`` (docs/hand-histories.md): ``shown`` (the default) — only hands shown at
the showdown, a file anyone may have; ``hero`` — ``--hero NAME``'s own file (their cards
too; only the hands they were dealt in); ``all`` — every card, mucked and folded hands
included (for the producer and the floor).

``--out``: a file (``.phhs`` / ``.txt`` / ``.ohh``; every hand in it), a directory (one
file per table, named after it), or nothing: standard output. Files are written whole or
not at all (a temporary file renamed at the end; Ctrl-C leaves nothing), mode 0600. On a
terminal the progress shows on standard error; ``--json`` prints the counts as one JSON
object (``{"hands", "files", "format", "perspective"}``) instead of a sentence. Exit
status: 0 done (also when no hand matched), 1 a stored hand could not be read, 2 a bad
argument or no store, 130 interrupted.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from hub.adapters.hands.history import export_text
from hub.adapters.hands.reader import hand_rows
from hub.app.errors import HandStoreError
from hub.cli.history_store import add_store_arguments, hand_query, open_store
from hub.rules.errors import RulesError
from hub.rules.exports import FORMATS, SEPARATOR, SUFFIX, file_name

__all__ = ["add_parser", "export"]

PROG = "feltwire history export"


def add_parser(sub: Any) -> None:
    """The ``export`` command's arguments, on ``feltwire history``'s subcommands."""
    exp = sub.add_parser("export", help="write the kept hands as PHH, PokerStars text or OHH")
    exp.add_argument("--format", required=True, choices=FORMATS)
    add_store_arguments(exp, "hands this player (name or club id) was dealt in")
    exp.add_argument("--perspective", choices=("shown", "hero", "all"), default="shown")
    exp.add_argument("--hero", help="the player whose file it is (--perspective hero)")
    exp.add_argument("--out", type=Path, help="a file or a directory (default: stdout)")
    exp.add_argument("--json", action="store_true", help="the counts as one JSON object")


class _Files:
    """Where the texts go: one file, a file per table (in a directory), or a stream;
    files written to a temporary name and renamed when complete."""

    def __init__(self, out: Path | None, fmt: str, stdout: TextIO) -> None:
        self.out, self.fmt, self.stdout = out, fmt, stdout
        self.per_table = out is not None and (out.is_dir() or not out.suffix)
        self._open: dict[str, tuple[TextIO, Path, Path]] = {}
        self.count: dict[str, int] = {}

    def write(self, table: str, text: str) -> int:
        """Append one hand's text; its number in its file (1, 2 …)."""
        key = table if self.per_table else ""
        n = self.count.get(key, 0) + 1
        self.count[key] = n
        stream = self.stdout if self.out is None else self._file(key)
        if n > 1:
            stream.write(SEPARATOR[self.fmt])
        stream.write(text)
        return n

    def next_number(self, table: str) -> int:
        return self.count.get(table if self.per_table else "", 0) + 1

    def _file(self, key: str) -> TextIO:
        if key not in self._open:
            assert self.out is not None
            if self.per_table:
                self.out.mkdir(parents=True, exist_ok=True)
                final = self.out / f"{file_name(key)}{SUFFIX[self.fmt]}"
            else:
                self.out.parent.mkdir(parents=True, exist_ok=True)
                final = self.out
            fd, tmp = tempfile.mkstemp(dir=final.parent, prefix=f".{final.name}.")
            self._open[key] = (os.fdopen(fd, "w", encoding="utf-8"), Path(tmp), final)
        return self._open[key][0]

    def finish(self) -> list[Path]:
        done = []
        for stream, tmp, final in self._open.values():
            stream.close()
            os.replace(tmp, final)
            done.append(final)
        self._open.clear()
        return done

    def abandon(self) -> None:
        for stream, tmp, _ in self._open.values():
            stream.close()
            tmp.unlink(missing_ok=True)
        self._open.clear()


def export(args: Any, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run ``feltwire history export`` with parsed ``args``; the exit status."""
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    if args.perspective == "hero" and not args.hero:
        print(f"{PROG}: --perspective hero needs --hero NAME", file=stderr)
        return 2
    if args.json and args.out is None:
        print(f"{PROG}: --json prints counts: give --out for the hands", file=stderr)
        return 2
    store = open_store(args, PROG)
    if isinstance(store, str):
        print(f"{PROG}: {store}", file=stderr)
        return 2
    query = hand_query(args, args.hero if args.perspective == "hero" else None)
    files = _Files(args.out, args.format, stdout)
    failed = 0
    try:
        rows = hand_rows(store, query)
        shown = stderr.isatty() and args.out is not None
        for i, row in enumerate(rows, start=1):
            number = files.next_number(str(row["table_id"]))
            try:
                table, text = export_text(
                    store, row, args.format, args.perspective, hero=args.hero, number=number
                )
            except (HandStoreError, RulesError) as exc:
                failed += 1
                print(f"{PROG}: {exc}", file=stderr)
                continue
            files.write(table, text)
            if shown:
                print(f"\r{PROG}: {i}/{len(rows)} hands", end="", file=stderr, flush=True)
        written = files.finish()
    except KeyboardInterrupt:
        files.abandon()
        print(f"\n{PROG}: interrupted; no file written", file=stderr)
        return 130
    except BaseException:
        files.abandon()
        raise
    finally:
        store.close()
    hands = sum(files.count.values())
    if args.out is not None and stderr.isatty():
        print(file=stderr)
    counts = {"hands": hands, "failed": failed, "files": [str(p) for p in written]}
    counts |= {"format": args.format, "perspective": args.perspective}
    if args.json:
        print(json.dumps(counts), file=stdout)
    elif args.out is not None:
        where = ", ".join(str(p) for p in written) or "no file (no hand matched)"
        print(f"{hands} hands written ({args.format}, {args.perspective}): {where}", file=stdout)
    return 1 if failed else 0
