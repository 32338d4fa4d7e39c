"""Running a command's ``main(argv)`` in the test process (``feltwire certs``,
``credentials``, ``web-user`` …) and taking what it printed."""

from __future__ import annotations

import contextlib
import io
import sys


def run_cli(main: object, argv: list[str]) -> str:
    """Run a command's ``main(argv)``, assert exit 0, return what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)  # type: ignore[operator]
    assert code == 0, out.getvalue()
    return out.getvalue()


def run(main: object, argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """Run a command's ``main(argv)`` with ``stdin`` as its input; returns its exit code,
    what it printed and what it wrote to stderr."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)  # type: ignore[operator]
    finally:
        sys.stdin = old
    return code, out.getvalue(), err.getvalue()
