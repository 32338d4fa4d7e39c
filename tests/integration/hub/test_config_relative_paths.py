"""Relative paths in a config file are taken from that file's folder, not from the working
directory: a config in one folder, started from another (as systemd, a shell in $HOME or
a cron job does), finds its deck, users file, TLS files and state directory beside it.

``feltwire hub --check-config`` runs as a real process started in another folder; the
node's and bridge's configs are loaded as their commands load them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from feltwire.config import load_config
from feltwire.deck import simulated_deck, write_deck
from firmware_bridge.config import BridgeConfig
from hub.config import HubConfig
from hub.security.users import WebUser, hash_web_password, write_users_file
from table_node.config import NodeConfig


@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """The config's folder (``club/``) and another folder the process starts in."""
    club, elsewhere = tmp_path / "club", tmp_path / "elsewhere"
    club.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    return club, elsewhere


def test_hub_check_config_from_another_folder_finds_the_deck_and_users_beside_it(
    folders: tuple[Path, Path],
) -> None:
    club, elsewhere = folders
    write_deck(simulated_deck(), club / "deck.toml")
    write_users_file(
        club / "users.toml",
        [WebUser(name="dana", role="dealer", password_hash=hash_web_password("pw-dana-123"))],
    )
    (club / "hub.toml").write_text(
        'deck = "deck.toml"\nstate_dir = "state"\n\n[web]\nusers_file = "users.toml"\n'
    )
    hub_toml = str(club / "hub.toml")
    done = subprocess.run(
        [sys.executable, "-m", "feltwire", "hub", "--config", hub_toml, "--check-config"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"deck {club / 'deck.toml'}, 52 cards" in done.stdout, done.stdout
    assert f"{club / 'users.toml'}" in done.stdout, done.stdout

    config = load_config(HubConfig, club / "hub.toml")
    assert config.state_dir == club / "state"
    assert config.deck == club / "deck.toml"
    assert config.web.users_file == club / "users.toml"


def test_a_relative_path_in_a_config_named_relatively_is_taken_from_its_folder(
    folders: tuple[Path, Path],
) -> None:
    club, elsewhere = folders
    (club / "hub.toml").write_text(
        'state_dir = "state"\n\n[[tables]]\ntable = "t2"\ndeck = "decks/red.toml"\n\n'
        '[mqtt]\nembedded_password_file = "passwords"\nembedded_acl_file = "/etc/acl"\n'
    )
    config = load_config(HubConfig, Path("../club/hub.toml"))
    assert config.state_dir == elsewhere / "../club/state"
    assert config.state_dir.resolve() == (club / "state").resolve()
    assert [t.deck for t in config.table_configs()] == [elsewhere / "../club/decks/red.toml"]
    assert config.mqtt.embedded_password_file == elsewhere / "../club/passwords"
    assert config.mqtt.embedded_acl_file == Path("/etc/acl")  # absolute: as written


def test_node_and_bridge_state_dirs_and_tls_files_are_taken_from_the_configs_folder(
    folders: tuple[Path, Path],
) -> None:
    club, _ = folders
    (club / "node.toml").write_text(
        'state_dir = "node-state"\n\n[mqtt]\nurl = "mqtts://hub.local:8883"\n'
        'ca_file = "ca/ca.crt"\ncert_file = "ca/pi1.crt"\nkey_file = "ca/pi1.key"\n'
    )
    node = load_config(NodeConfig, club / "node.toml")
    assert node.state_dir == club / "node-state"
    assert node.mqtt.ca_file == str(club / "ca/ca.crt")
    assert (node.mqtt.cert_file, node.mqtt.key_file) == (
        str(club / "ca/pi1.crt"),
        str(club / "ca/pi1.key"),
    )

    (club / "bridge.toml").write_text('state_dir = "bridge-state"\n[antennas]\n0 = "seat1"\n')
    bridge = load_config(BridgeConfig, club / "bridge.toml")
    assert bridge.state_dir == club / "bridge-state"


def test_a_config_built_in_code_keeps_its_relative_paths() -> None:
    """No file, no folder to take them from: defaults and dicts stay as given."""
    assert HubConfig.model_validate({"deck": "deck.toml"}).deck == Path("deck.toml")
