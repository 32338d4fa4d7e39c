"""``feltwire hub``: run the hub from its TOML config."""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import signal
import ssl
from collections.abc import Callable, Sized
from pathlib import Path

from pydantic import SecretStr

from feltwire.config import broker_name, command_start
from feltwire.deck import load_deck
from feltwire.errors import ConfigError, DeckError
from feltwire.sdnotify import Watchdog, notify
from hub.app.errors import EventLogError
from hub.bootstrap import start_hub
from hub.config import HubConfig, game_cards

DEFAULT_STATE_DIR = Path("feltwire-state")
"""Where ``feltwire hub`` keeps its event log when neither the config (``state_dir``) nor
systemd (``$STATE_DIRECTORY``) says."""

PRODUCER_TOKEN_FILE = "producer-token"
"""The file in ``state_dir`` that holds this start's random producer token (mode 0600)
when ``[web] producer_token`` is not set: the token is never printed into the journal."""


def default_state_dir() -> Path:
    """systemd's ``StateDirectory=`` (its first path) or ``./feltwire-state``."""
    env = os.environ.get("STATE_DIRECTORY", "")
    return Path(env.split(":")[0]) if env else DEFAULT_STATE_DIR


def check_files(config: HubConfig) -> list[str]:
    """Check what ``config`` names beyond its own keys, as ``--check-config`` and every
    start do: each table's deck (complete for its game, no uid or card twice, every code
    valid), the web users file, every TLS, password and ACL file (there, readable, a
    certificate matching its key), and, for the embedded broker, that amqtt (the
    ``broker`` extra) is installed. Returns one line per thing checked; raises ConfigError
    listing every problem found."""
    from hub.rules.games import game
    from hub.security.acl import AclFileError, read_acl_file
    from hub.security.passwords import PasswordFileError, read_password_file
    from hub.security.users import read_users_file

    checked: list[str] = []
    problems: list[str] = []
    decks: dict[tuple[Path, str], str] = {}
    for table in config.table_configs():
        if table.deck is None:
            checked.append(
                f"table {table.table}: the simulator's built-in deck (its uids are public; "
                "a real table registers its own with `feltwire deck register`)"
            )
            continue
        key = (table.deck, table.game)
        if key not in decks:
            try:
                deck = load_deck(table.deck, required=game_cards(table.game))
            except DeckError as exc:
                decks[key] = ""
                problems.append(f"table {table.table}: {exc}")
            else:
                decks[key] = f"{len(deck)} cards, every card of {game(table.game).name}"
        if decks[key]:
            checked.append(f"table {table.table}: deck {table.deck}, {decks[key]}")
    users_file = config.web.users_file
    if users_file is not None:  # read again: it may have changed since validation
        _check_file(checked, problems, "[web] users_file", users_file, read_users_file, "users")
    mqtt = config.mqtt
    if mqtt.url is not None:
        checked += mqtt.broker_lines()  # each broker the hub may connect to, in turn
        if mqtt.ca_file is not None:
            _check_tls(checked, problems, "[mqtt] ca_file", ca=mqtt.ca_file)
        if mqtt.cert_file is not None and mqtt.key_file is not None:
            _check_tls(
                checked, problems, "[mqtt] cert_file", cert=mqtt.cert_file, key=mqtt.key_file
            )
        return _result(checked, problems)
    where = f"embedded broker on {mqtt.embedded_host}:{mqtt.embedded_port}"
    try:  # amqtt comes with the `broker` extra: say so before anything starts
        import hub.adapters.broker  # noqa: F401
    except ImportError as exc:
        problems.append(str(exc))
    if mqtt.embedded_cert_file is not None and mqtt.embedded_key_file is not None:
        _check_tls(
            checked,
            problems,
            "[mqtt] embedded_cert_file",
            cert=mqtt.embedded_cert_file,
            key=mqtt.embedded_key_file,
        )
    if mqtt.embedded_ca_file is not None:
        _check_tls(checked, problems, "[mqtt] embedded_ca_file", ca=mqtt.embedded_ca_file)
    guard_files: tuple[tuple[str, Callable[[Path], Sized], str, type[ValueError]], ...] = (
        ("embedded_password_file", read_password_file, "credentials", PasswordFileError),
        ("embedded_acl_file", lambda path: read_acl_file(path).users, "users", AclFileError),
    )
    for name, read, what, error in guard_files:
        path = mqtt.embedded_guards[name]
        if path is not None:
            _check_file(checked, problems, f"[mqtt] {name}", path, read, what, error)
    if mqtt.embedded_is_guarded:
        checked.append(
            f"{where}: TLS {'on' if mqtt.embedded_cert_file else 'off'}, passwords, ACL; the "
            "hub connects in-process (no password in hub.toml)"
        )
    else:
        checked.append(f"{where}: open (anonymous, plain TCP) — loopback only")
    return _result(checked, problems)


