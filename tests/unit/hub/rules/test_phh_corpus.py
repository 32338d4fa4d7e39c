"""Replay the real hands in data/phh and compare with the recorded finishing stacks.

* 83 WSOP 2023 Event #43 hands (all nine games): every finishing stack exact.
* 5 famous hands (no finishing stacks recorded): they replay, and the pot goes to the
  player history says won it.
* 10,000 Pluribus hands: exact, except 8 hands whose files record an odd-chip split as
  half chips (e.g. ``10112.5``). Whole chips cannot do that (R-POT-2): the engine gives
  the odd chip to the first winner left of the button (R-POT-3), so those 8 differ by
  exactly half a chip on the two winners and agree in total.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from hub.rules.phh import HandHistory, loads, replay_history

DATA = Path("/work/shared/data/phh")
pytestmark = pytest.mark.skipif(not DATA.exists(), reason="the PHH corpus is not on this machine")

WSOP = sorted((DATA / "wsop").rglob("*.phh"), key=lambda p: int(p.stem)) if DATA.exists() else []
HALF_CHIP_FILES = {
    "102/0.phh",
    "32/23.phh",
    "41b/204.phh",
    "60/88.phh",
    "75b/76.phh",
    "88/128.phh",
    "91/43.phh",
    "91/53.phh",
}


def _replayed(hh: HandHistory) -> tuple[Decimal, ...]:
    return tuple(hh.to_file_units(s) for s in replay_history(hh).stacks)


def test_the_corpus_is_complete() -> None:
    """The corpus holds 83 WSOP hands covering nine games."""
    assert len(WSOP) == 83
    variants = {loads(p.read_text()).variant for p in WSOP}
    assert variants == {"NT", "FT", "PO", "FO/8", "F7S", "F7S/8", "FR", "F2L3D", "N2L1D"}


@pytest.mark.parametrize("path", WSOP, ids=lambda p: f"wsop-{p.stem}")
def test_wsop_hand_finishing_stacks_exact(path: Path) -> None:
    """Each WSOP hand replays to its recorded finishing stacks."""
    hh = loads(path.read_text())
    assert _replayed(hh) == hh.finishing_stacks


FAMOUS = {
    # file: (seat that wins the pot, its finishing stack in file units or None)
    "dwan-ivey-2009.phh": (2, Decimal(1109500)),  # Dwan's 7h6h straight beats Ivey's Ac2d
    "antonius-blom-2009.phh": (0, Decimal("1937923.75")),  # kings up beat Blom's wrap
    "arieh-yockey-2019.phh": (3, None),  # Arieh's 7-5-4-3-2 beats Yockey's 7-6
    "phua-xuan-2019.phh": (4, None),  # short deck: Phua's trips beat Xuan's straight
    "alice-carol-wikipedia.phh": (1, None),  # badugi: Carol's 8-7-5-3 beats 9-6-4-2
}


@pytest.mark.parametrize("name", sorted(FAMOUS))
def test_famous_hand_replays(name: str) -> None:
    """The famous hands replay and the pot goes to the player who won it."""
    hh = loads((DATA / name).read_text())
    hand = replay_history(hh)
    winner, stack = FAMOUS[name]
    net = [b - a for a, b in zip(hand.starting_stacks, hand.stacks, strict=True)]
    assert max(range(hand.n), key=lambda s: net[s]) == winner
    assert sum(net) == 0
    if stack is not None:
        assert hh.to_file_units(hand.stacks[winner]) == stack


def test_pluribus_10000_hands() -> None:
    """All 10,000 Pluribus hands replay; 9,992 exactly, 8 are the half-chip splits."""
    files = sorted((DATA / "pluribus").rglob("*.phh"))
    assert len(files) == 10_000
    half: set[str] = set()
    for path in files:
        hh = loads(path.read_text())
        got = _replayed(hh)
        expected = hh.finishing_stacks
        assert expected is not None
        if got != expected:
            name = f"{path.parent.name}/{path.name}"
            assert sum(got) == sum(expected), name
            assert all(abs(g - e) <= Decimal("0.5") for g, e in zip(got, expected, strict=True))
            assert any(e % 1 == Decimal("0.5") for e in expected), name
            half.add(name)
    assert half == HALF_CHIP_FILES
