"""Issue 18's first acceptance point, as a user runs it: ``feltwire demo --hands 50
--state-dir DIR``, then ``feltwire history export --state-dir DIR`` in the three formats.
PokerKit loads the PHH file and replays every hand to the finishing stacks the file and
the store hold; every OHH document is valid against the Open Hand History schema;
PokerKit's own PokerStars parser reads the hold'em text to the same players, actions,
board and results as the PHH file."""

from __future__ import annotations

import contextlib
import json
import logging
import re
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from hub.adapters.hands import schema
from hub.adapters.hands.store import HANDS_FILE, HandStore, sqlite_url
from tests.integration.hands.test_store import rows

ROOT = Path(__file__).resolve().parents[3]
OHH_SCHEMA = json.loads((ROOT / "docs" / "schemas" / "ohh.schema.json").read_text())
HANDS = 50
PLAY = re.compile(r"^(p\d+ (f|cc|cbr \d+)|d db \S+)$")
"""The actions both files must share: the players' and the board's (hole cards and shows
differ by perspective and by how each format records an all-in's reveal)."""


def feltwire(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "feltwire", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A state directory after ``feltwire demo --hands 50``."""
    state = tmp_path_factory.mktemp("demo") / "state"
    out = feltwire("demo", "--hands", str(HANDS), "--seed", "18", "--mistakes", "0",
                   "--state-dir", str(state))  # fmt: skip
    summary = json.loads(out.splitlines()[0])
    assert summary["hands"] == HANDS and summary["complete"]
    yield state


def export(state: Path, fmt: str, out: Path) -> dict[str, Any]:
    said = feltwire("history", "export", "--format", fmt, "--state-dir", str(state),
                    "--out", str(out), "--json")  # fmt: skip
    counts: dict[str, Any] = json.loads(said)
    return counts


@contextlib.contextmanager
def quiet_pokerkit() -> Iterator[None]:
    """PokerKit's parsers warn and log about what they guess; the test reads results."""
    logging.disable(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        logging.disable(logging.NOTSET)


def finishing_stacks(state: Path) -> list[list[int]]:
    """The store's finishing stacks of each hand, in hand order, seats in PHH order."""
    store = HandStore.open(sqlite_url(state / HANDS_FILE))
    try:
        hands = sorted(rows(store, schema.hands), key=lambda h: h["number"])
        assert [h["number"] for h in hands] == list(range(1, HANDS + 1))
        assert not any(h["voided"] for h in hands)
        seats = [sorted(rows(store, schema.hand_seats, hand_id=h["id"]),
                        key=lambda s: s["position"]) for h in hands]  # fmt: skip
        return [[s["finishing_stack"] for s in hand] for hand in seats]
    finally:
        store.close()


def test_demo_hands_exported_as_phh_replay_in_pokerkit(night: Path, tmp_path: Path) -> None:
    notation = pytest.importorskip("pokerkit.notation")
    out = tmp_path / "night.phhs"
    assert export(night, "phh", out)["hands"] == HANDS
    with quiet_pokerkit():
        read = list(notation.HandHistory.loads_all(out.read_text()))
    assert len(read) == HANDS
    stored = finishing_stacks(night)
    for number, (hh, expected) in enumerate(zip(read, stored, strict=True), start=1):
        replayed = list(list(hh)[-1].stacks)
        assert replayed == list(hh.finishing_stacks) == expected, f"hand {number}"
        assert sum(hh.starting_stacks) == sum(replayed), f"hand {number}: chips made or lost"


def test_demo_hands_exported_as_ohh_are_valid(night: Path, tmp_path: Path) -> None:
    out = tmp_path / "night.ohh"
    assert export(night, "ohh", out)["hands"] == HANDS
    docs = [json.loads(chunk) for chunk in out.read_text().split("\n\n")]
    assert len(docs) == HANDS
    for doc in docs:
        jsonschema.validate(doc, OHH_SCHEMA)
    numbers = [int(d["ohh"]["game_number"].rsplit("-", 1)[-1]) for d in docs]
    assert numbers == list(range(1, HANDS + 1))


def test_demo_holdem_as_pokerstars_reads_back_to_the_same_hands(
    night: Path, tmp_path: Path
) -> None:
    notation = pytest.importorskip("pokerkit.notation")
    ps, phh = tmp_path / "night.txt", tmp_path / "night.phhs"
    assert export(night, "pokerstars", ps)["hands"] == HANDS
    export(night, "phh", phh)
    texts = ps.read_text().split("\n\n\n")
    assert len(texts) == HANDS
    with quiet_pokerkit():
        parsed = [list(notation.PokerStarsParser()(t)) for t in texts]
        written = list(notation.HandHistory.loads_all(phh.read_text()))
    for number, (got, want) in enumerate(zip(parsed, written, strict=True), start=1):
        assert len(got) == 1, f"hand {number}: PokerKit read {len(got)} hands"
        hh = got[0]
        assert list(hh.players) == list(want.players), f"hand {number}"
        assert list(hh.starting_stacks) == list(want.starting_stacks), f"hand {number}"
        plays = [a for a in hh.actions if PLAY.match(a)]
        assert plays == [a for a in want.actions if PLAY.match(a)], f"hand {number}"
        assert list(list(hh)[-1].stacks) == list(want.finishing_stacks), f"hand {number}"
