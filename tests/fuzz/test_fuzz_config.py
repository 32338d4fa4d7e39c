"""Fuzzing the files the processes read (issue 15): the hub's, node's and bridge's
config files and deck files — TOML documents shaped like their models (any subset of
the real keys, nested sections, values of any TOML type, a few that get past the type
checks), any text, any bytes — into the real loaders and the real ``--check-config``
entry points. Each gives a valid config or a ConfigError/DeckError with a message,
``--check-config`` exits 0 or 2, and nothing else is ever raised."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feltwire.cards import FULL_DECK
from feltwire.deck import load_deck
from feltwire.errors import ConfigError, DeckError
from firmware_bridge.config import BridgeConfig
from hub.config import HubConfig, default_readers
from table_node.config import NodeConfig
from tests.support.fuzz_strategies import fuzz_settings, model_documents, toml_files

ROOT = Path(__file__).resolve().parents[2]

paths = st.sampled_from(
    ["deck.toml", "users.toml", "secret", "missing", "a\x00b", ".", "/dev/null"]
)
HINTS: dict[str, st.SearchStrategy[Any]] = {
    "url": st.sampled_from(
        ["mqtt://127.0.0.1:1883", "mqtts://u@h:8883", "mqtt://u:p@h", "mqtt://u@h", "mqtt://h:0"]
    ),
    "deck": paths,
    "users_file": paths,
    "password_file": paths,
    "token_secret_file": paths,
    "ca_file": paths,
    "cert_file": paths,
    "key_file": paths,
    "state_dir": paths,
    "game": st.sampled_from(["NT", "PO", "FO/8", "F7S", "nope"]),
    "readers": st.lists(st.sampled_from([*default_readers(), "nope"]), max_size=4),
    "table": st.sampled_from(["t1", "t2", "bad table"]),
    "backend": st.sampled_from(["simulated", "rc522", "mfrc522", "light", "nope"]),
}
"""Values that get a key past its type check, so its validator runs."""

deck_documents = st.fixed_dictionaries(
    {},
    optional={
        "name": st.text(max_size=10),
        "tags": st.dictionaries(
            st.one_of(st.sampled_from(["04A1B2C3", "04a1b2c3", "x"]), st.text(max_size=20)),
            st.one_of(st.sampled_from(list(FULL_DECK)), st.text(max_size=4), st.integers()),
            max_size=6,
        ),
    },
)
full_deck = "[tags]\n" + "".join(f'"04{i:06X}" = "{c}"\n' for i, c in enumerate(FULL_DECK))


def files_beside(folder: Path, deck: bytes) -> None:
    """The files a fuzzed config may name: a (fuzzed) deck, a users file, a secret."""
    (folder / "deck.toml").write_bytes(deck)
    (folder / "users.toml").write_text("[[users]]\nname = 'x'\n")
    (folder / "secret").write_text("s3cret-s3cret-s3cret\n")


def exit_code(main: Callable[[list[str]], int], path: Path) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(["--config", str(path), "--check-config"])


def hub_main(argv: list[str]) -> int:
    from hub.cli.hub import main

    return main(argv)


def node_main(argv: list[str]) -> int:
    from table_node.main import main

    return main(argv)


def bridge_main(argv: list[str]) -> int:
    from firmware_bridge.main import main

    return main(argv)


CASES = {
    "hub": (HubConfig, hub_main),
    "node": (NodeConfig, node_main),
    "bridge": (BridgeConfig, bridge_main),
}


def config_files(name: str) -> st.SearchStrategy[bytes]:
    return toml_files(model_documents(CASES[name][0], HINTS))


@pytest.mark.parametrize("name", sorted(CASES))
def test_any_config_file_is_valid_or_a_config_error(name: str) -> None:
    _, main = CASES[name]

    @fuzz_settings(150)
    @given(
        config=config_files(name),
        deck=st.one_of(toml_files(deck_documents), st.just(full_deck.encode())),
    )
    def check(config: bytes, deck: bytes) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            files_beside(folder, deck)
            path = folder / f"{name}.toml"
            path.write_bytes(config)
            assert exit_code(main, path) in (0, 2)

    check()


@fuzz_settings(300)
@given(deck=toml_files(deck_documents), required=st.sampled_from([FULL_DECK, None]))
def test_any_deck_file_is_a_deck_or_a_deck_error(deck: bytes, required: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deck.toml"
        path.write_bytes(deck)
        try:
            loaded = load_deck(path, required=required)
        except DeckError as exc:
            assert str(exc).startswith(f"deck {path}")
        else:
            assert len(loaded) >= (52 if required else 1)


def test_load_config_errors_name_the_file(tmp_path: Path) -> None:
    from feltwire.config import load_config

    path = tmp_path / "hub.toml"
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(ConfigError, match=str(path)):
        load_config(HubConfig, path)


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("hub", b"table = 't1'\n\xff\n"),  # not UTF-8
        ("hub", b'deck = "a\\u0000b"\n'),  # a path with a NUL in it
        ("node", b"\xc3\x28"),
        ("bridge", b'state_dir = "a\\u0000b"\n'),
    ],
)
def test_the_cli_says_what_is_wrong_without_a_traceback(
    tmp_path: Path, name: str, content: bytes
) -> None:
    """Found by the fuzzer (each was a traceback, exit 1): the real command, exit 2."""
    path = tmp_path / f"{name}.toml"
    path.write_bytes(content)
    done = subprocess.run(
        [sys.executable, "-m", "feltwire", name, "--config", str(path), "--check-config"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert done.returncode == 2, done.stdout + done.stderr
    assert str(path) in done.stdout + done.stderr
