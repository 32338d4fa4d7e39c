"""Every refusal is a catalog text: its key exists, in English and Czech, with exactly the
parameters the raise passes (issue 14, acceptance 4).

Two views of the same promise. The static one reads the code: every ``Text("refusal.…",
{…})`` in the modules that refuse (the rules, the console's procedure, the web) names a
key of the catalog and passes exactly that entry's parameters. The dynamic one raises a
sample of refusals through the real engine and checks each text strictly
(:func:`hub.messages.keys.check`: names, kinds, nested texts), its English (what
``str(err)`` says) and its Czech.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from feltwire.cards import card_index
from feltwire.text import Player, Seat, Text
from hub.messages import load_catalog, render
from hub.messages.keys import check
from hub.rules.errors import HandHistoryError, RulesError, TableSeat
from hub.rules.evaluator import evaluate_high
from hub.rules.games import Stakes, game
from hub.rules.hand import Hand
from hub.rules.phh import loads, parse_cards, replay_history
from hub.rules.procedure import ConsoleAction, DealingMonitor, UndoAction
from hub.rules.procedure.inputs import Act
from hub.rules.rake import Rake
from hub.rules.table import Table, TableConfig
from hub.rules.tournament import Level, Tournament
from tests.support.monitor_tables import three_handed

ROOT = Path(__file__).resolve().parents[4]
CATALOG = load_catalog()

PRODUCERS = (
    "hub/rules/**/*.py",
    "hub/web/*.py",
)
"""The modules that refuse: the rules core (hands, tables, files, the console's
procedure) and the web routes."""

BUILT_FROM_PARTS = {
    "refusal.buy_in.below_minimum",
    "refusal.buy_in.below_return_minimum",
    "refusal.buy_in.top_up_at_max",
    "refusal.buy_in.top_up_at_max_pending",
    "refusal.buy_in.top_up_over_max",
    "refusal.buy_in.top_up_over_max_pending",
    "refusal.configuration.antes_per_seat",
    "refusal.configuration.blinds_per_seat",
    "refusal.dealing.face_down",
    "refusal.dealing.face_up",
}
"""Keys a raise picks by its case (``f"refusal.buy_in.{low}"``, a key in a variable): the
static scan cannot see them whole; the samples below raise each one."""

NOT_YET_TEXTS = {
    "refusal.ruled",  # the frame of every refusal: RulesError.ruled builds it
    "refusal.http.clock_action",  # hub.app.tournament_clock (not reachable over HTTP)
    "refusal.http.log_unavailable",  # hub.app.errors.LogUnavailable's own message
}
"""Catalog keys no ``Text(...)`` in :data:`PRODUCERS` builds (see each comment)."""


def _texts() -> Iterator[tuple[str, ast.Call, dict[str, ast.Dict]]]:
    """Every ``Text(...)`` call in the producers: where, the call, and the dict literals
    assigned to names in its module (to resolve ``Text(key, params)``)."""
    for pattern in PRODUCERS:
        for path in sorted(ROOT.glob(pattern)):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names: dict[str, ast.Dict] = {}
            for node in ast.walk(tree):
                if isinstance(node, ast.Assign) and len(node.targets) == 1:
                    target, value = node.targets[0], node.value
                elif isinstance(node, ast.AnnAssign) and node.value is not None:
                    target, value = node.target, node.value
                else:
                    continue
                if isinstance(target, ast.Name) and isinstance(value, ast.Dict):
                    names[target.id] = value
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Text":
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", node, names


def _literal_keys(d: ast.Dict) -> set[str] | None:
    keys = set()
    for k in d.keys:
        if not isinstance(k, ast.Constant) or not isinstance(k.value, str):
            return None  # a ** spread: not a literal set of names
        keys.add(k.value)
    return keys


def _raised_keys() -> tuple[set[str], list[str]]:
    """The refusal keys the producers build, and every mismatch found on the way."""
    seen: set[str] = set()
    wrong: list[str] = []
    for where, call, names in _texts():
        first = call.args[0] if call.args else None
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            continue  # a key built from parts: BUILT_FROM_PARTS, checked by the samples
        key = first.value
        if not key.startswith("refusal."):
            continue
        seen.add(key)
        if key not in CATALOG:
            wrong.append(f"{where}: {key} is not in the catalog")
            continue
        params = call.args[1] if len(call.args) > 1 else None
        if params is None:
            given: set[str] | None = set()
        elif isinstance(params, ast.Dict):
            given = _literal_keys(params)
        elif isinstance(params, ast.Name) and params.id in names:
            given = _literal_keys(names[params.id])
        else:
            given = None
        if given is not None and given != set(CATALOG.params_of(key)):
            wrong.append(
                f"{where}: {key} takes {sorted(CATALOG.params_of(key))}, not {sorted(given)}"
            )
    return seen, wrong


def test_every_refusal_raised_names_a_key_with_exactly_its_parameters() -> None:
    """Statically: each ``Text("refusal.…", {…})`` is a catalog key, given its params."""
    seen, wrong = _raised_keys()
    assert wrong == []
    assert len(seen) > 100


def test_every_refusal_key_is_raised_somewhere() -> None:
    """No refusal entry is left over: each is built by a raise (or is listed as built from
    parts, or as not a Text yet)."""
    seen, _ = _raised_keys()
    refusal_keys = {k for k in CATALOG if k.startswith("refusal.")}
    assert refusal_keys - seen - BUILT_FROM_PARTS - NOT_YET_TEXTS == set()
    assert refusal_keys >= (BUILT_FROM_PARTS | NOT_YET_TEXTS)


def test_every_refusal_entry_speaks_both_languages_with_the_same_parameters() -> None:
    """Each refusal entry has an English and a Czech text naming the same placeholders
    (the catalog checks it on load; this says so for refusals), and they differ where a
    sentence has words."""
    for key in (k for k in CATALOG if k.startswith("refusal.")):
        entry = CATALOG[key]
        assert entry.en.strip() and entry.cs.strip(), key
        assert entry.params == frozenset(CATALOG.params_of(key)), key
    same = [k for k in CATALOG if k.startswith("refusal.") and CATALOG[k].en == CATALOG[k].cs]
    assert same == ["refusal.ruled"]


# ---------------------------------------------------------------- raised for real


def _holdem(n: int = 3) -> Hand:
    return Hand(game("NT"), Stakes.blind_game(n, 5, 10), [500] * n)


def _table() -> Table:
    t = Table(TableConfig(game("NT"), small_blind=5, big_blind=10))
    t.join(3, "Ann", 1000, now=0.0)
    return t


def _dealt() -> Hand:
    hand = _holdem()
    for code in ("As", "Kd", "7c", "Ah", "Kc", "2d"):
        hand.deal_hole(hand.expected()[0].seat or 0, card_index(code))
    return hand


SAMPLES: dict[str, Callable[[], object]] = {
    "out of turn": lambda: _dealt().check(1),
    "check facing a bet": lambda: _dealt().check(),
    "below the minimum bet": lambda: _dealt().bet_or_raise_to(12),
    "over the stack": lambda: _dealt().bet_or_raise_to(900),
    "a card twice": lambda: _holdem_twice(),
    "no such player": lambda: _holdem().deal_hole(7, card_index("As")),
    "no betting round": lambda: _holdem().check(0),
    "player count": lambda: Hand(game("NT"), Stakes.blind_game(2, 5, 10), [500]),
    "antes per seat": lambda: Hand(game("NT"), Stakes(antes=(0,), blinds=(5, 10, 0)), [500] * 3),
    "unknown game": lambda: game("XX"),
    "rake rate": lambda: Rake(rate=Fraction(2)),
    "tournament levels": lambda: Tournament([], 1000),
    "tournament level blinds": lambda: Tournament([Level(20, 10, 0, 15)], 1000),
    "seat taken": lambda: _table().join(3, "Bob", 1000, now=0.0),
    "no such seat": lambda: _table().join(11, "Bob", 1000, now=0.0),
    "below the minimum buy-in": lambda: _table().join(4, "Bob", 10, now=0.0),
    "top up at the maximum": lambda: _table().verify_add_chips(3, 10, now=0.0),
    "not enough players": lambda: _table().start_hand(now=0.0),
    "phh bad card string": lambda: parse_cards("AsK"),
    "phh action failed": lambda: replay_history(
        loads(
            "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\n"
            "min_bet = 10\nstarting_stacks = [100, 100]\n"
            "actions = ['d dh p1 AsKs', 'd dh p2 7c2d', 'p1 f']\n"
        )
    ),
    "evaluator card count": lambda: evaluate_high([0, 1, 2]),
    "face up in stud": lambda: _stud_face(),
}
"""Inputs the rules refuse, one per kind of refusal (and a few kinds of each family)."""


def _holdem_twice() -> None:
    hand = _holdem()
    hand.deal_hole(0, card_index("As"))
    hand.deal_hole(1, card_index("As"))


def _stud_face() -> None:
    hand = Hand(
        game("F7S"), Stakes(antes=(1, 1), blinds=(0, 0), bring_in=2, small_bet=5), [100, 100]
    )
    hand.deal_hole(0, card_index("As"), up=True)


def _raise(sample: Callable[[], object]) -> RulesError:
    with pytest.raises(RulesError) as caught:
        sample()
    return caught.value


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_refusal_raised_fits_its_entry_in_both_languages(name: str) -> None:
    """Raised for real: the text fits its entry strictly (names, kinds, nested texts),
    never names a card; str() is the English ``refusal.ruled``; the Czech is another
    sentence with the same rule id."""
    err = _raise(SAMPLES[name])
    assert err.text.key.startswith("refusal."), err.text
    check(err.text)
    check(err.ruled)
    assert str(err) == render(err.ruled, "en")
    assert str(err).startswith(f"{err.rule}: ")
    cs = render(err.ruled, "cs")
    assert cs.startswith(f"{err.rule}: ") and cs != str(err)
    assert "As" not in str(err) and "As" not in cs


def test_str_is_the_english_sentence() -> None:
    """What ``str(err)`` says for a sample of refusals: the sentences the hub says."""
    said = {name: str(_raise(SAMPLES[name])) for name in SAMPLES}
    assert said["out of turn"] == "R-BET-10: p2 acted out of turn; p3 is to act"
    assert said["check facing a bet"] == (
        "R-BET-1: p3 cannot check facing a bet of 10; call, raise or fold"
    )
    assert said["below the minimum bet"] == (
        "R-BET-2: a raise must be at least 10 (the last raise), to 20; 2 is too small"
    )
    assert said["a card twice"] == "R-CARD-1: a card is already in play; every card exists once"
    assert said["no such player"] == "R-DEAL-6: there is no p8"
    assert said["seat taken"] == "R-POS-1: seat 3 is taken by Ann"
    assert said["phh bad card string"] == "PHH: a card string cannot be read"
    assert said["phh action failed"] == "R-BET-10: action 3: p1 acted out of turn; p2 is to act"


def test_a_table_names_the_hands_players_by_seat_in_either_language() -> None:
    """At a table with seats 2, 5 and 7 the hand's players are those seats: the text for
    the console has Seats, never Players, and the Czech names them místo 5, místo 7."""
    err = _raise(SAMPLES["out of turn"])
    assert err.text.params == {"seat": Player(1), "actor": Player(2)}
    seats = (TableSeat(2), TableSeat(5), TableSeat(7))
    text = err.text_for(lambda h: seats[h])
    assert text.params["reason"] == Text(
        "refusal.out_of_turn.acted", {"seat": Seat(5), "actor": Seat(7)}
    )
    assert render(text, "en") == "R-BET-10: seat 5 acted out of turn; seat 7 is to act"
    assert render(text, "cs") == "R-BET-10: místo 5 jedná mimo pořadí; na řadě je místo 7"
    assert err.render_en(lambda h: None) == str(err)  # no seat known: the hand's numbering


def test_the_console_refusal_is_a_text_with_table_seats() -> None:
    """The dealing monitor answers a refused console input with a Text whose players are
    table seats, which renders in Czech."""
    setup = three_handed()
    m = DealingMonitor(setup)
    undo = m.apply(UndoAction(now=0.0)).refused
    assert undo == Text("refusal.console.nothing_to_undo")
    assert render(undo, "cs") != render(undo, "en")
    early = m.apply(ConsoleAction(TableSeat(5), Act.CHECK, now=1.0)).refused
    assert early is not None
    check(early)
    assert "seat 5" not in render(early, "cs")


def test_pickled_refusals_keep_their_class_rule_and_text() -> None:
    """A refusal crosses a process boundary whole (its class, rule and text)."""
    import pickle

    for err in (_raise(SAMPLES["out of turn"]), _raise(SAMPLES["phh bad card string"])):
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err) and back.rule == err.rule and back.text == err.text
    assert isinstance(_raise(SAMPLES["phh bad card string"]), HandHistoryError)
