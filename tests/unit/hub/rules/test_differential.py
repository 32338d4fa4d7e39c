"""Differential test: random legal hands on our engine and on PokerKit 0.7.7 side by side.

Every game both engines play (see :data:`tests.support.oracle_pokerkit.ORACLES`; five-card
stud has no PokerKit game) is played for ``FELTWIRE_DIFF_HANDS`` hands (default 2,000 per
game, issue #3 acceptance 2; set millions for a long run) from seeds
``FELTWIRE_DIFF_START`` … (default 0), by a pool of ``FELTWIRE_DIFF_WORKERS`` processes
(default 2, the CI machine's cores; 1 plays in the test process). After every step the
seat to act, the stacks and bets, the call amount, check / raise allowed and the raise
bounds are compared, at every street and before the showdown the pots, at the showdown the
order, at the end the stacks. A failure names the seed and prints the hand as PHH-like
lines; rerun just that hand (in the test process) with
``FELTWIRE_DIFF_ONLY='FT:46' pytest tests/unit/hub/rules/test_differential.py``.

Known differences are listed once, in ``docs/rules-divergences.md`` (D1 …); the filters in
``oracle_pokerkit.py`` cite them, and ``test_every_divergence_names_a_proving_test`` keeps
each entry's hand-written test real. The ``test_pokerkit_still_*`` tests pin the PokerKit
faults the list relies on: if a PokerKit upgrade fixes one, its test fails and the entry
(and its filter) should go.
"""

from __future__ import annotations

import ast
import multiprocessing
import os
import re
import warnings
from collections import Counter
from collections.abc import Iterator
from multiprocessing.pool import AsyncResult
from pathlib import Path

import pytest
from pokerkit import (
    Automation,
    BettingStructure,
    FixedLimitOmahaHoldemHighLowSplitEightOrBetter,
    FixedLimitSevenCardStud,
    NoLimitTexasHoldem,
)

from hub.rules.games import game
from tests.support.oracle_pokerkit import (
    AUTOMATIONS,
    ORACLES,
    TABLE_HANDS,
    Result,
    play_many,
    play_tables,
)

