"""``python -m hub.messages --write-static``: write the pages' catalog files
(:mod:`hub.messages.pages`); ``--check`` says whether they are current (exit status 1 when
not), for CI and a pre-commit hook."""

from __future__ import annotations

import argparse
import sys

from hub.messages.pages import STATIC_DIR, stale_files, write_files


def main(argv: list[str] | None = None) -> int:
    """Run the command; the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m hub.messages", description="the message catalog's files for the pages"
    )
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--write-static", action="store_true", help=f"write {STATIC_DIR}/<lang>.json")
    what.add_argument("--check", action="store_true", help="exit 1 when the files are stale")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_files()
        for name in stale:
            print(f"{STATIC_DIR / name} differs from the catalog", file=sys.stderr)
        return 1 if stale else 0
    for path in write_files():
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
