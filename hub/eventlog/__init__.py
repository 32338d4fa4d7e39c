"""Compatibility shim (issue 14): the event log moved to :mod:`hub.adapters.eventlog`
(storage) and :mod:`hub.app.records` / :mod:`hub.app.codec` (what is logged)."""

from __future__ import annotations

from hub.adapters.eventlog.errors import EventLogWriteError, SealDamaged
from hub.adapters.eventlog.files import EVENT_LOG_FILE, SEAL_SUFFIX, create_private, seal_path
from hub.adapters.eventlog.repair import accept_loss
from hub.adapters.eventlog.report import EventLogDamaged, LogReport, check_log
from hub.adapters.eventlog.schema import SCHEMA_VERSION
from hub.adapters.eventlog.seal import SEAL_SLOT, SEAL_SYNC_S, Seal, read_seal
from hub.adapters.eventlog.store import EventLog, Sync
from hub.app.codec import (
    console_kind,
    decode_console,
    decode_read,
    decode_table,
    encode_console,
    encode_read,
    encode_table,
)
from hub.app.errors import EventLogError
from hub.app.records import (
    AcceptedLoss,
    AckAlert,
    ConsoleInput,
    InputKind,
    Item,
    LogRecord,
    SeatCommand,
    SeatOp,
    TableCommand,
    local_time,
)
from hub.security.chain import GENESIS, chain_digest

__all__ = [
    "EVENT_LOG_FILE",
    "GENESIS",
    "SCHEMA_VERSION",
    "SEAL_SLOT",
    "SEAL_SUFFIX",
    "SEAL_SYNC_S",
    "AcceptedLoss",
    "AckAlert",
    "ConsoleInput",
    "EventLog",
    "EventLogDamaged",
    "EventLogError",
    "EventLogWriteError",
    "InputKind",
    "Item",
    "LogRecord",
    "LogReport",
    "Seal",
    "SealDamaged",
    "SeatCommand",
    "SeatOp",
    "Sync",
    "TableCommand",
    "accept_loss",
    "chain_digest",
    "check_log",
    "console_kind",
    "create_private",
    "decode_console",
    "decode_read",
    "decode_table",
    "encode_console",
    "encode_read",
    "encode_table",
    "local_time",
    "read_seal",
    "seal_path",
]
