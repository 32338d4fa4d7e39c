"""How ``feltwire hub|node|bridge`` log: one line per event, as text or as JSON.

Every long-running process sets its logging up once, from its command line
(:func:`add_log_options`, :func:`setup_logging`):

* ``--log-level debug|info|warning|error`` (default ``info``);
* ``--log-json``: each record one JSON object on one line — ``time`` (ISO 8601, UTC),
  ``level``, ``logger``, ``message``, then the record's extra fields (``extra={…}``) and,
  for an exception, its traceback in the one field ``exc_info``. The formatter is
  python-json-logger's (a well-kept library: extra fields, exceptions and non-JSON values
  handled, tested against the logging module's corner cases), not one of our own.

Without ``--log-json`` each record is one text line — ``time level logger: message`` —
with any line break inside it (a message that spans lines, a traceback) written as
``\\n``, so a journal or a log shipper never sees half an event as a line of its own.

>>> import io, json as json_
>>> out, level = io.StringIO(), logging.getLogger().level
>>> handler = setup_logging("info", json=True, stream=out)
>>> logging.getLogger("feltwire.example").info("node %s online", "n1", extra={"table": "t1"})
>>> line = json_.loads(out.getvalue())
>>> line["level"], line["logger"], line["message"], line["table"]
('INFO', 'feltwire.example', 'node n1 online', 't1')
>>> logging.getLogger().removeHandler(handler); logging.getLogger().setLevel(level)
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import TextIO

from pythonjsonlogger.json import JsonFormatter

__all__ = [
    "LEVELS",
    "OneLineFormatter",
    "add_log_options",
    "json_formatter",
    "setup_logging",
]

LEVELS = ("debug", "info", "warning", "error")
"""The levels ``--log-level`` takes."""
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_HANDLER_MARK = "_feltwire_handler"


class OneLineFormatter(logging.Formatter):
    """logging's text format with every line break escaped: one record, one line.

    >>> record = logging.makeLogRecord({"msg": "two\\nlines", "levelname": "INFO"})
    >>> OneLineFormatter("%(levelname)s %(message)s").format(record)
    'INFO two\\\\nlines'
    """

    def format(self, record: logging.LogRecord) -> str:
        return super().format(record).replace("\r", "\\r").replace("\n", "\\n")


def json_formatter() -> logging.Formatter:
    """The ``--log-json`` formatter: ``time``, ``level``, ``logger``, ``message``, the
    extra fields; a traceback in ``exc_info`` (one string)."""
    return JsonFormatter(
        "{levelname}{name}{message}",
        style="{",
        rename_fields={"levelname": "level", "name": "logger"},
        timestamp="time",
        json_ensure_ascii=False,
    )


def add_log_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--log-level`` and ``--log-json`` to a process's command line."""
    parser.add_argument(
        "--log-level",
        choices=LEVELS,
        default="info",
        help="the least severe records logged (default: info)",
    )
    parser.add_argument(
        "--log-json",
        action="store_true",
        help="log one JSON object a line (time, level, logger, message, extra fields)",
    )


def setup_logging(
    level: str = "info", *, json: bool = False, stream: TextIO | None = None
) -> logging.Handler:
    """Log every record at ``level`` or above to ``stream`` (default: stderr), one line
    each, as JSON with ``json``; replaces the handler an earlier call installed (and any
    ``basicConfig`` one). Returns the handler."""
    if level not in LEVELS:
        raise ValueError(f"log level {level!r} is not one of {', '.join(LEVELS)}")
    root = logging.getLogger()
    for old in list(root.handlers):
        if getattr(old, _HANDLER_MARK, False) or type(old) is logging.StreamHandler:
            root.removeHandler(old)
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(json_formatter() if json else OneLineFormatter(TEXT_FORMAT))
    setattr(handler, _HANDLER_MARK, True)
    root.addHandler(handler)
    root.setLevel(level.upper())
    return handler
