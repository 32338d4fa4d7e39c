"""Every message a person reads names seats as that person numbers them (issue 13, item 2).

The engine numbers a hand's players 0, 1, … from the small blind; people never do. At a
table with seats 2, 5 and 7 the dealer must read "seat 5", never "seat 1"; a PHH replay
names ``p2``. These tests walk a representative set of illegal inputs through the dealing
procedure (what the console and the alerts show) and collect every sentence produced:
refusals, alert messages and remedies, pot awards. Each names only seats 2, 5 and 7, and
the seats named are the right ones.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterable
from pathlib import Path

from feltwire.text import Player, Text
from hub.messages import render
from hub.rules.errors import OutOfTurnError, TableSeat
from hub.rules.games import Options
from hub.rules.procedure import (
    Act,
    ConsoleAction,
    MuckHand,
    PotAwarded,
    ShowHand,
    Step,
)
from tests.support.dealer_sim import Table, c
from tests.support.monitor_tables import table as alerts_table

SEATS = (2, 5, 7)  # seat 2 small blind, seat 5 big blind, seat 7 the button
SEAT_RE = re.compile(r"\bseats? (\d+)")


def table(
    variant: str, stacks: tuple[int, ...] = (1000, 500, 1000), options: Options | None = None
) -> Table:
    return alerts_table(variant, SEATS, stacks=stacks, options=options)


def sentences(steps: Iterable[Step]) -> list[str]:
    """Everything a person reads from these steps."""
    out: list[str] = []
    for step in steps:
        if step.refused is not None:
            out.append(render(step.refused, "en"))
        for alert in step.alerts:
            out += [render(alert.text), render(alert.remedy)]
        out += [render(e.text) for e in step.events if isinstance(e, PotAwarded)]
    return out


def en(text: Text | None) -> str | None:
    """A step's refusal as the English console shows it (None when nothing was refused)."""
    return None if text is None else render(text, "en")


def seats_named(texts: Iterable[str | None]) -> set[int]:
    return {int(m[1]) for t in texts for m in SEAT_RE.finditer(t or "")}


def act(tb: Table, seat: int, what: Act, to: int = 0) -> Step:
    return tb.console(ConsoleAction(TableSeat(seat), what, 0.0, to))


def deal_holdem(tb: Table, hands: tuple[str, ...] = ("AsAh", "KsKh", "7c2d")) -> None:
    for r in range(2):
        for seat, cards in zip(SEATS, hands, strict=True):
            tb.put(f"seat{seat}", c(cards[2 * r : 2 * r + 2]))


def test_holdem_refusals_alerts_and_awards_name_table_seats() -> None:
    """Hold'em 5/10 at seats 2, 5, 7; seat 5 (the big blind) has 500. The dealer enters
    an action out of turn, a bet seat 5 cannot cover, a check facing a bet, a show for an
    empty seat and a muck out of order; then the pot is awarded."""
    tb = table("NT")
    deal_holdem(tb)
    out_of_turn = act(tb, 5, Act.CHECK)  # the button (seat 7) is to act first
    assert en(out_of_turn.refused) == "seat 7 is to act"
    assert [render(a.text) for a in out_of_turn.alerts] == [
        "seat 5 acted out of turn; seat 7 is to act"
    ]
    act(tb, 7, Act.RAISE, 100)
    act(tb, 2, Act.FOLD)
    too_much = act(tb, 5, Act.RAISE, 600)
    assert en(too_much.refused) == "R-BUY-5: seat 5 has only 500 in play; it cannot bet to 600"
    check = act(tb, 5, Act.CHECK)
    assert (en(check.refused) or "").startswith("R-BET-1: seat 5 cannot check facing a bet of 100")
    nobody = tb.console(ShowHand(TableSeat(3), 0.0))
    assert en(nobody.refused) == "seat 3 is not in this hand"
    act(tb, 5, Act.ALL_IN)
    act(tb, 7, Act.CALL)
    tb.put("burn", c("3s"))
    for code in ("Qd", "9c", "6h"):
        tb.put("board", c(code))
    tb.put("burn", c("4s"))
    tb.put("board", c("5d"))
    tb.put("burn", c("5s"))
    tb.put("board", c("Jc"))
    # the river was not bet: seat 5, first still in left of the button, is asked first;
    # seat 7 throwing its hand away unseen before then is refused or accepted — either
    # way any seat named is a table seat
    early_muck = tb.console(MuckHand(TableSeat(7), 0.0))
    if early_muck.refused is not None:
        assert seats_named([en(early_muck.refused)]) <= {5, 7}, early_muck.refused
    tb.console(ShowHand(TableSeat(5), 0.0))
    if tb.monitor.hand.phase.value != "complete":
        tb.console(MuckHand(TableSeat(7), 0.0))
    said = sentences(tb.steps)
    awards = [render(e.text) for s in tb.steps for e in s.events if isinstance(e, PotAwarded)]
    assert awards == ["main pot 1005: seat 5 takes 1005"]
    assert seats_named(said) <= {2, 3, 5, 7}, said


