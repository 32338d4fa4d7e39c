"""The hub's event log: every input the hub accepts, in order, before it is applied.

Two backends behind one port (:class:`hub.app.ports.EventStore`): one SQLite file per
table, described here (the default), and PostgreSQL (:mod:`~.pg`, ``event_log_url``).

"The event log is the truth" (see ``ARCHITECTURE.md``): the hub appends each input —
an accepted reader inventory, a dealer button press, a console action, a dealer command,
a tick, a table command — with its time, *then* applies it. The hub's state after a
restart is the replay of the log through the same code paths, with the recorded times as
the clock (no MQTT, no wall clock during replay).

Storage: one SQLite file per table (``events.sqlite`` in the state directory, see
:func:`hub.bootstrap.event_log_path`) in WAL mode, one row
per input: table id, sequence number, ``t`` (the hub's table time: the clock of the
replay), kind, JSON payload, ``wall`` (the wall-clock time, for records; empty in rows
written before schema 2) and ``chain``. :meth:`EventLog.append_many` writes many inputs
in one transaction (one fsync), all or none; :meth:`EventLog.append` is one of them. The
table is append-only: triggers refuse ``UPDATE`` and ``DELETE``.

Damage is detected, never accepted silently:

* every row's ``chain`` is the SHA-256 of the previous row's chain and the row's own
  fields (:func:`chain_digest`, the audit trail's hash chain too), so a row changed
  behind the hub's back breaks the chain from that row on;
* the **seal**, ``<log>.seal`` beside the log (mode 0600, outside SQLite and its WAL),
  holds the last committed sequence number and its chain, and those of the commit
  before. It is written after each commit into one of two checksummed slots in turn, so
  a torn write of the seal leaves the other slot (the commit before) readable. With
  ``sync = "full"`` it is made durable (``fdatasync``) at most every
  :data:`SEAL_SYNC_S` and when the log closes: the commit it follows is already on disk
  when the seal is written, so the seal can never get ahead of the log — after a power
  cut it is at most that far behind (a log ahead of its seal verifies), and a
  busy table pays one extra fsync a second instead of one per commit.

The chain is not keyed: it catches damage (a failing SD card, a careless operator, an
edit with the ``sqlite3`` shell), not someone who rewrites the log *and* its seal
consistently — whoever may write the state directory can do that, so keep it 0700.

:func:`check_log` verifies a log read-only — every row's chain, and the last row against
the seal; a damaged log is left exactly as found, WAL included — and :class:`EventLog`
refuses to open a damaged one (:class:`EventLogDamaged`, naming the file, what was lost
— sequence numbers, how many inputs, the time of the last good one — and what to do). A
log shorter than its seal (a deleted or damaged WAL, bytes overwritten in it — SQLite
silently drops every WAL frame after a bad checksum — a truncated database, a torn final
write) is damage; when exactly the last commit is missing the message says that the last
write was torn. A log *ahead* of its seal (the hub died between a commit and the seal
write) is sound when its chain verifies: the seal is rewritten and an INFO line says so.
The operator accepts a loss explicitly with ``feltwire event-log accept-loss``
(:func:`accept_loss`): the verified prefix is kept, the damaged files are moved aside
for forensics, and the loss is recorded in the log (:attr:`EventLog.accepted_losses`).
One loss is accepted without the operator: the hub opens its logs with :func:`open_log`,
which drops a torn last write by the same :func:`accept_loss` and says so (a WARNING, and
the ``event_log_loss_accepted`` alert at start) — a power cut must not keep a table shut
until someone comes with a shell; ``event_log_torn = "stop"`` in ``hub.toml`` leaves that
to the operator too. Any other damage stops the hub. A
log of schema 1 (no chain, no seal) is migrated in place when it is opened.

Durability: ``synchronous = FULL`` by default — every commit is on disk (fsync of the
WAL) before the input is applied, so neither a crash of the process (``kill -9``) nor a
power cut loses an input the hub acted on. ``NORMAL`` survives a process crash as well
(the WAL is in the OS cache) but may lose the last inputs on a power cut; the seal is
not synced either then, so such a loss is reported only when the seal outlived the lost
frames. It is offered for slow SD cards (``event_log_sync = "normal"`` in ``hub.toml``).
A commit that fails (the disk is full) raises :class:`EventLogWriteError` and leaves the
log as it was.

**Secrecy**: the log holds every hole card (it is the truth). The file and its seal are
created with mode 0600 (SQLite gives its ``-wal`` and ``-shm`` files the same mode)
inside a state directory created 0700; keep it that way, back it up as secret material,
and never serve it.

The package, by what each module is:

- :mod:`hub.app.records` and :mod:`hub.app.codec` (in the app layer, since the
  application logs them) — what is logged: the input kinds, :class:`LogRecord`, seat
  commands, acknowledged alerts, and the payloads' codecs; values only, no SQLite;
- :mod:`~.chain` — the hash chain (pure, shared with the audit trail);
- :mod:`~.store` — :class:`EventLog` itself, on :mod:`~.schema` (the SQLite tables),
  :mod:`~.seal` and :mod:`~.files`;
- :mod:`~.snapshots` — table snapshots beside the inputs (``snapshots``: a table's state
  as of one input, JSON, its digest chained on that input's chain; derived data, so one
  that does not verify is skipped with a log line and never loaded):
  :meth:`EventLog.save_snapshot`, :meth:`EventLog.latest_snapshot`; the hub writes one
  at every hand's start and a start replays only the inputs after the newest that
  verifies (:mod:`hub.app.snapshot`). ``accept-loss`` rebuilds the log without them;
- :mod:`~.report` — :func:`check_log` and its :class:`LogReport`;
- :mod:`~.repair` — :func:`accept_loss`, :func:`open_log`;
- :mod:`~.pg` — :class:`~.pg.PgEventLog`, the same port on PostgreSQL (every table's
  inputs in one database, each row with its writer's lease epoch; no seal, see there),
  imported only by a hub that uses it (psycopg, the ``postgres`` extra);
- :mod:`~.pg_copy` — :func:`~.pg_copy.copy_log`, a table's SQLite log moved into
  PostgreSQL, verified before and after (``feltwire event-log copy``);
- :mod:`~.backend` — :func:`open_event_log`, which picks the backend from the config
  (``event_log_url``), and :class:`TableLog`, what the hub holds of either;
- :mod:`~.errors` — what the log raises under the event store's
  :class:`~hub.app.errors.EventLogError` (a ``FeltwireError`` and an ``OSError``).

>>> log = EventLog.memory("t1")
>>> log.append(InputKind.CONSOLE, {"type": "ConsoleAction", "seat": 3, "act": "call"}, 12.5)
LogRecord(table='t1', seq=1, t=12.5, kind=<InputKind.CONSOLE: 'console'>, payload={...})
>>> ticks = [(InputKind.TICK, {}, 13.0, None), (InputKind.TICK, {}, 14.0, 1.7e9)]
>>> [r.seq for r in log.append_many(ticks)]  # one transaction
[2, 3]
>>> [(r.seq, r.kind.value) for r in log.records(after=1)], log.last_t
([(2, 'tick'), (3, 'tick')], 14.0)
"""

from __future__ import annotations

from hub.adapters.eventlog.backend import TableLog, open_event_log
from hub.adapters.eventlog.errors import (
    EventLogError,
    EventLogWriteError,
    SealDamaged,
)
from hub.adapters.eventlog.files import EVENT_LOG_FILE, SEAL_SUFFIX, create_private, seal_path
from hub.adapters.eventlog.repair import accept_loss, open_log
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
    "TableLog",
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
    "open_event_log",
    "open_log",
    "read_seal",
    "seal_path",
]