def _result(checked: list[str], problems: list[str]) -> list[str]:
    if problems:
        raise ConfigError("\n  ".join(["the files the config names have problems:", *problems]))
    return checked


def _why(exc: Exception) -> str:
    if isinstance(exc, FileNotFoundError):
        return f"{exc.filename}: no such file"
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename}: cannot read it ({exc.strerror})"
    return str(exc)


def _check_file(
    checked: list[str],
    problems: list[str],
    key_name: str,
    path: Path,
    read: Callable[[Path], Sized],
    what: str,
    error: type[ValueError] = ValueError,
) -> None:
    """Read ``path`` as the hub will: a problem if ``read`` raises OSError or ``error``,
    else a checked line with the count of ``what`` it holds."""
    try:
        count = len(read(path))
    except (OSError, error) as exc:
        problems.append(f"{key_name}: {_why(exc)}")
    else:
        checked.append(f"{key_name} {path}: {count} {what}")


def _check_tls(
    checked: list[str],
    problems: list[str],
    key_name: str,
    *,
    ca: Path | None = None,
    cert: Path | None = None,
    key: Path | None = None,
) -> None:
    """Load a CA, or a certificate with its key, as the TLS code will."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    for path in (ca, cert, key):
        if path is not None and not path.is_file():
            problems.append(f"{key_name}: {path}: no such file")
            return
    try:
        if ca is not None:
            context.load_verify_locations(cafile=str(ca))
        if cert is not None and key is not None:
            context.load_cert_chain(str(cert), str(key))
    except ssl.SSLError as exc:
        what = f"{cert} and {key} (not a certificate and its key?)" if cert else f"{ca}"
        problems.append(f"{key_name}: {what}: {exc.reason or exc}")
        return
    except OSError as exc:  # unreadable: the hub's user may not read it
        problems.append(f"{key_name}: {cert or ca}: cannot read it ({exc.strerror or exc})")
        return
    if key is not None and key.stat().st_mode & 0o004:
        problems.append(f"{key_name}: the private key {key} is readable by everyone: chmod 600 it")
        return
    checked.append(f"{key_name} {cert or ca}" + (f" with its key {key}" if key else ""))


def write_producer_token(state_dir: Path, token: str) -> Path:
    """Write this start's random producer token to ``state_dir/producer-token`` (0600)."""
    state_dir.mkdir(parents=True, exist_ok=True)
    path = state_dir / PRODUCER_TOKEN_FILE
    path.unlink(missing_ok=True)  # a file of an older start: a new one is made 0600
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(token + "\n")
    return path


def hub_options(parser: argparse.ArgumentParser) -> None:
    """The hub's own options beside ``--config`` and the log options."""
    parser.add_argument(
        "--access-log",
        action="store_true",
        help="log every web request (uvicorn's access log, one line each; off by default)",
    )


