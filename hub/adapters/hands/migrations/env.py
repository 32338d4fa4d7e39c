"""Alembic's environment for the hands store: migrations run on the connection the
store passes in (``config.attributes["connection"]``), never on a URL of their own."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from hub.adapters.hands.schema import metadata

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError("the hands store's migrations run through HandStore.open()")
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters by copying
)
with context.begin_transaction():
    context.run_migrations()
