"""The PostgreSQL event log's schema and connection, shared by the log
(:mod:`~hub.adapters.eventlog.pg`) and the table leases
(:mod:`~hub.adapters.eventlog.leases`): the tables, their triggers — append-only, and the
fencing of appends by the table's lease — the schema's version and how a database is
brought up to it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hub.adapters.eventlog.errors import EventLogError

if TYPE_CHECKING:  # psycopg (the `postgres` extra) is imported only by a hub that uses it
    import psycopg

__all__ = [
    "CONNECT_TIMEOUT_S",
    "FENCED",
    "INSERT",
    "LEASE_SCHEMA",
    "PG_OPTIONS",
    "PG_SCHEMA_VERSION",
    "SCHEMA",
    "SCHEMA_LOCK",
    "connect",
    "connect_params",
    "create_schema",
    "driver_url",
    "safe_url",
]

PG_SCHEMA_VERSION = 3
"""1: the inputs, snapshots and meta tables; 2: the table leases and the fencing trigger
(:mod:`~hub.adapters.eventlog.leases`); 3: the room's hubs (``room_hubs``: each hub's
name, its web address and how long it is taken as alive). An older database is brought
up at opening."""
SCHEMA_LOCK = 0x66657674
"""The advisory lock held while the log's tables are created (``fevt``)."""
PG_OPTIONS = (
    "-c lock_timeout=15s -c statement_timeout=60s -c idle_in_transaction_session_timeout=2s"
)
"""The log's session limits: a server that hangs fails an append instead of holding
the table forever; and a hub that stops in the middle of a transaction — frozen
(``SIGSTOP``, a VM paused) between an append and its commit, or a heartbeat and its —
holds the table's lease row locked for at most 2 s: the server then ends its session
(the transaction rolled back, nothing of it written), so another hub can take the table
(an append's trigger holds the lease row ``FOR SHARE``, a renewal updates it). A hub
that wakes finds its connection gone, opens another, and its append is fenced."""

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS event_inputs (
        table_id TEXT NOT NULL,
        seq BIGINT NOT NULL CHECK (seq > 0),
        t DOUBLE PRECISION NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        wall DOUBLE PRECISION,
        chain TEXT NOT NULL,
        epoch BIGINT NOT NULL,
        written TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (table_id, seq)
    )""",
    """CREATE TABLE IF NOT EXISTS event_snapshots (
        table_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        format INTEGER NOT NULL,
        state TEXT NOT NULL,
        wall DOUBLE PRECISION,
        chain TEXT NOT NULL,
        digest TEXT NOT NULL,
        PRIMARY KEY (table_id, seq)
    )""",
    "CREATE TABLE IF NOT EXISTS event_log_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE OR REPLACE FUNCTION event_inputs_append_only() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the event log is append-only'; END $$""",
    """CREATE OR REPLACE TRIGGER event_inputs_append_only
        BEFORE UPDATE OR DELETE ON event_inputs
        FOR EACH ROW EXECUTE FUNCTION event_inputs_append_only()""",
    """CREATE OR REPLACE TRIGGER event_inputs_no_truncate
        BEFORE TRUNCATE ON event_inputs
        FOR EACH STATEMENT EXECUTE FUNCTION event_inputs_append_only()""",
)

INSERT = (
    "INSERT INTO event_inputs (table_id, seq, t, kind, payload, wall, chain, epoch) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
)


FENCED = "FWL01"
"""The SQLSTATE of an append the fencing trigger refused."""