async def _serve(config: HubConfig, token_file: Path | None, *, access_log: bool = False) -> None:
    # before the banner: whoever reads it may stop the hub at once
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    runtime = await start_hub(config, access_log=access_log, freeze_gc=True)
    several = len(runtime.services) > 1 or config.cluster is not None
    if config.cluster is not None:
        tables = ", ".join(t.table for t in config.table_configs())
        print(
            f"feltwire hub: hub {config.cluster.hub} of a card room (tables {tables}); it "
            f"takes its share of them as it runs: {runtime.web_url}/tables says which hub "
            "serves which"
        )
    for table, service in runtime.services.items():
        query = f"?table={table}" if several else ""
        print(f"feltwire hub: table {table}")
        print(f"  public view : {runtime.web_url}/{query}")
        print(f"  console     : {runtime.web_url}/console{query} (dealer role)")
        print(f"  overlay     : {runtime.web_url}/overlay{query} (producer role)")
        event_log = runtime.logs.get(table)
        if event_log is not None:
            print(f"  event log   : {event_log.where} ({service.replayed} inputs replayed)")
    print(f"sign in       : {runtime.web_url}/login")
    if not config.web.users and config.web.users_file is None:
        print(
            "  no web users configured: add them with `feltwire web-user add --role dealer "
            "NAME`, or set [web] token_secret and mint a token with `feltwire web-token`"
        )
    if token_file is not None:
        print(
            f"producer token: a random one for this start, in {token_file} (mode 0600); "
            "for OBS mint one with `feltwire web-token --role producer --hours 12 --config "
            "hub.toml` (needs [web] token_secret) or set [web] producer_token"
        )
    else:
        print("producer token: [web] producer_token of the config (not shown)")
    embedded = runtime.embedded
    if embedded is not None:
        guards = (
            f"{'TLS, ' if embedded.tls else ''}passwords, ACL"
            if embedded.guarded
            else "open: anonymous, plain TCP, this machine only"
        )
        print(f"broker        : {embedded.url} (embedded; {guards})")
    else:  # every broker of [mqtt] url, in the order the hub tries them
        listed = runtime.config.mqtt.addresses
        print(f"broker        : {', '.join(broker_name(b) for b in listed)}")
    print(end="", flush=True)
    # systemd (Type=notify): ready once the web server listens and an embedded broker is
    # up; a broker at [mqtt] url may still be connecting — the hub keeps trying and the
    # console says so, rather than systemd killing a hub whose broker is late at boot
    notify("READY=1")
    watchdog = asyncio.create_task(_feed_watchdog(Watchdog()), name="systemd-watchdog")
    await stop.wait()
    notify("STOPPING=1")
    watchdog.cancel()
    await runtime.stop()


async def _feed_watchdog(watchdog: Watchdog) -> None:
    """Feed systemd's watchdog from the hub's event loop: a loop that blocks stops
    feeding it, and systemd restarts the hub."""
    if watchdog.interval is None:
        return
    while True:
        watchdog.kick()
        await asyncio.sleep(watchdog.interval / 4)


def main(argv: list[str]) -> int:
    """Entry point of ``feltwire hub``."""
    started = command_start(
        HubConfig, "feltwire hub", argv, __doc__ or "", check=check_files, options=hub_options
    )
    if isinstance(started, int):
        return started
    config, args = started
    if config.state_dir is None:
        config = config.model_copy(update={"state_dir": default_state_dir()})
    assert config.state_dir is not None
    token_file: Path | None = None
    try:
        if config.web.producer_token is None:
            token = secrets.token_urlsafe(24)
            token_file = write_producer_token(config.state_dir, token)
            web = config.web.model_copy(update={"producer_token": SecretStr(token)})
            config = config.model_copy(update={"web": web})
        asyncio.run(_serve(config, token_file, access_log=args.access_log))
    except (OSError, DeckError, EventLogError) as exc:
        print(f"feltwire hub: {exc}")
        return 1
    return 0