HANDS = int(os.environ.get("FELTWIRE_DIFF_HANDS", "2000"))
"""Hands per game. 2,000 (the CI count) takes about 4.5 minutes for the whole file on the
2-core CI machine with two workers (PokerKit's showdown work dominates even with its hand
evaluations remembered, see ``oracle_pokerkit._MemoHandType``)."""
START = int(os.environ.get("FELTWIRE_DIFF_START", "0"))
TABLES = int(os.environ.get("FELTWIRE_DIFF_TABLES", str(max(1, HANDS // 40))))
"""Table sessions per blind game (default a fortieth of ``HANDS``: 50 sessions of
:data:`~tests.support.oracle_pokerkit.TABLE_HANDS` hands in CI), seeds from ``START``."""
ONLY = os.environ.get("FELTWIRE_DIFF_ONLY", "")
WORKERS = int(os.environ.get("FELTWIRE_DIFF_WORKERS", "2"))
CHUNK = 250
"""Seeds per pool task: small enough to keep both workers busy to the end."""

ROOT = Path(__file__).resolve().parents[4]


def _seeds(code: str) -> list[int]:
    """Hand seeds of ``code``, or table-session seeds of ``table:CODE``."""
    if ONLY:
        only_code, _, seed = ONLY.rpartition(":")
        return [int(seed)] if only_code == code else []
    return list(range(START, START + (TABLES if code.startswith("table:") else HANDS)))


BLIND_GAMES = sorted(code for code in ORACLES if game(code).uses_blinds)


Pending = dict[str, list[AsyncResult[list[Result]]]]


@pytest.fixture(scope="module")
def pending(request: pytest.FixtureRequest) -> Iterator[Pending]:
    """Every selected game's hands, handed to the pool at once in test order, so the
    workers stay busy while the tests collect their games one by one."""
    names = {"test_engine_matches_pokerkit": "", "test_table_hands_match_pokerkit": "table:"}
    codes = [
        names[item.originalname] + item.callspec.params["code"]
        for item in request.session.items
        if getattr(item, "originalname", "") in names and hasattr(item, "callspec")
    ]
    if ONLY or WORKERS <= 1 or not codes:
        yield {}
        return
    with multiprocessing.get_context("fork").Pool(WORKERS) as pool:
        out: Pending = {}
        for code in codes:
            seeds = _seeds(code)
            chunks = [seeds[i : i + CHUNK] for i in range(0, len(seeds), CHUNK)]
            play, game_code = (play_tables, code[6:]) if code[:6] == "table:" else (play_many, code)
            out[code] = [pool.apply_async(play, (game_code, chunk)) for chunk in chunks]
        yield out
        pool.terminate()


@pytest.mark.parametrize("code", sorted(ORACLES))
def test_engine_matches_pokerkit(code: str, pending: Pending) -> None:
    _check(code, pending)


@pytest.mark.parametrize("code", BLIND_GAMES)
def test_table_hands_match_pokerkit(code: str, pending: Pending) -> None:
    """Sessions of hands a :class:`~hub.rules.table.Table` sets up (issue 13): equal
    blinds, short all-in blinds, players sitting out and coming back to post live and
    dead blinds, new players posting, misdeals and their redeal (same button, same
    stacks), top-ups bought during a hand (never over the maximum when delivered); every
    hand played on both engines (``FELTWIRE_DIFF_ONLY='table:NT:7'`` reruns a session)."""
    _check(f"table:{code}", pending)


def _check(code: str, pending: Pending) -> None:
    seeds = _seeds(code)
    if not seeds:
        pytest.skip(f"FELTWIRE_DIFF_ONLY={ONLY} selects another game")
    if code in pending:
        results = [r for job in pending[code] for r in job.get(timeout=290)]
    elif code.startswith("table:"):
        results = play_tables(code[6:], seeds)
    else:
        results = play_many(code, seeds)
    failures: dict[str, list[str]] = {}
    filtered: Counter[str] = Counter()
    showdowns = 0
    for showdown, excused, kind, text in results:
        if kind:
            failures.setdefault(kind, []).append(text)
        else:
            showdowns += showdown
            filtered.update(excused)
    what = f"sessions of {TABLE_HANDS} hands" if code.startswith("table:") else "hands"
    print(f"{code}: {len(seeds)} {what}, {showdowns} showdowns, excused by entry: {filtered}")
    if failures:
        lines = [f"{code}: {sum(map(len, failures.values()))} of {len(seeds)} {what} differ"]
        for kind, found in sorted(failures.items(), key=lambda kv: -len(kv[1])):
            shortest = min(found, key=lambda text: text.count("\n"))
            lines += [f"--- {kind}: {len(found)} hands; the shortest:", shortest]
        pytest.fail("\n".join(lines), pytrace=False)


def test_every_game_both_engines_play_is_compared() -> None:
    from hub.rules.games import GAMES

    # five-card stud: no PokerKit game; these others: no PokerKit betting structure
    # of that name needed here (PL/FL short deck, NL/PL badugi …) — compared where it counts
    required = {"NT", "PT", "FT", "PO", "FO", "PO/8", "FO/8", "F7S", "F7S/8", "FR"}
    required |= {"F2L3D", "N2L1D", "N5D", "F5D"}
    assert required <= set(ORACLES) <= set(GAMES)
    assert not any(code.endswith("5S") for code in ORACLES)


# ----------------------------------------------------- the PokerKit faults the list relies on


def test_pokerkit_still_plays_fixed_limit_omaha_hi_lo_as_pot_limit() -> None:
    """D1: PokerKit's fixed-limit Omaha hi-lo class is pot limit without a cap."""
    cls = FixedLimitOmahaHoldemHighLowSplitEightOrBetter
    assert cls.betting_structure is BettingStructure.POT_LIMIT
    assert cls.max_completion_betting_or_raising_count is None


def test_pokerkit_still_runs_out_of_cards_eight_handed_seven_card_stud() -> None:
    """D4 (R-DEAL-4): with eight players and burns, PokerKit has no community card."""
    state = FixedLimitSevenCardStud.create_state(AUTOMATIONS, True, 1, 2, 4, 8, 1000, 8)
    deck = [f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # PokerKit warns, refuses, or asks for a 53rd card (the IndexError of our deck)
        with pytest.raises((UserWarning, ValueError, IndexError)):
            while state.status:
                if state.card_burning_status:
                    state.burn_card(deck.pop())
                elif state.hole_dealee_index is not None:
                    state.deal_hole(deck.pop())
                elif state.can_post_bring_in():
                    state.post_bring_in()
                elif state.actor_index is not None:
                    state.check_or_call()
                elif state.showdown_index is not None:
                    state.show_or_muck_hole_cards(True)
                else:
                    state.deal_board(deck.pop())


def test_pokerkit_still_only_warns_on_a_duplicate_card() -> None:
    """D2's neighbour: a card dealt twice is a UserWarning in PokerKit, an error in ours
    (R-CARD-1, ``test_r_card_1_a_card_exists_once``)."""
    state = NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (1, 2), 2, 200, 2)
    state.deal_hole("As")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match=r"not\s+recommended"):
            state.deal_hole("As")
    assert Automation.CARD_BURNING not in AUTOMATIONS


def test_pokerkit_still_lowers_the_price_after_a_short_all_in_big_blind() -> None:
    """D18 (R-BET-2): the big blind all in for 15 at 10/20: PokerKit asks 15 to call and
    lets the next player raise to 35; ours keeps the price at 20 and the raise at 40."""
    state = NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (10, 20), 20, (1000, 15, 1000), 3)
    for card in ("As", "Ks", "Qs", "Ah", "Kh", "Qh"):
        state.deal_hole(card)
    assert state.actor_index == 2 and state.bets == [10, 15, 0]
    assert state.checking_or_calling_amount == 15
    assert state.min_completion_betting_or_raising_to_amount == 35


# ------------------------------------------------------------ the list of divergences


def _divergences() -> dict[str, str]:
    """``docs/rules-divergences.md``'s table: entry id → its "proving test" cell."""
    rows = {}
    for line in (ROOT / "docs" / "rules-divergences.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| D") and re.fullmatch(r"D\d+", cells[0]):
            rows[cells[0]] = cells[-1]
    return rows


def _test_names() -> set[str]:
    names = set()
    for path in (ROOT / "tests" / "unit" / "hub" / "rules").glob("test_*.py"):
        tree = ast.parse(path.read_text())
        names |= {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    return names


def test_every_divergence_names_a_proving_test() -> None:
    """Acceptance 2: each divergence is listed once with its rule id and a hand-written
    test proving our behaviour; that test exists in ``tests/unit/hub/rules``."""
    rows = _divergences()
    numbers = [int(entry[1:]) for entry in rows]
    assert rows and numbers == sorted(numbers)
    # an entry that is gone keeps its id, unused, and the page says why (D14: R-SHOW-1)
    text = (ROOT / "docs" / "rules-divergences.md").read_text()
    for gone in sorted(set(range(1, numbers[-1] + 1)) - set(numbers)):
        assert re.search(rf"^D{gone} .* is gone", text, re.M), f"D{gone} is missing"
    tests = _test_names()
    for entry, cell in rows.items():
        named = re.findall(r"`(test_\w+)`", cell)
        assert named, f"{entry} names no proving test"
        missing = [name for name in named if name not in tests]
        assert not missing, f"{entry}: no such test in tests/unit/hub/rules: {missing}"


def test_every_filter_cites_a_listed_divergence() -> None:
    """The oracle's filters cite entries of the list, and every entry has a filter or is
    handled in the oracle (each id appears in ``oracle_pokerkit.py``)."""
    source = (ROOT / "tests" / "support" / "oracle_pokerkit.py").read_text()
    cited = set(re.findall(r'"(D\d+)"', source))
    assert cited <= set(_divergences()), cited - set(_divergences())
    for entry in _divergences():
        assert re.search(rf"\b{entry}\b", source), f"{entry} is not mentioned in the oracle"
