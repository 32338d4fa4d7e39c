"""Config loading: a TOML file into one validated pydantic model per process.

Every process (hub, node, bridge) defines its model on top of :class:`ConfigModel`
(unknown keys are errors, every field documented) and loads it with :func:`load_config`,
which turns any problem into a :class:`~feltwire.errors.ConfigError` that names the file,
the key and what is wrong. A relative path a file names (a field of type
:data:`ConfigPath`, and the MQTT TLS files) is taken from the config file's folder, not
from the working directory: ``deck = "deck.toml"`` in ``/etc/feltwire/hub.toml`` is
``/etc/feltwire/deck.toml`` whoever starts the process, from wherever.

>>> from pydantic import Field
>>> class Demo(ConfigModel):
...     table: str = Field("t1", description="table id")
>>> parse_config(Demo, {"table": "t9"}, source="inline").table
't9'
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, ClassVar, Generic, Self, TypeVar
from urllib.parse import unquote, urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from feltwire.errors import ConfigError

EMBEDDED_BROKER_PORT = 18830
"""Default port of the hub's embedded broker: not 1883, so a Mosquitto can run beside it."""


class ConfigModel(BaseModel):
    """Base of every config model: unknown keys are errors, values immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


M = TypeVar("M", bound=ConfigModel)
P = TypeVar("P", str, Path)

CONFIG_DIR = "config_dir"
"""The key of the validation context that holds the config file's folder."""


def in_config_dir(path: P, info: ValidationInfo) -> P:
    """``path`` taken from the folder of the config file being validated (``CONFIG_DIR``
    in the validation context) when it is relative; as it is when absolute, or when no
    file is being read (defaults, a dict built in code). Returns the type it was given.

    >>> class Files(ConfigModel):
    ...     deck: ConfigPath
    >>> parse_config(Files, {"deck": "deck.toml"}, source="x", config_dir=Path("/etc/fw")).deck
    PosixPath('/etc/fw/deck.toml')
    >>> parse_config(Files, {"deck": "/srv/deck.toml"}, source="x", config_dir=Path("/etc")).deck
    PosixPath('/srv/deck.toml')
    >>> parse_config(Files, {"deck": "deck.toml"}, source="inline").deck
    PosixPath('deck.toml')
    """
    if "\x00" in str(path):  # no file has such a name: open() raises ValueError
        raise ValueError("a path cannot contain a NUL character")
    base = info.context.get(CONFIG_DIR) if isinstance(info.context, dict) else None
    if base is None or Path(path).is_absolute():
        return path
    joined = Path(base) / path
    return joined if isinstance(path, Path) else type(path)(joined)


ConfigPath = Annotated[Path, AfterValidator(in_config_dir)]
"""A path a config file names: a relative one is taken from the config file's folder."""


def parse_config(
    model: type[M], data: dict[str, Any], *, source: str, config_dir: Path | None = None
) -> M:
    """Validate a dict into ``model``; errors name ``source`` and each bad key. Relative
    paths (:data:`ConfigPath` fields) are taken from ``config_dir`` when given."""
    try:
        return model.model_validate(data, context={CONFIG_DIR: config_dir})
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
            key = ".".join(str(p) for p in err["loc"]) or "(top level)"
            lines.append(f"  {key}: {err['msg']}")
        raise ConfigError(f"{source}: invalid configuration\n" + "\n".join(lines)) from None


def config_for_command(
    model: type[M],
    prog: str,
    argv: list[str],
    description: str,
    *,
    check: Callable[[M], list[str]] | None = None,
) -> M | int:
    """The shared start of ``feltwire hub|node|bridge``: ``--config``, ``--check-config``
    and the log options (:func:`command_start`, which also gives the parsed options)."""
    started = command_start(model, prog, argv, description, check=check)
    return started if isinstance(started, int) else started[0]


def command_start(
    model: type[M],
    prog: str,
    argv: list[str],
    description: str,
    *,
    check: Callable[[M], list[str]] | None = None,
    options: Callable[[argparse.ArgumentParser], None] | None = None,
) -> tuple[M, argparse.Namespace] | int:
    """The shared start of ``feltwire hub|node|bridge``: ``--config``, ``--check-config``,
    ``--log-level`` and ``--log-json`` (:mod:`feltwire.logs`), and what ``options`` adds
    to the command line.

    Returns the validated config with the parsed options, or the exit code when the
    process should stop here (0 after ``--check-config`` on a valid file, 2 when the
    config is invalid). ``check`` looks past the model at what the config names (files,
    decks): it returns one line per thing it checked, printed by ``--check-config``, and
    raises ConfigError on a problem — at every start, not only with ``--check-config``.
    Logging is set up for a long-running process (:func:`feltwire.logs.setup_logging`).
    """
    from feltwire.logs import add_log_options, setup_logging

    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--config", type=Path, help="TOML config (default: built-in defaults)")
    parser.add_argument("--check-config", action="store_true", help="validate the config and exit")
    add_log_options(parser)
    if options is not None:
        options(parser)
    args = parser.parse_args(argv)
    try:
        config = load_config(model, args.config)
        checked = check(config) if check is not None else []
    except ConfigError as exc:
        print(f"{prog}: {exc}")
        return 2
    if args.check_config:
        print(f"{args.config or 'defaults'}: configuration is valid")
        for line in checked:
            print(f"  checked {line}")
        return 0
    setup_logging(args.log_level, json=args.log_json)
    return config, args


