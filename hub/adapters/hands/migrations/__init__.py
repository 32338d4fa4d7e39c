"""The hands store's schema migrations (Alembic): ``versions/`` holds one revision per
schema change, :func:`hub.adapters.hands.store.HandStore.open` runs them up to the newest
(``alembic_version`` in the database says where a database stands). No ``alembic.ini``:
:func:`alembic_config` builds the configuration in code, for one connection."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.engine import Connection

if TYPE_CHECKING:
    from alembic.config import Config

__all__ = ["HEAD", "VERSION_TABLE", "alembic_config"]

HEAD = "0001"
"""The newest revision (a test checks it is the script directory's head)."""
VERSION_TABLE = "alembic_version"
"""Where Alembic records the revision a database is at."""


def alembic_config(connection: Connection) -> Config:
    """Alembic's configuration for migrating the database behind ``connection``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent))
    config.attributes["connection"] = connection
    return config
