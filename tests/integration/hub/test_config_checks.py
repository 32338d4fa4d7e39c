"""Issue 12, item 11: ``feltwire hub --check-config`` (the units' ExecStartPre) and every
start check what the config names — each table's deck (complete for its game, no uid or
card twice, uids case-insensitive, valid codes), repeated readers, a short producer
token, the users file and the TLS files — with a message that names the file, the line or
key and the problem; ``feltwire deck register`` writes 0600; the start banner prints no
producer token."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from feltwire.config import parse_config
from feltwire.deck import dump_deck, simulated_deck
from feltwire.errors import ConfigError, DeckError
from hub.bootstrap import start_hub
from hub.cli import certs
from hub.cli.hub import check_files, main
from hub.config import HubConfig
from tests.support.commands import run_cli
from tests.support.mosquitto import MosquittoProcess
from tests.support.registration_pad import registration_pad

ROOT = Path(__file__).resolve().parents[3]
DECK_TEXT = dump_deck(simulated_deck())
UID_2C, UID_2D = simulated_deck().uid_for("2c"), simulated_deck().uid_for("2d")
THREE_C = '= "3c"'


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if needle in line)


def without_7h(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if '"7h"' not in line)


BAD_DECKS: dict[str, tuple[Callable[[str], str], str]] = {
    "a card missing": (without_7h, "has 51 cards; 7h is missing"),
    "a uid twice, in another case": (
        lambda t: t.replace(f"{UID_2C} =", f"{UID_2D.lower()} ="),
        f"line {line_of(DECK_TEXT, UID_2D)}: tag {UID_2D} is given twice (also line "
        f"{line_of(DECK_TEXT, UID_2C)} as {UID_2D.lower()}; uids are case-insensitive)",
    ),
    "a card twice": (
        lambda t: t.replace(THREE_C, '= "2c"'),
        f"line {line_of(DECK_TEXT, THREE_C)}: card 2c is given twice",
    ),
    "a bad card code": (
        lambda t: t.replace(THREE_C, '= "3x"'),
        f"line {line_of(DECK_TEXT, THREE_C)}: tag {simulated_deck().uid_for('3c')}: not a card "
        "code: '3x'",
    ),
    "a bad uid": (
        lambda t: t.replace(f"{UID_2C} =", "04ZZ ="),
        f"line {line_of(DECK_TEXT, UID_2C)}: '04ZZ' is not a tag uid",
    ),
}


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def check_config(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``feltwire hub --config PATH --check-config`` in this process: exit code, output."""
    capsys.readouterr()
    code = main(["--config", str(path), "--check-config"])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("kind", list(BAD_DECKS))
def test_a_bad_deck_fails_check_config_naming_file_line_and_problem(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    change, message = BAD_DECKS[kind]
    deck = write(tmp_path / "red1.toml", change(DECK_TEXT))
    hub_toml = write(tmp_path / "hub.toml", f'deck = "{deck}"\n')
    code, out = check_config(hub_toml, capsys)
    assert code == 2, out
    assert f"deck {deck}" in out and message in out, out


def test_a_missing_deck_and_each_tables_deck_are_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path / "red1.toml", DECK_TEXT)
    short = write(tmp_path / "blue1.toml", without_7h(DECK_TEXT))
    hub_toml = write(
        tmp_path / "hub.toml",
        f'[[tables]]\ntable = "red"\ndeck = "{good}"\n'
        f'[[tables]]\ntable = "blue"\ndeck = "{short}"\n'
        f'[[tables]]\ntable = "green"\ndeck = "{tmp_path / "none.toml"}"\n',
    )
    code, out = check_config(hub_toml, capsys)
    assert code == 2
    assert f"table blue: deck {short} has 51 cards; 7h is missing" in out, out
    assert f"table green: deck {tmp_path / 'none.toml'}: no such deck file" in out, out
    assert "table red" not in out  # the good deck is no problem
    hub_toml.write_text(
        f'[[tables]]\ntable = "red"\ndeck = "{good}"\n[[tables]]\ntable = "blue"\ngame = "PO"\n'
    )
    code, out = check_config(hub_toml, capsys)
    assert code == 0, out
    assert f"checked table red: deck {good}, 52 cards, every card of Texas hold'em" in out
    assert "checked table blue: the simulator's built-in deck" in out


def test_the_hub_refuses_to_start_on_a_51_card_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = write(tmp_path / "red1.toml", without_7h(DECK_TEXT))
    config = HubConfig.model_validate({"deck": str(deck), "web": {"port": 0}})
    with pytest.raises(ConfigError, match="has 51 cards; 7h is missing"):
        check_files(config)
    # `feltwire hub` without --check-config stops before it starts anything
    capsys.readouterr()
    assert main(["--config", str(write(tmp_path / "hub.toml", f'deck = "{deck}"\n'))]) == 2
    assert "7h is missing" in capsys.readouterr().out


