"""The hub's web server settings (``[web]`` of :class:`hub.config.HubConfig`): where it
listens, the tokens and secrets, what the pages may show, the users, the connection
limits."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Literal

from pydantic import (
    Field,
    PrivateAttr,
    SecretStr,
    ValidationInfo,
    field_validator,
    model_validator,
)

from feltwire.config import (
    SECRET_FILE_HELP,
    ConfigModel,
    ConfigPath,
    config_dir_of,
    read_secret_file,
)
from hub.security.users import WebUser, read_users_file, unique_users

__all__ = ["WebSettings"]


class WebSettings(ConfigModel):
    """The hub's web server and what its pages may show."""

    host: str = Field("127.0.0.1", description="address the web server binds")
    port: int = Field(8080, ge=0, le=65535, description="web server port (0 = any free port)")
    producer_token: SecretStr | None = Field(
        None,
        description=(
            "token the broadcast overlay needs (at least 16 characters); unset = a random one "
            "per start, written to state_dir/producer-token (mode 0600), never printed"
        ),
    )
    token_secret: SecretStr | None = Field(
        None,
        description=(
            "secret that signs the hub's access tokens (at least 16 characters); unset = "
            "a random one per start (tokens issued before a restart stop working)"
        ),
        min_length=16,
    )
    token_secret_file: Path | None = Field(
        None,
        description="a file holding token_secret, kept out of the config (at least 16 "
        "characters); " + SECRET_FILE_HELP,
    )
    _token_secret_from_file: SecretStr | None = PrivateAttr(None)
    metrics_token: SecretStr | None = Field(
        None,
        description=(
            "bearer token a Prometheus scrape may send to read /metrics (at least 16 "
            "characters); unset = /metrics needs an admin's token or session"
        ),
        min_length=16,
    )
    overlay_delay_minutes: float = Field(
        30, ge=0, le=24 * 60, description="how long the card-bearing overlay feed is held back"
    )
    allow_live_hole_cards: bool = Field(
        False, description="must be true for overlay_delay_minutes = 0 (hole cards live)"
    )
    users: list[WebUser] = Field(
        default_factory=list,
        description="who may sign in at /login: name, role, password_hash (feltwire web-user)",
    )
    users_file: ConfigPath | None = Field(
        None,
        description="a file of more users ([[users]] tables, `feltwire web-user add --file`); "
        "re-read when it changes",
    )
    session_hours: float = Field(
        12, gt=0, le=24 * 7, description="a sign-in session ends this long after sign-in"
    )
    session_idle_minutes: float = Field(
        120, gt=0, le=24 * 60, description="a session unused this long ends earlier"
    )
    secure_cookies: bool | Literal["auto"] = Field(
        "auto",
        description=(
            "the session cookie's Secure flag: auto = set unless the hub is served on "
            "loopback over http; false lets sessions work over plain http on a LAN "
            "(the cookie can then be sniffed)"
        ),
    )
    trusted_proxies: list[str] = Field(
        default_factory=list,
        max_length=64,
        description=(
            'addresses or networks ("127.0.0.1", "10.0.0.0/24") of reverse proxies in '
            "front of the hub: only from these is X-Forwarded-For / X-Forwarded-Proto "
            "believed (the client's address for sign-in limits and the audit trail); "
            "empty = none, the TCP peer is the client"
        ),
    )
    max_body_bytes: int = Field(
        64 * 1024,
        ge=4096,
        le=16 * 1024 * 1024,
        description=(
            "largest request body or WebSocket message accepted; a larger one is refused "
            "(413, or WebSocket close 1009) before it is read, signed in or not"
        ),
    )
    header_timeout_seconds: float = Field(
        10,
        gt=0,
        le=300,
        description=(
            "a connection must send a whole request (headers and body) within this long "
            "of opening, and of each response, or it is closed (idle, slow and "
            "half-open connections); WebSockets are pinged every 20 s instead"
        ),
    )
    max_connections_per_address: int = Field(
        32,
        ge=1,
        le=100_000,
        description=(
            "open connections one client address may hold (WebSockets included); more "
            "are closed at once and counted. A browser opens up to 6 per page and one "
            "WebSocket: 32 covers a console, a TV view and an OBS overlay on one machine. "
            "Not applied to trusted_proxies"
        ),
    )
    max_connections: int = Field(
        1000,
        ge=1,
        le=100_000,
        description=(
            "open web connections in all; more are closed at once and counted. Keep it "
            "well below the hub's open-file limit (LimitNOFILE= in the systemd unit)"
        ),
    )

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies_are_addresses(cls, proxies: list[str]) -> list[str]:
        for proxy in proxies:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ValueError(
                    f"trusted_proxies: {proxy!r} is not an IP address or network "
                    '(e.g. "127.0.0.1" or "10.0.0.0/24")'
                ) from None
        return proxies

    @model_validator(mode="after")
    def _connection_limits_consistent(self) -> WebSettings:
        if self.max_connections_per_address > self.max_connections:
            raise ValueError(
                f"max_connections_per_address ({self.max_connections_per_address}) is more "
                f"than max_connections ({self.max_connections})"
            )
        return self

    @model_validator(mode="after")
    def _token_secret_file_read(self, info: ValidationInfo) -> WebSettings:
        if self.token_secret_file is None:
            return self
        if self.token_secret is not None:
            raise ValueError("token_secret and token_secret_file are both set: keep one")
        secret = read_secret_file(self.token_secret_file, "token_secret_file", config_dir_of(info))
        if len(secret) < 16:
            raise ValueError(
                f"token_secret_file = {str(self.token_secret_file)!r}: the secret has "
                f"{len(secret)} characters, it needs at least 16"
            )
        self._token_secret_from_file = SecretStr(secret)
        return self

    @property
    def signing_secret(self) -> SecretStr | None:
        """The secret that signs the hub's access tokens: ``token_secret``, or what
        ``token_secret_file`` holds; None = a random one per start."""
        return self.token_secret if self.token_secret is not None else self._token_secret_from_file

    @field_validator("producer_token")
    @classmethod
    def _producer_token_long(cls, token: SecretStr | None) -> SecretStr | None:
        if token is not None and len(token.get_secret_value()) < 16:
            raise ValueError(
                "the producer token must have at least 16 characters (anyone who guesses it "
                "sees the overlay's cards); make one with `python3 -c 'import secrets; "
                "print(secrets.token_urlsafe(24))'`, or leave it unset"
            )
        return token

    @model_validator(mode="after")
    def _users_valid(self) -> WebSettings:
        file_users = read_users_file(self.users_file) if self.users_file is not None else []
        unique_users([*self.users, *file_users], "[web] users and users_file")
        return self

    @model_validator(mode="after")
    def _live_needs_consent(self) -> WebSettings:
        if self.overlay_delay_minutes == 0 and not self.allow_live_hole_cards:
            raise ValueError(
                "overlay_delay_minutes = 0 shows hole cards live: "
                "set allow_live_hole_cards = true to allow it"
            )
        return self