def load_command_config(model: type[M], path: Path | str | None, prog: str) -> M | int:
    """:func:`load_config` for a command line: the config, or the exit code 2 after
    printing ``prog: what is wrong`` on stderr."""
    try:
        return load_config(model, path)
    except ConfigError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2


def load_config(model: type[M], path: Path | str | None) -> M:
    """Load ``path`` (TOML) into ``model``; ``None`` gives the model's defaults. Relative
    paths in it are taken from its folder (:func:`in_config_dir`)."""
    if path is None:
        return parse_config(model, {}, source="defaults")
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{p}: no such config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigError(f"{p}: cannot read it ({why})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: not valid TOML: {exc}") from None
    # absolute(), not resolve(): the folder the path names, even through a symlink
    return parse_config(model, data, source=str(p), config_dir=p.absolute().parent)


CREDENTIALS_DIRECTORY = "CREDENTIALS_DIRECTORY"
"""The variable systemd sets to the directory of a unit's credentials (``LoadCredential=``)."""

SECRET_FILE_HELP = (
    "a relative name is looked up in $CREDENTIALS_DIRECTORY when systemd sets it "
    "(LoadCredential=), else in the config file's folder"
)
"""How a ``*_file`` secret's path is found (for the fields' descriptions)."""


def secret_path(
    path: str | Path,
    environ: Mapping[str, str] | None = None,
    config_dir: Path | None = None,
) -> Path:
    """Where the secret file ``path`` of a config lies: a relative name in
    ``$CREDENTIALS_DIRECTORY`` when systemd set it (``LoadCredential=``), else in the
    config file's folder (``config_dir``; as given when no file is being read).

    >>> str(secret_path("mqtt-password", {"CREDENTIALS_DIRECTORY": "/run/credentials/x"}))
    '/run/credentials/x/mqtt-password'
    >>> str(secret_path("/etc/feltwire/pw", {"CREDENTIALS_DIRECTORY": "/run/credentials/x"}))
    '/etc/feltwire/pw'
    >>> str(secret_path("mqtt-password", {}, config_dir=Path("/etc/feltwire")))
    '/etc/feltwire/mqtt-password'
    """
    p = Path(path)
    if p.is_absolute():
        return p
    credentials = (os.environ if environ is None else environ).get(CREDENTIALS_DIRECTORY, "")
    if credentials:
        return Path(credentials) / p
    return p if config_dir is None else config_dir / p


def config_dir_of(info: ValidationInfo) -> Path | None:
    """The folder of the config file being validated (None: no file is being read)."""
    base = info.context.get(CONFIG_DIR) if isinstance(info.context, dict) else None
    return None if base is None else Path(base)


def read_secret_file(path: str | Path, key: str, config_dir: Path | None = None) -> str:
    """The secret in the file ``path`` (found by :func:`secret_path`) without its trailing
    line break; ValueError naming ``key`` and the file when it is missing, unreadable or
    empty (a config error before the service starts)."""
    where = secret_path(path, config_dir=config_dir)
    looked = ""
    if not Path(path).is_absolute():
        credentials = os.environ.get(CREDENTIALS_DIRECTORY, "")
        folder = config_dir if config_dir is not None else Path.cwd()
        looked = (
            f" (looked in $CREDENTIALS_DIRECTORY = {credentials}: is it loaded by the unit's "
            "LoadCredential=?)"
            if credentials
            else f" (relative to {folder}; $CREDENTIALS_DIRECTORY is not set)"
        )
    try:
        text = where.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"{key} = {str(path)!r}: no such file {where}{looked}") from None
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise ValueError(f"{key} = {str(path)!r}: cannot read {where} ({why})") from None
    secret = text.removesuffix("\n").removesuffix("\r")
    if not secret:
        raise ValueError(f"{key} = {str(path)!r}: {where} is empty")
    return secret


