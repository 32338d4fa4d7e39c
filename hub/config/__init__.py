"""The hub's configuration (TOML → :class:`HubConfig`).

The config floor of the hub: it imports only the rules (to check stakes, games and
tournament schedules before the hub starts), the web users' model and the ground floor.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import (
    Field,
    field_validator,
    model_validator,
)

from feltwire.cards import FULL_DECK, RANKS
from feltwire.config import (
    EMBEDDED_BROKER_PORT,
    URL_HELP,
    BrokerUrls,
    ConfigModel,
    ConfigPath,
    MqttClientBase,
)
from feltwire.protocol import DEFAULT_MAX_PAYLOAD_BYTES, KNOWN_READER_IDS
from hub.config.branding import BrandingSettings as BrandingSettings
from hub.config.branding import check_image, country_code, photo_name
from hub.config.cluster import ClusterSettings as ClusterSettings
from hub.config.cluster import check_cluster
from hub.config.web import WebSettings as WebSettings
from hub.rules.errors import RulesError
from hub.rules.games import Structure, game
from hub.rules.table import TableConfig, TableRules
from hub.rules.tournament import Level, Tournament


def default_readers() -> list[str]:
    """The antennas of a standard 10-seat table: seats, board, burn and muck."""
    return [f"seat{n}" for n in range(1, 11)] + ["board", "burn", "muck"]


@dataclass(frozen=True)
class TlsFiles:
    """The files an MQTT client of the hub verifies the broker with (``ca_file``; None =
    the system CAs) and proves itself with under mutual TLS (``cert_file``, ``key_file``)."""

    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None


def is_loopback_host(host: str) -> bool:
    """True for an address only this machine reaches (127.0.0.0/8, ::1, ``localhost``).

    >>> is_loopback_host("127.0.0.1"), is_loopback_host("0.0.0.0"), is_loopback_host("hub.local")
    (True, False, False)
    """
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name: it may resolve to any interface


EMBEDDED_GUARD_HELP = (
    "make them with `feltwire certs init --out ca/` and `feltwire certs server --ca ca/ "
    "--host <name> --ip <address>` (embedded_cert_file = ca/server.crt, embedded_key_file "
    "= ca/server.key, embedded_ca_file = ca/ca.crt) and, for each node, `feltwire "
    "credentials add --file passwords --acl acl --table <table> --node <node>` "
    "(embedded_password_file = passwords, embedded_acl_file = acl); see the README, "
    '"Securing the broker"'
)
"""Which commands make the files a guarded embedded broker needs (for error messages)."""


class HubMqttSettings(MqttClientBase[Path]):
    """Where the hub gets its reads: a broker it connects to, or one it embeds.

    With no ``url`` the hub embeds a broker. On loopback (the default ``embedded_host``)
    it may be open: anonymous, plain TCP, no ACL — only this machine reaches it (the demo,
    a node on the hub's own machine). Anywhere else (``embedded_host = "0.0.0.0"`` or a
    LAN address) it must have passwords, an ACL and TLS: ``embedded_password_file``,
    ``embedded_acl_file``, ``embedded_cert_file`` and ``embedded_key_file``, the files
    ``feltwire credentials`` and ``feltwire certs`` write (the same files the Mosquitto
    template uses). The hub itself then connects in-process with a credential it makes at
    each start (a random password, never written anywhere) through a listener on
    127.0.0.1 that admits that credential only, so no password of the hub's goes in
    ``hub.toml``. ``keepalive`` and the TLS files for a broker at ``url`` (``ca_file``,
    ``cert_file``, ``key_file``) are :class:`~feltwire.config.MqttClientBase`'s.
    """

    _TLS_FILES_HINT = (
        " (the embedded broker's own TLS files are embedded_cert_file, embedded_key_file "
        "and embedded_ca_file)"
    )

    url: BrokerUrls | None = Field(None, description=URL_HELP + "; unset = run the embedded broker")
    embedded_host: str = Field(
        "127.0.0.1",
        description=(
            "address the embedded broker binds; anything but loopback (e.g. 0.0.0.0 for a "
            "node on another machine) needs the embedded_password_file, embedded_acl_file, "
            "embedded_cert_file and embedded_key_file below"
        ),
    )
    embedded_port: int = Field(
        EMBEDDED_BROKER_PORT,
        ge=0,
        le=65535,
        description="port of the embedded broker (0 = any free port); not 1883 on purpose",
    )
    embedded_password_file: ConfigPath | None = Field(
        None,
        description=(
            "the embedded broker's password file (Mosquitto format, `feltwire credentials "
            "add --file`): every client needs a username and its password; unset = anonymous "
            "(loopback only)"
        ),
    )
    embedded_acl_file: ConfigPath | None = Field(
        None,
        description=(
            "the embedded broker's ACL file (Mosquitto format, `feltwire credentials add "
            "--acl`): each credential reaches only what its block grants; goes with "
            "embedded_password_file"
        ),
    )
    embedded_cert_file: ConfigPath | None = Field(
        None,
        description=(
            "the embedded broker's TLS certificate (`feltwire certs server`, server.crt): its "
            "listener then speaks TLS only; unset = plain TCP (loopback only)"
        ),
    )
    embedded_key_file: ConfigPath | None = Field(
        None, description="the private key of embedded_cert_file (server.key, mode 0600)"
    )
    embedded_ca_file: ConfigPath | None = Field(
        None,
        description=(
            "the CA that signs client certificates (`feltwire certs init`, ca.crt), for "
            "embedded_require_certificate"
        ),
    )
    embedded_require_certificate: bool = Field(
        False,
        description=(
            "mutual TLS: every client of the embedded broker must present a certificate "
            "signed by embedded_ca_file (`feltwire certs client`) as well as its password"
        ),
    )

    @property
    def embedded_guards(self) -> dict[str, Path | None]:
        """The embedded broker's security files by key (None: not set)."""
        return {
            "embedded_password_file": self.embedded_password_file,
            "embedded_acl_file": self.embedded_acl_file,
            "embedded_cert_file": self.embedded_cert_file,
            "embedded_key_file": self.embedded_key_file,
            "embedded_ca_file": self.embedded_ca_file,
        }

    @model_validator(mode="after")
    def _embedded_guarded(self) -> HubMqttSettings:
        given = [key for key, path in self.embedded_guards.items() if path is not None]
        if self.embedded_require_certificate:
            given.append("embedded_require_certificate")
        if self.url is not None:
            if given:
                raise ValueError(
                    f"{', '.join(given)} guard the embedded broker, which does not run when "
                    "url is set: remove them (or url)"
                )
            return self
        if (self.embedded_cert_file is None) != (self.embedded_key_file is None):
            raise ValueError("embedded_cert_file and embedded_key_file go together")
        if (self.embedded_password_file is None) != (self.embedded_acl_file is None):
            raise ValueError(
                "embedded_password_file and embedded_acl_file go together: passwords without "
                "an ACL let every credential read every reader topic"
            )
        if self.embedded_require_certificate and (
            self.embedded_cert_file is None or self.embedded_ca_file is None
        ):
            raise ValueError(
                "embedded_require_certificate needs TLS (embedded_cert_file, "
                "embedded_key_file) and the CA of the client certificates (embedded_ca_file)"
            )
        if not is_loopback_host(self.embedded_host):
            needed = (
                "embedded_password_file",
                "embedded_acl_file",
                "embedded_cert_file",
                "embedded_key_file",
            )
            missing = [key for key in needed if self.embedded_guards[key] is None]
            if missing:
                raise ValueError(
                    f"embedded_host = {self.embedded_host!r} puts the embedded broker on the "
                    "network, where anyone could read the hole cards' tags and inject reads: "
                    "it needs passwords, an ACL and TLS. Add "
                    f"{', '.join(missing)}; {EMBEDDED_GUARD_HELP}. Or keep embedded_host = "
                    '"127.0.0.1" (open, for this machine only)'
                )
        return self

    @property
    def embedded_is_guarded(self) -> bool:
        """True when the embedded broker asks every client for a password."""
        return self.url is None and self.embedded_password_file is not None

    @property
    def tls_files(self) -> TlsFiles:
        """The CA and client certificate files the hub's MQTT clients use for TLS."""
        return TlsFiles(ca_file=self.ca_file, cert_file=self.cert_file, key_file=self.key_file)


