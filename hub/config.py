"""The hub's configuration (TOML → :class:`HubConfig`)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator, model_validator

from feltwire.config import EMBEDDED_BROKER_PORT, ConfigModel, parse_mqtt_url
from feltwire.protocol import DEFAULT_MAX_PAYLOAD_BYTES, KNOWN_READER_IDS


def default_readers() -> list[str]:
    """The antennas of a standard 10-seat table: seats, board, burn and muck."""
    return [f"seat{n}" for n in range(1, 11)] + ["board", "burn", "muck"]


class HubMqttSettings(ConfigModel):
    """Where the hub gets its reads: a broker it connects to, or one it embeds."""

    url: str | None = Field(
        None,
        description="broker URL (mqtt:// or mqtts://); unset = run the embedded broker",
    )
    embedded_host: str = Field("127.0.0.1", description="address the embedded broker binds")
    embedded_port: int = Field(
        EMBEDDED_BROKER_PORT,
        ge=0,
        le=65535,
        description="port of the embedded broker (0 = any free port); not 1883 on purpose",
    )
    keepalive: int = Field(15, ge=5, le=600, description="MQTT keep-alive in seconds")

    @field_validator("url")
    @classmethod
    def _url_valid(cls, url: str | None) -> str | None:
        if url is not None:
            parse_mqtt_url(url)
        return url


class WebSettings(ConfigModel):
    """The hub's web server and what its pages may show."""

    host: str = Field("127.0.0.1", description="address the web server binds")
    port: int = Field(8080, ge=0, le=65535, description="web server port (0 = any free port)")
    producer_token: SecretStr | None = Field(
        None,
        description="token the broadcast overlay needs; unset = a random one printed at start",
    )
    token_secret: SecretStr | None = Field(
        None,
        description=(
            "secret that signs the hub's access tokens (at least 16 characters); unset = "
            "a random one per start (tokens issued before a restart stop working)"
        ),
        min_length=16,
    )
    overlay_delay_minutes: float = Field(
        30, ge=0, le=24 * 60, description="how long the card-bearing overlay feed is held back"
    )
    allow_live_hole_cards: bool = Field(
        False, description="must be true for overlay_delay_minutes = 0 (hole cards live)"
    )

    @model_validator(mode="after")
    def _live_needs_consent(self) -> WebSettings:
        if self.overlay_delay_minutes == 0 and not self.allow_live_hole_cards:
            raise ValueError(
                "overlay_delay_minutes = 0 shows hole cards live: "
                "set allow_live_hole_cards = true to allow it"
            )
        return self


class PlayerSettings(ConfigModel):
    """A player seated when the hub starts."""

    seat: int = Field(ge=1, le=10, description="table seat (1-10)")
    name: str = Field(min_length=1, max_length=40, description="the player's name")
    buy_in: int = Field(gt=0, description="chips brought to the table (R-BUY-1, R-BUY-2)")


class RulesSettings(ConfigModel):
    """The rules the hub enforces at the table: stakes, seated players, timing.

    With this section the hub runs the dealing procedure (alerts, seat lights by turn,
    actions and pot awards on the public feed); without it the hub only shows presence.
    """

    small_blind: int = Field(5, ge=0, description="small blind (blind games)")
    big_blind: int = Field(10, ge=0, description="big blind (blind games)")
    ante: int = Field(0, ge=0, description="ante per player (stud always has one)")
    small_bet: int = Field(0, ge=0, description="fixed limit / stud: the small bet (0 = BB)")
    big_bet: int = Field(0, ge=0, description="fixed limit / stud: the big bet (0 = 2 × small)")
    players: list[PlayerSettings] = Field(
        default_factory=list, description="players seated at start (the demo seats six)"
    )
    rebuy: bool = Field(
        False, description="a player who busts buys in again (their buy_in) before the next hand"
    )
    debounce_seconds: float = Field(
        0.5,
        ge=0,
        le=5,
        description="a tag lost and found within this window is no move (reads flicker)",
    )
    tick_seconds: float = Field(
        0.25,
        ge=0,
        le=10,
        description="how often time is fed to the rules when no read comes (0 = never)",
    )

    @field_validator("players")
    @classmethod
    def _one_per_seat(cls, players: list[PlayerSettings]) -> list[PlayerSettings]:
        seats = [p.seat for p in players]
        if len(set(seats)) != len(seats):
            raise ValueError("two players in one seat")
        return players


class HubConfig(ConfigModel):
    """Everything ``feltwire hub`` needs."""

    table: str = Field("table1", pattern=r"^[A-Za-z0-9_-]{1,32}$", description="table id")
    deck: Path | None = Field(
        None, description="deck file (uid = card); unset = the simulator's built-in deck"
    )
    readers: list[str] = Field(
        default_factory=default_readers, description="the antennas this table has"
    )
    game: str = Field("NT", description="the game played, as a PHH variant code (NT, PO, FO/8 …)")
    live_equity: bool = Field(True, description="show each seat's equity on the overlay")
    max_payload_bytes: int = Field(
        DEFAULT_MAX_PAYLOAD_BYTES, ge=256, le=1 << 20, description="larger messages are refused"
    )
    mqtt: HubMqttSettings = Field(default_factory=HubMqttSettings, description="broker")
    web: WebSettings = Field(default_factory=WebSettings, description="web server")
    rules: RulesSettings | None = Field(
        None, description="enforce the rules of the game (unset = show presence only)"
    )
    state_dir: Path | None = Field(
        None,
        description=(
            "directory of the hub's event log (events.sqlite, mode 0600: it holds hole "
            "cards); unset: `feltwire hub` uses $STATE_DIRECTORY (systemd) or "
            "./feltwire-state, a hub started in-process (the demo, tests) keeps no log"
        ),
    )
    event_log_sync: Literal["full", "normal"] = Field(
        "full",
        description=(
            "SQLite synchronous mode of the event log: full = each input on disk before it "
            "is applied (survives a power cut); normal = survives a crash of the hub only"
        ),
    )

    @model_validator(mode="after")
    def _rules_valid(self) -> HubConfig:
        if self.rules is not None:
            from hub.rules.errors import RulesError
            from hub.table_service import table_config

            try:
                table_config(self.rules, self.game)
            except RulesError as err:
                raise ValueError(f"[rules]: {err}") from None
        return self

    @field_validator("readers")
    @classmethod
    def _readers_known(cls, readers: list[str]) -> list[str]:
        unknown = [r for r in readers if r not in KNOWN_READER_IDS]
        if unknown:
            raise ValueError(f"unknown reader ids {unknown}; see docs/protocol.md")
        return readers
