"""``feltwire history replay``: output lines, JSON fields and exit status."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hub.cli.history import main

DATA = Path("/work/shared/data/phh")
pytestmark = pytest.mark.skipif(not DATA.exists(), reason="the PHH corpus is not on this machine")


def test_replay_json_one_line_per_hand(capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints one object per hand with the replayed finishing stacks."""
    code = main(["replay", "--json", str(DATA / "wsop/2023/43/5/1.phh")])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0
    assert rows == [
        {
            "file": str(DATA / "wsop/2023/43/5/1.phh"),
            "hand": 1,
            "finishing_stacks": [7340000, 3775000, 5110000, 8935000, 4545000],
            "expected": [7340000, 3775000, 5110000, 8935000, 4545000],
            "matches": True,
        }
    ]


def test_replay_folder_with_half_chip_split(capsys: pytest.CaptureFixture[str]) -> None:
    """A folder is searched; a half-chip split is flagged but not a failure."""
    code = main(["replay", str(DATA / "pluribus/102")])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0].startswith(f"{DATA}/pluribus/102/0.phh  ok (the file splits an odd chip")
    assert out[-1].endswith("0 mismatches, 0 illegal")
    assert " 1 half-chip splits" in out[-1]


def test_illegal_action_exits_1_with_the_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An illegal input prints the rule id and reason, and the exit status is 1."""
    text = (DATA / "wsop/2023/43/5/1.phh").read_text().replace("'p4 cbr 170000'", "'p4 cbr 90000'")
    bad = tmp_path / "bad.phh"
    bad.write_text(text)
    code = main(["replay", "--json", str(bad)])
    row = json.loads(capsys.readouterr().out)
    assert code == 1
    assert row["finishing_stacks"] is None
    assert row["error"].startswith("R-BET-2: action 7: a raise must be at least 80000")


def test_mismatch_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Replayed stacks that differ from finishing_stacks are reported and exit 1."""
    text = (
        (DATA / "wsop/2023/43/5/1.phh").read_text().replace("7340000, 3775000", "7340000, 3775001")
    )
    bad = tmp_path / "bad.phh"
    bad.write_text(text)
    code = main(["replay", str(bad)])
    out = capsys.readouterr().out
    assert code == 1 and "MISMATCH" in out and "1 mismatches" in out


def _pokerkit_hands() -> str:
    """Three hands PokerKit 0.7.7 plays and writes itself (its showdown order, its
    finishing stacks) as one ``.phhs`` text: everyone checks the river with an all-in
    player left of the button (R-SHOW-1); the last hand shows after the other mucked
    (PokerKit asks it, D10); a 7-card stud hand checked down with the all-in player's
    hand the highest showing (R-SHOW-1)."""
    pk = pytest.importorskip("pokerkit")
    auto = (
        pk.Automation.ANTE_POSTING,
        pk.Automation.BET_COLLECTION,
        pk.Automation.BLIND_OR_STRADDLE_POSTING,
        pk.Automation.HAND_KILLING,
        pk.Automation.CHIPS_PUSHING,
        pk.Automation.CHIPS_PULLING,
    )
    texts = []

    def burn(state: Any) -> None:  # an unknown burn: a random one could be a card dealt later
        if state.can_burn_card():
            state.burn_card("??")

    def finish(game: Any, state: Any, mucks: frozenset[int] = frozenset()) -> None:
        while state.showdown_index is not None:
            state.show_or_muck_hole_cards(state.showdown_index not in mucks)
        hh = pk.HandHistory.from_game_state(game, state)
        hh.finishing_stacks = list(state.stacks)
        texts.append(hh.dumps())

    holdem = pk.NoLimitTexasHoldem(auto, True, 0, (10, 20), 20)
    state = holdem((20, 1000, 1000), 3)
    for hole in ("5h6h", "QsQd", "7c2d"):
        state.deal_hole(hole)
    for _ in range(3):
        state.check_or_call()
    for board in ("2h3s4d", "9c", "Tc"):
        burn(state)
        state.deal_board(board)
        state.check_or_call()
        state.check_or_call()
    finish(holdem, state)

    holdem = pk.NoLimitTexasHoldem(auto, True, 0, (10, 20), 20)
    state = holdem((1000, 1000, 1000), 3)
    for hole in ("5h6h", "QsQd", "7c2d"):
        state.deal_hole(hole)
    state.fold()
    state.check_or_call()
    state.check_or_call()
    for board in ("2h3s4d", "9c", "Tc"):
        burn(state)
        state.deal_board(board)
        if board == "Tc":
            state.check_or_call()
            state.complete_bet_or_raise_to(100)
            state.check_or_call()
        else:
            state.check_or_call()
            state.check_or_call()
    finish(holdem, state, mucks=frozenset({1}))  # p2 bet and mucks; PokerKit then asks p1

    stud = pk.FixedLimitSevenCardStud(auto, True, 5, 10, 20, 40)
    state = stud((1000, 25, 1000), 3)
    for hole in ("9d8d3c", "AhAdKh", "7c7h2h"):
        for i in range(0, 6, 2):
            state.deal_hole(hole[i : i + 2])
    state.post_bring_in()
    state.check_or_call()
    state.complete_bet_or_raise_to(20)
    state.check_or_call()
    state.check_or_call()
    for street in (("4c", "Kd", "5c"), ("6h", "Qc", "8c"), ("Th", "Jc", "9c"), ("2c", "3d", "Tc")):
        burn(state)
        for card in street:
            state.deal_hole(card)
        state.check_or_call()
        state.check_or_call()
    finish(stud, state)
    return "\n".join(f"[{i}]\n{text}" for i, text in enumerate(texts, 1))


def test_replay_takes_pokerkits_showdown_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-SHOW-1 / R-SHOW-4: hands PokerKit played and wrote, shows and mucks in its order,
    replay to its finishing stacks; none is refused for the order it shows in."""
    path = tmp_path / "pokerkit.phhs"
    path.write_text(_pokerkit_hands())
    code = main(["replay", str(path)])
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == (
        "3 hands: 3 exact, 0 half-chip splits, 0 without finishing stacks, 0 mismatches, 0 illegal"
    )
    assert code == 0
    assert out[0] == f"{path}#1  ok  60 980 980"


def test_an_illegal_action_names_players_as_the_file_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 13: p2 folding before p3 was reported as "seat 1 acted out of turn; seat 2 is
    to act"; the replay names the players as the file does."""
    text = (DATA / "wsop/2023/43/5/1.phh").read_text().replace("'p3 f'", "'p2 f'", 1)
    bad = tmp_path / "bad.phh"
    bad.write_text(text)
    code = main(["replay", str(bad)])
    out = capsys.readouterr().out
    assert code == 1
    assert "R-BET-10: action 6: p2 acted out of turn; p3 is to act" in out, out