async def test_start_hub_itself_refuses_an_incomplete_deck(tmp_path: Path) -> None:
    deck = write(tmp_path / "red1.toml", without_7h(DECK_TEXT))
    config = HubConfig.model_validate(
        {"deck": str(deck), "mqtt": {"embedded_port": 0}, "web": {"port": 0}}
    )
    with pytest.raises(DeckError, match="7h is missing"):
        await start_hub(config)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"readers": ["seat1", "board", "seat1"]}, r"readers: .*seat1 listed more than once"),
        (
            {"tables": [{"table": "a", "readers": ["burn", "burn"]}]},
            r"tables\.0\.readers: .*burn listed more than once",
        ),
        ({"web": {"producer_token": "x"}}, r"web\.producer_token: .*at least 16 characters"),
        ({"game": "XX"}, r"game: .*unknown game 'XX'"),
        ({"tables": [{"table": "a", "game": "XX"}]}, r"tables\.0\.game: .*unknown game"),
        ({"web": {"users_file": "/nonexistent/users.toml"}}, "no such users file"),
    ],
)
def test_bad_config_values_are_refused(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config(HubConfig, data, source="hub.toml")


def test_tls_files_are_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ca = tmp_path / "ca"
    run_cli(certs.main, ["init", "--out", str(ca)])
    run_cli(certs.main, ["server", "--ca", str(ca), "--host", "localhost"])
    run_cli(certs.main, ["client", "--ca", str(ca), "--name", "table1-hub"])
    ca_cert, server_cert = ca / "ca.crt", ca / "server.crt"
    hub_cert, hub_key = ca / "table1-hub.crt", ca / "table1-hub.key"
    missing = tmp_path / "nope.crt"
    hub_toml = write(
        tmp_path / "hub.toml", f'[mqtt]\nurl = "mqtts://h:8883"\nca_file = "{missing}"\n'
    )
    code, out = check_config(hub_toml, capsys)
    assert code == 2 and f"[mqtt] ca_file: {missing}: no such file" in out, out
    # a certificate with somebody else's key
    hub_toml.write_text(
        f'[mqtt]\nurl = "mqtts://h:8883"\nca_file = "{ca_cert}"\n'
        f'cert_file = "{server_cert}"\nkey_file = "{hub_key}"\n'
    )
    code, out = check_config(hub_toml, capsys)
    assert code == 2 and "[mqtt] cert_file" in out and "not a certificate and its key" in out
    # a private key everyone may read
    key = tmp_path / "hub.key"
    key.write_bytes(hub_key.read_bytes())
    key.chmod(0o644)
    hub_toml.write_text(
        f'[mqtt]\nurl = "mqtts://h:8883"\nca_file = "{ca_cert}"\n'
        f'cert_file = "{hub_cert}"\nkey_file = "{key}"\n'
    )
    code, out = check_config(hub_toml, capsys)
    assert code == 2 and f"the private key {key} is readable by everyone" in out, out
    key.chmod(0o600)
    code, out = check_config(hub_toml, capsys)
    assert code == 0, out
    assert f"checked [mqtt] ca_file {ca_cert}" in out
    assert f"checked [mqtt] cert_file {hub_cert} with its key {key}" in out


def test_check_config_prints_what_it_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = write(tmp_path / "red1.toml", DECK_TEXT)
    users = write(tmp_path / "users.toml", "")
    hub_toml = write(tmp_path / "hub.toml", f'deck = "{deck}"\n[web]\nusers_file = "{users}"\n')
    code, out = check_config(hub_toml, capsys)
    assert code == 0, out
    assert out.splitlines() == [
        f"{hub_toml}: configuration is valid",
        f"  checked table table1: deck {deck}, 52 cards, every card of Texas hold'em",
        f"  checked [web] users_file {users}: 0 users",
        "  checked embedded broker on 127.0.0.1:18830: open (anonymous, plain TCP) — loopback only",
    ]


def test_deck_register_writes_its_files_0600(mosquitto: MosquittoProcess, tmp_path: Path) -> None:
    """An interrupted registration saves the cards so far (a partial deck): 0600 like the
    deck itself, also where an older, world-readable file lay."""
    out = tmp_path / "red1.toml"
    partial = out.with_suffix(".partial.toml")
    partial.write_text("old\n")
    partial.chmod(0o644)
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "feltwire", "deck", "register", "--out", str(out),
            "--mqtt", mosquitto.url, "--table", "t1", "--timeout", "3",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    with registration_pad(mosquitto.url) as pad:
        assert proc.stdout is not None
        assert "Ace of spades" in proc.stdout.readline()  # listening
        time.sleep(0.3)
        for uid in ("04A1B2C3D4E5F6", "04A1B2C3D4E5F7"):
            pad.place(uid)
            time.sleep(0.05)
            pad.clear()
            time.sleep(0.05)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 1 and "2 cards so far saved" in err, err
    assert partial.stat().st_mode & 0o777 == 0o600
    assert "As" in partial.read_text()


def test_the_start_banner_prints_no_producer_token(tmp_path: Path) -> None:
    state = tmp_path / "state"
    hub_toml = write(
        tmp_path / "hub.toml",
        f'state_dir = "{state}"\n[mqtt]\nembedded_port = 0\n[web]\nport = 0\n',
    )
    banner = run_hub_until_banner(hub_toml)
    token_file = state / "producer-token"
    token = token_file.read_text().strip()
    assert len(token) >= 16 and token_file.stat().st_mode & 0o777 == 0o600
    assert token not in banner, banner
    assert str(token_file) in banner and "feltwire web-token" in banner, banner
    # a configured token is not printed either
    configured = "configured-producer-token-0123"
    hub_toml.write_text(hub_toml.read_text() + f'producer_token = "{configured}"\n')
    banner = run_hub_until_banner(hub_toml)
    assert configured not in banner and "token=" not in banner, banner
    assert "[web] producer_token of the config (not shown)" in banner


def run_hub_until_banner(hub_toml: Path) -> str:
    """Start ``feltwire hub``, read its banner (up to the broker line), stop it."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "feltwire", "hub", "--config", str(hub_toml)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("broker"):
                break
    finally:
        proc.terminate()
        try:
            rest, _ = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:  # a stop that hangs is not what this test checks
            proc.kill()
            rest, _ = proc.communicate()
    return "".join(lines) + (rest or "")