class MqttUrl(ConfigModel):
    """A broker address split from ``mqtt://user:pass@host:port`` (``mqtts://`` for TLS)."""

    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password: str | None = Field(None, repr=False)


def parse_mqtt_url(url: str) -> MqttUrl:
    """Split an MQTT URL; ports default to 1883 (``mqtt``) and 8883 (``mqtts``).

    >>> parse_mqtt_url("mqtt://node1:pw@10.0.0.2:1884").port
    1884
    """
    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts"):
        raise ValueError(f"broker URL must start with mqtt:// or mqtts://, not {url!r}")
    if not parts.hostname:
        raise ValueError(f"broker URL has no host: {url!r}")
    tls = parts.scheme == "mqtts"
    return MqttUrl(
        host=parts.hostname,
        port=parts.port or (8883 if tls else 1883),
        tls=tls,
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
    )


BrokerUrls = str | list[str]
"""``[mqtt] url``: one broker URL, or a list of them (the nodes of a broker cluster)."""

URL_HELP = (
    "broker URL (mqtt:// or mqtts://), or a list of them — the nodes of a broker cluster, "
    "connected to in turn: the next when one fails (same scheme and user in each; "
    "password_file and the TLS files apply to all)"
)
"""What ``[mqtt] url`` takes (for the fields' descriptions)."""


def parse_mqtt_urls(urls: BrokerUrls) -> list[MqttUrl]:
    """Split one broker URL or a list of them; ValueError naming the problem when the
    list is empty, names a broker twice, or mixes schemes or users — a client speaks TLS
    or not, and proves one identity (one ``password_file``), whichever broker it is on.

    >>> [a.port for a in parse_mqtt_urls(["mqtt://u@10.0.0.2:1883", "mqtt://u@10.0.0.3:1883"])]
    [1883, 1883]
    >>> parse_mqtt_urls(["mqtt://10.0.0.2", "mqtts://10.0.0.3"])
    Traceback (most recent call last):
    ...
    ValueError: the broker URLs mix mqtt:// and mqtts:// (TLS to every broker of a list, or none)
    """
    listed = [urls] if isinstance(urls, str) else list(urls)
    if not listed:
        raise ValueError("the list of broker URLs is empty: give at least one")
    addresses = [parse_mqtt_url(url) for url in listed]
    first = addresses[0]
    seen: set[tuple[str, int]] = set()
    for url, address in zip(listed, addresses, strict=True):
        where = (address.host.lower(), address.port)
        if where in seen:
            raise ValueError(f"broker {address.host}:{address.port} is listed twice ({url!r})")
        seen.add(where)
        if address.tls != first.tls:
            raise ValueError(
                "the broker URLs mix mqtt:// and mqtts:// (TLS to every broker of a list, or none)"
            )
        if (address.username, address.password) != (first.username, first.password):
            raise ValueError(
                "the broker URLs name different users or passwords: every broker of a list "
                "takes the same credential (the first URL's)"
            )
    return addresses


def broker_name(address: MqttUrl) -> str:
    """A broker as logs and ``--check-config`` name it: scheme, user, host and port —
    never the password.

    >>> broker_name(parse_mqtt_url("mqtts://pi1:secret@10.0.0.2"))
    'mqtts://pi1@10.0.0.2:8883'
    """
    user = f"{address.username}@" if address.username else ""
    host = f"[{address.host}]" if ":" in address.host else address.host
    return f"{'mqtts' if address.tls else 'mqtt'}://{user}{host}:{address.port}"


FileT = TypeVar("FileT", str, Path)


