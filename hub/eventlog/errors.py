"""The event log's errors: one root, :class:`EventLogError`.

It is a :class:`~feltwire.errors.FeltwireError` and an ``OSError``: the log is storage,
and every caller catches it beside the storage failures it resembles (``feltwire hub``
refuses to start, ``feltwire event-log`` reports the table and goes on, the hub counts an
input it could not write and tells the dealer).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from feltwire.errors import FeltwireError

if TYPE_CHECKING:
    from hub.eventlog.report import LogReport


class EventLogError(FeltwireError, OSError):
    """The log cannot be used: wrong table, unknown schema, locked, damaged, or it
    contradicts the config."""


class EventLogDamaged(EventLogError):
    """The log on disk is not what was committed to it: a row changed, rows missing at
    the end or in the middle, the seal missing or not matching, the file unreadable.

    The message names the file, what is lost and what to do; :attr:`report` holds the
    details (:func:`check_log`'s answer).
    """

    def __init__(self, report: LogReport) -> None:
        super().__init__(report.message())
        self.report = report


class EventLogWriteError(EventLogError):
    """A commit failed (the disk is full, an I/O error): nothing of it was written and
    the log is as it was, so the caller can refuse the input and go on."""


class SealDamaged(EventLogError):
    """The seal file exists but neither of its slots verifies (:func:`~hub.eventlog.
    check_log` turns it into the damage of its report)."""
