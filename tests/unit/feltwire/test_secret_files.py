"""Secrets kept out of the TOML: ``[mqtt] password_file`` (node, bridge, hub) and ``[web]
token_secret_file`` (hub), read from the file — under systemd from
``$CREDENTIALS_DIRECTORY``, where ``LoadCredential=`` puts them — and a clear config
error naming the key and the file when it is not there."""

from __future__ import annotations

from pathlib import Path

import pytest

from feltwire.config import load_config
from feltwire.errors import ConfigError
from firmware_bridge.config import BridgeConfig
from hub.cli import web_token
from hub.config import HubConfig
from hub.web.auth import TokenSigner
from table_node.config import NodeConfig
from tests.support.commands import run_cli

SECRET = "s3cret-from-a-file-0123456789"


@pytest.fixture
def credentials(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A credentials directory as systemd makes it, named in $CREDENTIALS_DIRECTORY."""
    d = tmp_path / "credentials"
    d.mkdir()
    monkeypatch.setenv("CREDENTIALS_DIRECTORY", str(d))
    return d


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


@pytest.mark.parametrize("model", [NodeConfig, BridgeConfig])
def test_a_relative_password_file_is_read_from_the_credentials_directory(
    model: type[NodeConfig] | type[BridgeConfig], tmp_path: Path, credentials: Path
) -> None:
    write(credentials / "feltwire-node-mqtt-password", SECRET + "\n")
    cfg = write(
        tmp_path / "c.toml",
        '[mqtt]\nurl = "mqtt://pi-north@10.0.0.2:1883"\n'
        'password_file = "feltwire-node-mqtt-password"\n',
    )
    address = load_config(model, cfg).mqtt.address
    assert (address.username, address.password) == ("pi-north", SECRET)  # no trailing newline
    assert SECRET not in repr(load_config(model, cfg))


def test_an_absolute_password_file_is_read_where_it_says(tmp_path: Path, credentials: Path) -> None:
    secret = write(tmp_path / "pw", SECRET)
    cfg = write(
        tmp_path / "node.toml",
        f'[mqtt]\nurl = "mqtts://pi-north@hub:8883"\npassword_file = "{secret}"\n',
    )
    assert load_config(NodeConfig, cfg).mqtt.address.password == SECRET


def test_a_missing_password_file_is_a_config_error_naming_it(
    tmp_path: Path, credentials: Path
) -> None:
    cfg = write(
        tmp_path / "node.toml",
        '[mqtt]\nurl = "mqtt://pi-north@hub:1883"\npassword_file = "feltwire-node-mqtt-password"\n',
    )
    with pytest.raises(ConfigError) as err:
        load_config(NodeConfig, cfg)
    text = str(err.value)
    assert "node.toml" in text and "password_file" in text
    assert str(credentials / "feltwire-node-mqtt-password") in text
    assert "LoadCredential=" in text


def test_without_systemd_a_relative_secret_is_looked_for_beside_the_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As every relative path of a config file: from the file's folder, not from wherever
    the process was started."""
    monkeypatch.delenv("CREDENTIALS_DIRECTORY", raising=False)
    (tmp_path / "etc").mkdir()
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    cfg = write(
        tmp_path / "etc" / "bridge.toml",
        '[mqtt]\nurl = "mqtt://b1@hub:1883"\npassword_file = "pw"\n',
    )
    write(tmp_path / "elsewhere" / "pw", "not-this-one")
    with pytest.raises(ConfigError, match="CREDENTIALS_DIRECTORY is not set") as err:
        load_config(BridgeConfig, cfg)
    assert str(tmp_path / "etc" / "pw") in str(err.value)
    write(tmp_path / "etc" / "pw", SECRET)
    assert load_config(BridgeConfig, cfg).mqtt.address.password == SECRET


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("mqtt://hub:1883", "name the user in the url"),
        ("mqtt://pi:inline@hub:1883", "the url carries a password"),
    ],
)
def test_password_file_needs_a_user_and_no_inline_password(
    tmp_path: Path, url: str, problem: str
) -> None:
    secret = write(tmp_path / "pw", SECRET)
    cfg = write(tmp_path / "node.toml", f'[mqtt]\nurl = "{url}"\npassword_file = "{secret}"\n')
    with pytest.raises(ConfigError, match=problem):
        load_config(NodeConfig, cfg)


def test_an_empty_secret_file_is_refused(tmp_path: Path, credentials: Path) -> None:
    write(credentials / "pw", "\n")
    cfg = write(tmp_path / "n.toml", '[mqtt]\nurl = "mqtt://pi@hub"\npassword_file = "pw"\n')
    with pytest.raises(ConfigError, match="is empty"):
        load_config(NodeConfig, cfg)


def test_the_hub_connects_with_password_file_s_password(tmp_path: Path, credentials: Path) -> None:
    write(credentials / "feltwire-hub-mqtt-password", SECRET)
    cfg = write(
        tmp_path / "hub.toml",
        '[mqtt]\nurl = "mqtts://table1-hub@broker:8883"\n'
        'password_file = "feltwire-hub-mqtt-password"\n',
    )
    address = load_config(HubConfig, cfg).mqtt.address
    assert address is not None and (address.username, address.password) == ("table1-hub", SECRET)


def test_the_hub_s_embedded_broker_takes_no_password_file(tmp_path: Path) -> None:
    cfg = write(tmp_path / "hub.toml", f'[mqtt]\npassword_file = "{write(tmp_path / "p", "x")}"\n')
    with pytest.raises(ConfigError, match="name the user in the url"):
        load_config(HubConfig, cfg)


def test_token_secret_file_signs_the_tokens_web_token_prints(
    tmp_path: Path, credentials: Path
) -> None:
    """What an operator does: the secret in the credential store, hub.toml naming it,
    `feltwire web-token` minting a token the hub (same secret) accepts."""
    write(credentials / "feltwire-hub-token-secret", SECRET + "\n")
    cfg = write(tmp_path / "hub.toml", '[web]\ntoken_secret_file = "feltwire-hub-token-secret"\n')
    config = load_config(HubConfig, cfg)
    secret = config.web.signing_secret
    assert secret is not None and secret.get_secret_value() == SECRET
    token = run_cli(
        web_token.main, ["--role", "producer", "--hours", "1", "--config", str(cfg)]
    ).strip()
    role, name, _ = TokenSigner(SECRET.encode()).check(token)
    assert (role.value, name) == ("producer", "producer")


@pytest.mark.parametrize(
    ("secret", "extra", "problem"),
    [
        (None, "", "no such file"),
        ("short", "", "needs at least 16"),
        (SECRET, 'token_secret = "inline-secret-0123456789"\n', "both set"),
    ],
)
def test_token_secret_file_problems_are_config_errors(
    tmp_path: Path, credentials: Path, secret: str | None, extra: str, problem: str
) -> None:
    if secret is not None:
        write(credentials / "feltwire-hub-token-secret", secret)
    cfg = write(
        tmp_path / "hub.toml", f'[web]\n{extra}token_secret_file = "feltwire-hub-token-secret"\n'
    )
    with pytest.raises(ConfigError, match=problem) as err:
        load_config(HubConfig, cfg)
    assert "token_secret" in str(err.value)
