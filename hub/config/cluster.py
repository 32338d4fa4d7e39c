"""A hub in a card room of several hubs (``[cluster]`` of :class:`hub.config.HubConfig`):
its name, where browsers reach it, and its leases' timing (docs/scaling.md).

Every hub of the room lists the room's tables (``[[tables]]``) and shares one PostgreSQL
database (``event_log_url``): each table is served by the one hub holding its lease
(:mod:`hub.adapters.eventlog.leases`), and another hub takes it within seconds when that
hub stops renewing it.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from pydantic import Field, field_validator

from feltwire.config import ConfigModel
from feltwire.protocol import ID_PATTERN

__all__ = ["ClusterSettings", "check_cluster"]


class ClusterSettings(ConfigModel):
    """This hub's place in a card room of several hubs."""

    hub: str = Field(
        pattern=ID_PATTERN,
        description=(
            "this hub's name in the room, the same across its restarts (its leases are "
            "held under it; a restarted hub takes back the tables it held at once): 1-32 "
            "of A-Z a-z 0-9 _ -"
        ),
    )
    web_url: str = Field(
        description=(
            "where browsers reach this hub's web server (http://host:port, or https:// "
            "behind a proxy): another hub asked for one of this hub's tables sends the "
            "browser here, and /tables lists it"
        ),
    )
    lease_seconds: float = Field(
        6.0,
        ge=1.0,
        le=60.0,
        description=(
            "how long a table's lease lasts unless renewed (renewed every third of it): "
            "when a hub dies, another takes its tables this long after its last renewal, "
            "plus up to a third of it"
        ),
    )
    settle_seconds: float | None = Field(
        None,
        ge=0.0,
        le=600.0,
        description=(
            "how long a starting hub waits for the other hubs starting with it before it "
            "takes free tables, so they share the tables (unset = lease_seconds); the "
            "tables it held before a restart it takes back at once"
        ),
    )

    @field_validator("web_url")
    @classmethod
    def _web_url(cls, url: str) -> str:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"web_url: an http:// or https:// address with a host, not {url!r}")
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise ValueError(f"web_url: the hub's address only (no path or query), not {url!r}")
        return url.rstrip("/")

    @property
    def settle_s(self) -> float:
        """How long a starting hub waits before it takes free tables."""
        return self.lease_seconds if self.settle_seconds is None else self.settle_seconds


def check_cluster(cluster: ClusterSettings | None, event_log_url: str | None) -> None:
    """A ``[cluster]`` needs the room's shared PostgreSQL database (``event_log_url``):
    the leases and every table's log are there."""
    if cluster is not None and event_log_url is None:
        raise ValueError(
            '[cluster] needs event_log_url = "postgresql://…": the hubs of a room share '
            "one PostgreSQL database for the tables' leases and event logs"
        )