def test_showdown_order_names_the_table_seat_asked_first() -> None:
    """With the showdown order enforced, seat 7 throwing its hand away before seat 5 (first
    left of the button; the river was checked) has shown is refused, naming seat 5 — it
    said "seat 1 shows or mucks first"."""
    tb = table("NT", options=Options(showdown_order=True))
    deal_holdem(tb)
    act(tb, 7, Act.RAISE, 100)
    act(tb, 2, Act.FOLD)
    act(tb, 5, Act.CALL)
    for reader, code in (("burn", "3s"), ("board", "Qd"), ("board", "9c"), ("board", "6h")):
        tb.put(reader, c(code))
    for burn, card in (("4s", "5d"), ("5s", "Jc"), ("", "")):
        act(tb, 5, Act.CHECK)
        act(tb, 7, Act.CHECK)
        if burn:
            tb.put("burn", c(burn))
            tb.put("board", c(card))
    refused = en(tb.console(MuckHand(TableSeat(7), 0.0)).refused)
    assert refused is not None and "seat 5" in refused, refused
    assert seats_named([refused]) == {5}, refused


def test_dealing_faults_name_table_seats() -> None:
    """Cards dealt out of order, twice to one seat and to an empty seat: every alert
    names table seats."""
    tb = table("NT")
    tb.put("seat5", c("Ks"))  # the first card goes to seat 2 (the small blind)
    tb.put("seat2", c("As"))
    tb.put("seat7", c("7c"))
    tb.put("seat3", c("9d"))  # nobody sits in seat 3
    tb.put("seat2", c("Ah"))
    tb.put("seat2", c("Qh"))  # one too many
    said = sentences(tb.steps)
    assert said, "the faults raised no alert"
    assert seats_named(said) <= {2, 3, 5, 7}, said
    assert "cards out of order on the pre-flop: seat 2 got its card after later seats" in said
    assert "a card was dealt to seat 3, which is not in this hand" in said
    assert "seat 2 got a card too many on the pre-flop" in said


def test_stud_bring_in_names_the_table_seat() -> None:
    """Seven-card stud at seats 2, 5, 7: the lowest up card posts the bring-in; a check
    entered for that seat is refused naming its table seat."""
    tb = table("F7S", (1000, 1000, 1000))
    for r, up in ((0, False), (1, False), (2, True)):
        for seat, cards in zip(SEATS, ("AsKd9h", "QsJd2c", "8s7d5h"), strict=True):
            reader = f"up{seat}" if up else f"seat{seat}"
            tb.put(reader, c(cards[2 * r : 2 * r + 2]))
    hand = tb.monitor.hand
    bring_in = SEATS[hand.actor] if hand.actor is not None else None
    assert bring_in == 5  # the 2c
    step = act(tb, 5, Act.CHECK)
    assert step.refused is not None
    assert seats_named([en(step.refused)]) == {5}, step.refused


def test_phh_numbering_and_table_numbering_render_the_same_error() -> None:
    """One error, two readers: a PHH replay says p2/p3, the table says seat 5/7."""
    reason = Text("refusal.out_of_turn.acted", {"seat": Player(1), "actor": Player(2)})
    err = OutOfTurnError("R-BET-10", reason)
    assert str(err) == "R-BET-10: p2 acted out of turn; p3 is to act"
    assert render(err.ruled) == str(err)
    assert err.render_en(lambda h: TableSeat(SEATS[h])) == (
        "R-BET-10: seat 5 acted out of turn; seat 7 is to act"
    )
    assert render(err.text_for(lambda h: TableSeat(SEATS[h])), "cs") == (
        "R-BET-10: místo 5 jedná mimo pořadí; na řadě je místo 7"
    )


MIXED = ("hand", "betting", "dealing", "showdown", "pots", "games", "setup", "phh", "procedure")
"""The modules that hold a hand's 0-based players (a name stands for a module or for every
module of a package of that name, such as ``hand/``): their messages name a seat only
as a :class:`~feltwire.text.Player` (a hand's player) or a :class:`~feltwire.text.Seat` or
:func:`~hub.rules.errors.seat_name` (a table seat), never by formatting a number after the
word "seat"."""


def mixed_modules(root: Path) -> list[Path]:
    """The files of :data:`MIXED` under ``root`` (hub/rules); each name must be found."""
    paths: list[Path] = []
    for name in MIXED:
        found = sorted(root.glob(f"{name}.py")) + sorted(root.glob(f"{name}/*.py"))
        assert found, f"{name}: no such module or package under {root}"
        paths += found
    return paths


def test_no_engine_message_formats_a_seat_number_itself() -> None:
    """The guard that keeps the mistake from coming back: ``f"seat {s}"`` in a module that
    holds hand indices is refused; ``Player(h)``, ``Seat(t)`` or ``seat_name(t)`` is the way."""
    root = Path(__file__).resolve().parents[4] / "hub" / "rules"
    found = []
    for path in mixed_modules(root):
        name = path.relative_to(root).with_suffix("").as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.JoinedStr):
                continue
            for before, after in itertools.pairwise(node.values):
                if (
                    isinstance(before, ast.Constant)
                    and isinstance(before.value, str)
                    and re.search(r"\bseats? $", before.value, re.IGNORECASE)
                    and isinstance(after, ast.FormattedValue)
                ):
                    found.append(f"{name}.py:{node.lineno}")
    assert found == []