LEASE_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS table_leases (
        table_id TEXT PRIMARY KEY,
        hub TEXT NOT NULL,
        epoch BIGINT NOT NULL CHECK (epoch > 0),
        expires TIMESTAMPTZ NOT NULL,
        taken TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
    f"""CREATE OR REPLACE FUNCTION event_inputs_fenced() RETURNS trigger
        LANGUAGE plpgsql AS $$
        DECLARE
            held BIGINT;
            ends TIMESTAMPTZ;
        BEGIN
            -- the lease as of now (clock_timestamp: an append that waited for the row
            -- past the lease's end is refused, not judged by when its statement began)
            SELECT epoch, expires INTO held, ends FROM table_leases
                WHERE table_id = NEW.table_id FOR SHARE;
            IF NOT FOUND THEN
                RETURN NEW;  -- a table no hub leased: a single hub, no fencing
            END IF;
            IF NEW.epoch <> held OR ends <= clock_timestamp() THEN
                RAISE EXCEPTION 'table %: an append under lease epoch % refused (the lease '
                    'is epoch %, %)', NEW.table_id, NEW.epoch, held,
                    CASE WHEN NEW.epoch <> held THEN 'taken over' ELSE 'expired' END
                    USING ERRCODE = '{FENCED}';
            END IF;
            RETURN NEW;
        END $$""",
    """CREATE OR REPLACE TRIGGER event_inputs_fenced
        BEFORE INSERT ON event_inputs
        FOR EACH ROW EXECUTE FUNCTION event_inputs_fenced()""",
    """CREATE TABLE IF NOT EXISTS room_hubs (
        hub TEXT PRIMARY KEY,
        web_url TEXT NOT NULL,
        expires TIMESTAMPTZ NOT NULL,
        started TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
)
"""The leases' table, the fencing trigger and the room's hubs (created with the event
log's tables)."""


def safe_url(url: str) -> str:
    """``url`` without its password, for messages and log lines: the user's
    ``:password``, and a ``password=`` parameter. A URL of several hosts (a primary and
    its standbys) keeps them all.

    >>> safe_url("postgresql://hub:secret@db.local:5432/felt")
    'postgresql://hub@db.local:5432/felt'
    >>> safe_url("postgresql:///felt")
    'postgresql:///felt'
    >>> safe_url("postgresql://hub:secret@db1:5432,db2:5432/felt?target_session_attrs=read-write")
    'postgresql://hub@db1:5432,db2:5432/felt?target_session_attrs=read-write'
    >>> safe_url("postgresql://db1,db2/felt?user=hub&password=secret&connect_timeout=3")
    'postgresql://db1,db2/felt?user=hub&connect_timeout=3'
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    auth, at, host = rest.partition("@")
    if at:
        rest = f"{auth.partition(':')[0]}@{host}"
    path, q, query = rest.partition("?")
    if q:
        kept = [p for p in query.split("&") if not p.startswith("password=")]
        rest = f"{path}?{'&'.join(kept)}" if kept else path
    return f"{scheme}://{rest}"


def driver_url(url: str) -> str:
    """psycopg's spelling of ``url`` (``postgresql+psycopg://`` as SQLAlchemy has it)."""
    for alias in ("postgresql+psycopg://", "postgres://"):
        if url.startswith(alias):
            return "postgresql://" + url[len(alias) :]
    return url


CONNECT_TIMEOUT_S = 10
"""How long a connection to one host may take (libpq's ``connect_timeout``) unless the
URL says (``?connect_timeout=3``: with several hosts it is each host's; psycopg takes
at least 2 s)."""


def connect_params(url: str) -> dict[str, Any]:
    """What :func:`psycopg.connect` takes for the log's database at ``url`` besides the
    URL: the session limits (:data:`PG_OPTIONS`), and :data:`CONNECT_TIMEOUT_S` unless
    the URL has its own ``connect_timeout``. ``url`` is libpq's own (several hosts and
    ``target_session_attrs`` included: psycopg hands it to libpq host by host)."""
    from psycopg.conninfo import conninfo_to_dict

    params: dict[str, Any] = {"options": PG_OPTIONS}
    if "connect_timeout" not in conninfo_to_dict(driver_url(url)):
        params["connect_timeout"] = CONNECT_TIMEOUT_S
    return params


def connect(url: str, where: str) -> psycopg.Connection[tuple[Any, ...]]:
    """An autocommit connection to the log's database with its session limits
    (:func:`connect_params`); :class:`EventLogError` when the server cannot be reached
    (or ``url`` is none libpq takes)."""
    import psycopg

    try:
        return psycopg.connect(driver_url(url), autocommit=True, **connect_params(url))
    except psycopg.Error as exc:
        raise EventLogError(f"event log {where}: {exc}") from exc


def create_schema(db: psycopg.Connection[tuple[Any, ...]], where: str) -> None:
    """Create the log's tables, the leases and their triggers where they are missing,
    under an advisory lock (several hubs may open logs at once); bring a version-1
    database up to :data:`PG_SCHEMA_VERSION`; EventLogError for a newer one."""
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        row = db.execute("SELECT to_regclass('event_log_meta') IS NOT NULL").fetchone()
        found = None
        if row is not None and row[0]:
            got = db.execute("SELECT value FROM event_log_meta WHERE key = 'schema'").fetchone()
            found = None if got is None else int(got[0])
        if found is not None and found > PG_SCHEMA_VERSION:
            raise EventLogError(
                f"event log {where}: schema {found}; this hub reads up to "
                f"{PG_SCHEMA_VERSION} (a newer feltwire wrote it)"
            )
        for statement in (*SCHEMA, *LEASE_SCHEMA):
            db.execute(statement)
        db.execute(
            "INSERT INTO event_log_meta (key, value) VALUES ('schema', %s) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (str(PG_SCHEMA_VERSION),),
        )