class MqttClientBase(ConfigModel, Generic[FileT]):
    """What the settings of every MQTT client (a node's, a bridge's, the hub's) have: the
    broker ``url`` — one, or a list of a cluster's brokers (checked when given) —, the
    keep-alive, and the TLS files, which need mqtts://. ``FileT`` is the type of the file
    fields (``Path`` in the hub's)."""

    _TLS_FILES_HINT: ClassVar[str] = ""
    """Said after "ca_file, cert_file and key_file need an mqtts:// url"."""

    url: BrokerUrls | None = Field(None, description=URL_HELP)
    keepalive: int = Field(15, ge=5, le=600, description="MQTT keep-alive in seconds")
    ca_file: FileT | None = Field(
        None,
        description="CA certificate that signed the broker's (mqtts://); unset = the system CAs",
    )
    cert_file: FileT | None = Field(
        None, description="this client's certificate, for a broker that requires mutual TLS"
    )
    key_file: FileT | None = Field(None, description="the private key of cert_file")
    password_file: FileT | None = Field(
        None,
        description="a file holding the password of the url's user, kept out of the config "
        "(the url then names only the user: mqtt://USER@host); " + SECRET_FILE_HELP,
    )
    _file_password: str | None = PrivateAttr(None)

    @field_validator("ca_file", "cert_file", "key_file")
    @classmethod
    def _files_in_config_dir(cls, path: FileT | None, info: ValidationInfo) -> FileT | None:
        return None if path is None else in_config_dir(path, info)

    @field_validator("url")
    @classmethod
    def _url_valid(cls, url: BrokerUrls | None) -> BrokerUrls | None:
        if url is not None:
            parse_mqtt_urls(url)
        return url

    @property
    def urls(self) -> list[str]:
        """The broker URLs, in the order they are tried (empty without a url)."""
        if self.url is None:
            return []
        return [self.url] if isinstance(self.url, str) else list(self.url)

    @model_validator(mode="after")
    def _tls_files_consistent(self) -> Self:
        if (self.cert_file is None) != (self.key_file is None):
            raise ValueError("cert_file and key_file go together")
        if (self.ca_file or self.cert_file) and (
            self.url is None or not parse_mqtt_urls(self.url)[0].tls
        ):
            raise ValueError(
                "ca_file, cert_file and key_file need an mqtts:// url" + self._TLS_FILES_HINT
            )
        return self

    @model_validator(mode="after")
    def _password_file_read(self, info: ValidationInfo) -> Self:
        if self.password_file is None:
            return self
        address = parse_mqtt_urls(self.url)[0] if self.url is not None else None
        if address is None or address.username is None:
            raise ValueError(
                "password_file holds the password of the url's user: name the user in the "
                "url (mqtt://USER@host:port)"
            )
        if address.password is not None:
            raise ValueError(
                "the url carries a password and password_file gives one: keep password_file "
                "and write the url without ':password'"
            )
        self._file_password = read_secret_file(
            self.password_file, "password_file", config_dir_of(info)
        )
        return self

    @property
    def addresses(self) -> list[MqttUrl]:
        """Every broker of ``url``, in order, split into host, port, TLS and credentials
        (the password from ``password_file`` when it is given); empty without a url."""
        if self.url is None:
            return []
        addresses = parse_mqtt_urls(self.url)
        if self._file_password is not None:
            update = {"password": self._file_password}
            return [address.model_copy(update=update) for address in addresses]
        return addresses

    @property
    def address(self) -> MqttUrl | None:
        """The first broker of ``url`` (:attr:`addresses`); None without a url."""
        addresses = self.addresses
        return addresses[0] if addresses else None

    def broker_lines(self) -> list[str]:
        """One line per broker, for ``--check-config``: ``broker 1 of 3:
        mqtt://user@host:port`` (never a password)."""
        addresses = self.addresses
        if len(addresses) == 1:
            return [f"broker {broker_name(addresses[0])}"]
        n = len(addresses)
        return [f"broker {i} of {n}: {broker_name(a)}" for i, a in enumerate(addresses, 1)]


class MqttClientSettings(MqttClientBase[str]):
    """How a node or bridge reaches the broker."""

    url: BrokerUrls = Field(
        f"mqtt://127.0.0.1:{EMBEDDED_BROKER_PORT}",
        description=URL_HELP + "; the default is a hub's embedded broker on this machine",
    )

    @property
    def address(self) -> MqttUrl:
        """The first broker of ``url`` split into host, port, TLS and credentials
        (``password_file``'s too)."""
        address = super().address
        assert address is not None  # url has a default
        return address


class CountersSettings(ConfigModel):
    """How a node or a bridge shows its counters (``[counters]``): a Prometheus
    ``/metrics`` endpoint of its own (:mod:`feltwire.counters`), and a log line."""

    metrics_port: int | None = Field(
        None,
        ge=0,
        le=65535,
        description="port of this process's Prometheus /metrics endpoint; unset = none",
    )
    metrics_host: str = Field(
        "127.0.0.1",
        description="address the /metrics endpoint binds (it has no access rule: keep it "
        "on loopback or a management network)",
    )
    log_seconds: float = Field(
        300,
        ge=0,
        description="the counters are logged this often (0 = only when the process stops)",
    )


__all__ = [
    "CONFIG_DIR",
    "CREDENTIALS_DIRECTORY",
    "EMBEDDED_BROKER_PORT",
    "URL_HELP",
    "BrokerUrls",
    "ConfigModel",
    "ConfigPath",
    "CountersSettings",
    "MqttClientBase",
    "MqttClientSettings",
    "MqttUrl",
    "broker_name",
    "command_start",
    "config_dir_of",
    "config_for_command",
    "in_config_dir",
    "load_config",
    "parse_config",
    "parse_mqtt_url",
    "parse_mqtt_urls",
    "read_secret_file",
    "secret_path",
]