class PlayerSettings(ConfigModel):
    """A player seated when the hub starts."""

    seat: int = Field(ge=1, le=10, description="table seat (1-10)")
    name: str = Field(min_length=1, max_length=40, description="the player's name")
    buy_in: int = Field(gt=0, description="chips brought to the table (R-BUY-1, R-BUY-2)")
    club_id: str | None = Field(
        None, min_length=1, max_length=40, description="the player's club id (unset: none)"
    )
    country: str | None = Field(
        None, description="ISO 3166 alpha-2 country (CZ, DE …): a flag on the overlay's plate"
    )
    photo: str | None = Field(
        None, description="a photo for the overlay's plate: a file name in [branding] photos_dir"
    )

    @field_validator("country")
    @classmethod
    def _country(cls, code: str | None) -> str | None:
        return None if code is None else country_code(code)

    @field_validator("photo")
    @classmethod
    def _photo(cls, name: str | None) -> str | None:
        return None if name is None else photo_name(name)


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
    return_with_stack: bool = Field(
        True,
        description=(
            "R-BUY-3 (Robert's Rules): a player who left with more than the maximum buy-in "
            "and comes back within 20 minutes brings at least what they left with; false: "
            "the maximum is only lifted for them"
        ),
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


class LevelSettings(ConfigModel):
    """One blind level of a tournament (R-BLIND-1, R-BLIND-9)."""

    small_blind: int = Field(gt=0, description="small blind of this level")
    big_blind: int = Field(gt=0, description="big blind of this level")
    ante: int = Field(0, ge=0, description="ante per player of this level (0 = none)")
    minutes: float = Field(gt=0, le=24 * 60, description="how long the level lasts")


class TournamentSettings(ConfigModel):
    """A tournament at the table: blinds that rise on a clock, everyone starts with the
    same stack, no rebuys (a freezeout).

    The clock starts when the table opens; each hand takes the blinds and ante of the
    level running when it starts. The dealer pauses and resumes the clock at the console
    (``POST /api/clock/pause``, ``/api/clock/resume``); the last level runs on once the
    schedule ends.
    """

    starting_stack: int = Field(gt=0, description="chips every player starts with")
    levels: list[LevelSettings] = Field(
        min_length=1, max_length=500, description="the blind levels, in order"
    )

    @model_validator(mode="after")
    def _schedule_valid(self) -> TournamentSettings:
        try:
            tournament_of(self)
        except RulesError as err:
            raise ValueError(str(err)) from None
        return self


def tournament_of(settings: TournamentSettings) -> Tournament:
    """The rules' tournament for a ``[tournament]`` section (RulesError if the rules
    refuse the schedule: a small blind above the big blind, a starting stack of 0 …)."""
    levels = [Level(lv.small_blind, lv.big_blind, lv.ante, lv.minutes) for lv in settings.levels]
    return Tournament(levels, settings.starting_stack)


def table_config(settings: RulesSettings, game_code: str) -> TableConfig:
    """The table layer's config from the hub's ``[rules]`` settings (RulesError if the
    rules refuse the stakes)."""
    return TableConfig(
        game(game_code),
        small_blind=settings.small_blind,
        big_blind=settings.big_blind,
        ante=settings.ante,
        small_bet=settings.small_bet,
        big_bet=settings.big_bet,
        rules=TableRules(return_with_stack=settings.return_with_stack),
    )


def _check_rules(settings: RulesSettings, game_code: str, where: str) -> None:
    """Raise the config error for a ``[rules]`` section (of ``where``, a prefix naming its
    table; "" for the top level) the rules refuse for ``game_code``."""
    try:
        table_config(settings, game_code)
    except RulesError as err:
        raise ValueError(f"{where}[rules]: {err}") from None


TABLE_ID_PATTERN = r"^[A-Za-z0-9_-]{1,32}$"
"""What a table id may be (it is part of every topic and names the table's log directory)."""

MAX_TABLES = 1000
"""The most tables one hub serves (``[[tables]]`` entries)."""

EVENT_LOG_BATCH = 256
"""``event_log_batch``'s default: a table's messages that arrived together, logged in one
transaction (one fsync) at most."""
MAX_EVENT_LOG_BATCH = 10_000
"""The largest ``event_log_batch`` (one transaction holds its inputs in memory)."""


def _known_readers(readers: list[str]) -> list[str]:
    unknown = [r for r in readers if r not in KNOWN_READER_IDS]
    if unknown:
        raise ValueError(f"unknown reader ids {unknown}; see docs/protocol.md")
    repeated = sorted({r for r in readers if readers.count(r) > 1})
    if repeated:
        raise ValueError(f"{', '.join(repeated)} listed more than once; name each antenna once")
    return readers


def _known_game(code: str) -> str:
    try:
        game(code)
    except RulesError as err:
        raise ValueError(str(err)) from None
    return code


def game_cards(code: str) -> tuple[str, ...]:
    """The cards a deck for the game ``code`` must hold (all 52 for every game today; a
    short-deck game leaves out the ranks below its lowest).

    >>> len(game_cards("NT"))
    52
    """
    g = game(code)
    cards = tuple(c for c in FULL_DECK if RANKS.index(c[0]) >= g.lowest_rank)
    assert len(cards) == g.deck_size, f"{g.name}: {len(cards)} cards, not {g.deck_size}"
    return cards


class TableSettings(ConfigModel):
    """One table of a hub that serves several: a ``[[tables]]`` entry of ``hub.toml``.

    A key an entry leaves out takes the hub's top-level value, so what the tables share is
    written once (a table's own ``[tables.rules]`` replaces the top-level ``[rules]``)::

        game = "NT"
        [rules]
        big_blind = 10

        [[tables]]
        table = "t1"

        [[tables]]
        table = "t2"
        game = "PO"
    """

    table: str = Field(pattern=TABLE_ID_PATTERN, description="table id, part of every topic")
    readers: list[str] | None = Field(
        None, description="the antennas this table has (unset = the top-level readers)"
    )
    game: str | None = Field(None, description="the game played here (unset = the top-level game)")
    deck: ConfigPath | None = Field(
        None, description="this table's deck file (unset = the top-level deck)"
    )
    live_equity: bool | None = Field(
        None, description="equity on this table's overlay (unset = the top-level live_equity)"
    )
    rules: RulesSettings | None = Field(
        None, description="this table's rules (unset = the top-level [rules], if any)"
    )
    branding: BrandingSettings | None = Field(
        None, description="this table's overlay branding (unset = the top-level [branding])"
    )

    @field_validator("readers")
    @classmethod
    def _readers_known(cls, readers: list[str] | None) -> list[str] | None:
        return None if readers is None else _known_readers(readers)

    @field_validator("game")
    @classmethod
    def _game_known(cls, code: str | None) -> str | None:
        return None if code is None else _known_game(code)


class HealthSettings(ConfigModel):
    """How the hub watches its nodes and readers (``[health]``)."""

    reader_silent_s: float = Field(
        15.0,
        gt=0,
        le=3600,
        description=(
            "a reader whose node re-sends its inventory (the node's inventory_refresh_s) "
            "and that sent nothing for this long raises reader_silent; never less than "
            "twice the node's refresh (a whole node quiet: not before its broker could "
            "have said it offline, docs/protocol.md)"
        ),
    )
    reorder_grace_s: float = Field(
        0.5,
        ge=0,
        le=10,
        description=(
            "a node's read whose seq skips ahead of the node's next one waits this long "
            "(seconds, the hub's monotonic clock) for the reads before it — MQTT keeps the "
            "order of one antenna's topic only — before those count as lost (reads_lost) "
            "and the reads are applied in the node's order; 0: no wait"
        ),
    )
    log_min_free_mb: float = Field(
        16.0,
        ge=0,
        le=1_000_000,
        description=(
            "/readyz counts a table's event log as not writable while its folder's "
            "filesystem has less than this many MiB free (as it does when the folder or "
            "the log file is read-only), before a write fails; 0: only a failed write says so"
        ),
    )
    log_check_s: float = Field(
        5.0,
        ge=0,
        le=300,
        description=(
            "how long /readyz keeps what it last found of the event log's disk (seconds, "
            "the hub's monotonic clock); 0: it looks on every request"
        ),
    )


class HandsSettings(ConfigModel):
    """The hands store (docs/hands.md): every finished hand, written from the event log as
    it ends — SQLite in the state directory, or a club's PostgreSQL."""

    enabled: bool = Field(
        True, description="keep every finished hand in the hands store (needs a state_dir)"
    )
    url: str | None = Field(
        None,
        description=(
            "the store's database: unset = SQLite, hands.sqlite in state_dir (mode 0600: "
            "it holds hole cards); postgresql://user:password@host:5432/db = a PostgreSQL "
            "server (the postgres extra: pip install 'feltwire[postgres]')"
        ),
    )

    hidden_cards_days: int = Field(
        30,
        ge=0,
        description=(
            "days a finished hand keeps the cards nobody at the table saw (folded and "
            "mucked hands, burns, discards); then they are erased, the rest of the hand "
            "kept; 0 = kept as long as the hand (docs/hands.md)"
        ),
    )
    keep_days: int = Field(
        0, ge=0, description="days a finished hand is kept at all; 0 = until deleted"
    )

    @field_validator("url")
    @classmethod
    def _known_database(cls, url: str | None) -> str | None:
        if url is not None and not url.startswith(
            ("sqlite:///", "postgresql://", "postgresql+psycopg://", "postgres://")
        ):
            raise ValueError("a sqlite:///PATH or postgresql://… URL")
        return url


@dataclass(frozen=True)
class ResolvedTable:
    """One table as the hub runs it: its ``[[tables]]`` entry over the top-level values."""

    table: str
    readers: list[str]
    game: str
    deck: Path | None
    live_equity: bool
    rules: RulesSettings | None
    branding: BrandingSettings


class HubConfig(ConfigModel):
    """Everything ``feltwire hub`` needs.

    One table is described by the top-level keys (``table``, ``readers``, ``game``,
    ``deck``, ``live_equity``, ``[rules]``); several by ``[[tables]]`` entries, for which
    the top-level keys are defaults (:meth:`table_configs` resolves them).

    >>> cfg = HubConfig(game="PO", tables=[TableSettings(table="a"), TableSettings(table="b",
    ...                 game="NT")])
    >>> [(t.table, t.game) for t in cfg.table_configs()]
    [('a', 'PO'), ('b', 'NT')]
    """

    table: str = Field(
        "table1",
        pattern=TABLE_ID_PATTERN,
        description="table id (a one-table hub; with [[tables]] each entry names its table)",
    )
    deck: ConfigPath | None = Field(
        None, description="deck file (uid = card); unset = the simulator's built-in deck"
    )
    readers: list[str] = Field(
        default_factory=default_readers, description="the antennas this table has"
    )
    game: str = Field("NT", description="the game played, as a PHH variant code (NT, PO, FO/8 …)")
    live_equity: bool = Field(True, description="show each seat's equity on the overlay")
    equity_workers: int | None = Field(
        None,
        ge=0,
        le=64,
        description=(
            "worker processes that compute live equity for every table (unset = none "
            "for a hub of one or two tables, else one per core, at most 2; 0 = threads "
            "inside the hub process, sharing its interpreter lock with the reads)"
        ),
    )
    max_payload_bytes: int = Field(
        DEFAULT_MAX_PAYLOAD_BYTES, ge=256, le=1 << 20, description="larger messages are refused"
    )
    node_rate_limit: float = Field(
        100.0,
        gt=0,
        le=100_000,
        description=(
            "messages a second one node may send, sustained (a dealing table sends a few); "
            "more are refused and counted with their sequence numbers (rate_limited)"
        ),
    )
    node_burst: int = Field(
        500,
        ge=1,
        le=1_000_000,
        description="messages one node may send at once before its rate applies",
    )
    mqtt: HubMqttSettings = Field(default_factory=HubMqttSettings, description="broker")
    web: WebSettings = Field(default_factory=WebSettings, description="web server")
    health: HealthSettings = Field(
        default_factory=HealthSettings, description="watching the nodes and readers"
    )
    rules: RulesSettings | None = Field(
        None, description="enforce the rules of the game (unset = show presence only)"
    )
    tournament: TournamentSettings | None = Field(
        None, description="a tournament: blinds rise on a clock (needs [rules]); unset = cash game"
    )
    branding: BrandingSettings = Field(
        default_factory=BrandingSettings, description="the overlay's name, logo and photos"
    )
    state_dir: ConfigPath | None = Field(
        None,
        description=(
            "directory of the hub's event log (events.sqlite) and hands store "
            "(hands.sqlite), mode 0600: they hold hole cards; unset: `feltwire hub` uses "
            "$STATE_DIRECTORY (systemd) or "
            "./feltwire-state, a hub started in-process (the demo, tests) keeps no log"
        ),
    )
    event_log_url: str | None = Field(
        None,
        pattern=r"^(postgresql|postgres|postgresql\+psycopg)://",
        description=(
            "where the tables' event logs are: unset = SQLite files in state_dir; "
            "postgresql://user:password@host:5432/db = a PostgreSQL database, every table's "
            "log in it (the postgres extra; docs/scaling.md); a primary and its standbys: "
            "postgresql://user@db1:5432,db2:5432/db?target_session_attrs=read-write"
        ),
    )
    event_log_sync: Literal["full", "normal"] = Field(
        "full",
        description=(
            "SQLite synchronous mode of the event log: full = each input on disk before it "
            "is applied (survives a power cut); normal = survives a crash of the hub only"
        ),
    )
    event_log_batch: int = Field(
        EVENT_LOG_BATCH,
        ge=1,
        le=MAX_EVENT_LOG_BATCH,
        description=(
            "a table's messages that arrived together, logged in one transaction (one "
            "fsync with full) at most — group commit, each input still on disk before it "
            "is applied; 1 = one commit per message"
        ),
    )
    event_log_torn: Literal["drop", "stop"] = Field(
        "drop",
        description=(
            "a log whose last write was torn (a power cut or a kill while it was written): "
            "drop = the hub drops that write, sets the damaged files aside, says what it "
            "dropped and starts; stop = it refuses to start until `feltwire event-log "
            "accept-loss` (any other damage always stops it)"
        ),
    )
    event_log_snapshots: bool = Field(
        True,
        description=(
            "store each table's state in the event log's file at every hand's start, so "
            "that a restart replays only the inputs after it (false: a restart replays "
            "every input)"
        ),
    )
    hands: HandsSettings = Field(
        default_factory=HandsSettings, description="the hands store (every finished hand)"
    )
    cluster: ClusterSettings | None = Field(
        None, description="a card room of several hubs sharing the tables (docs/scaling.md)"
    )
    tables: list[TableSettings] = Field(
        default_factory=list,
        max_length=MAX_TABLES,
        description=(
            "several tables in one hub, one entry each (keys left out take the top-level "
            "value); empty = the one table the top-level keys describe"
        ),
    )

    def table_configs(self) -> list[ResolvedTable]:
        """The tables this hub serves, in order: the ``[[tables]]`` entries with the
        top-level values filled in, or the one top-level table."""
        if not self.tables:
            return [
                ResolvedTable(
                    table=self.table,
                    readers=list(self.readers),
                    game=self.game,
                    deck=self.deck,
                    live_equity=self.live_equity,
                    rules=self.rules,
                    branding=self.branding,
                )
            ]
        return [
            ResolvedTable(
                table=t.table,
                readers=list(t.readers if t.readers is not None else self.readers),
                game=t.game if t.game is not None else self.game,
                deck=t.deck if t.deck is not None else self.deck,
                live_equity=t.live_equity if t.live_equity is not None else self.live_equity,
                rules=t.rules if t.rules is not None else self.rules,
                branding=t.branding if t.branding is not None else self.branding,
            )
            for t in self.tables
        ]

    @model_validator(mode="after")
    def _tables_valid(self) -> HubConfig:
        if not self.tables:
            return self
        if "table" in self.model_fields_set:
            raise ValueError(
                f"table = {self.table!r} and [[tables]] together: with [[tables]] every "
                "table is named in its own entry; remove the top-level table key"
            )
        seen: set[str] = set()
        for t in self.tables:
            if t.table in seen:
                raise ValueError(f"[[tables]]: table {t.table!r} is listed twice")
            seen.add(t.table)
        for resolved in self.table_configs():
            if resolved.rules is None:
                continue
            _check_rules(resolved.rules, resolved.game, f"[[tables]] {resolved.table!r}: ")
        return self

    @model_validator(mode="after")
    def _cluster_valid(self) -> HubConfig:
        check_cluster(self.cluster, self.event_log_url)
        return self

    @model_validator(mode="after")
    def _photos_valid(self) -> HubConfig:
        for t in self.table_configs():
            for p in t.rules.players if t.rules is not None else ():
                if p.photo is None:
                    continue
                where = f"seat {p.seat} ({p.name}): photo {p.photo!r}"
                if t.branding.photos_dir is None:
                    raise ValueError(f"{where} needs [branding] photos_dir, the photos' folder")
                check_image(t.branding.photos_dir / p.photo, f"{where}:")
        return self

    @model_validator(mode="after")
    def _rules_valid(self) -> HubConfig:
        if self.rules is not None:
            _check_rules(self.rules, self.game, "")
        return self

    @model_validator(mode="after")
    def _tournament_valid(self) -> HubConfig:
        t = self.tournament
        if t is None:
            return self
        if self.tables:
            raise ValueError("[tournament] runs the clock of a one-table hub, not of [[tables]]")
        if self.rules is None:
            raise ValueError("[tournament] needs a [rules] section (the players, the timing)")
        g = game(self.game)  # known: [rules] checked it
        if not g.uses_blinds or g.structure is Structure.FIXED_LIMIT:
            raise ValueError(
                f"[tournament]: blind levels need a no- or pot-limit blind game, not {g.name}"
            )
        if self.rules.rebuy:
            raise ValueError("[tournament] is a freezeout: set [rules] rebuy = false")
        for p in self.rules.players:
            if p.buy_in != t.starting_stack:
                raise ValueError(
                    f"[tournament]: seat {p.seat} buys in for {p.buy_in}; a tournament seat "
                    f"comes with the starting stack ({t.starting_stack})"
                )
        return self

    @field_validator("readers")
    @classmethod
    def _readers_known(cls, readers: list[str]) -> list[str]:
        return _known_readers(readers)

    @field_validator("game")
    @classmethod
    def _game_known(cls, code: str) -> str:
        return _known_game(code)
