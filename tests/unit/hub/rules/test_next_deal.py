"""What the dealer deals next (:mod:`hub.rules.procedure.next_deal`), at each step of a
hold'em, a seven-card stud and a five-card draw hand dealt on the antennas: the seat and
which of its cards, the burn, the flop's cards, the turn, the river, a stud up card, a
draw's discards and replacements — and nothing while the players bet."""

from __future__ import annotations

from feltwire.cards import CardIndex
from hub.messages import render
from hub.messages.keys import check
from hub.rules.games import Family
from hub.rules.procedure import Act, ConsoleAction, DealingMonitor, DeclareMisdeal
from hub.rules.procedure.next_deal import NextDeal, NextKind
from hub.rules.setup import TableProfile
from hub.views.table import next_deal_text
from tests.support.dealer_sim import Table, c
from tests.support.monitor_tables import table

SEATS = (2, 5, 7)  # hand order: small blind (or first to the left), ..., the button


def nxt(tb: Table) -> tuple[str, int | None, int, int, bool, str] | None:
    """The monitor's next deal, as (kind, seat, card, of, up, reader)."""
    monitor: DealingMonitor = tb.monitor
    nd: NextDeal | None = monitor.next_deal()
    if nd is None:
        return None
    return nd.kind.value, nd.seat, nd.card, nd.of, nd.up, nd.reader


def deal_next(tb: Table) -> None:
    """Deal the card the monitor names where it says (a fresh card from the stub)."""
    nd = tb.monitor.next_deal()
    assert nd is not None and nd.kind is not NextKind.DISCARD
    hand = tb.monitor.hand
    on_table = {card for cards in tb.on.values() for card in cards}
    fresh = next(
        CardIndex(i) for i in range(52) if i not in on_table and not hand.in_play(CardIndex(i))
    )
    tb.put(nd.reader, fresh)


def settle_round(tb: Table) -> None:
    """The betting round: everyone checks or calls (stud: the bring-in first)."""
    while tb.monitor.hand.actor is not None and tb.monitor.next_deal() is None:
        hand = tb.monitor.hand
        h = hand.actor
        assert h is not None
        act = Act.BRING_IN if hand.can_bring_in(h) else Act.CHECK if hand.can_check(h) else Act.CALL
        step = tb.console(ConsoleAction(tb.monitor.setup.seats[h], act, 0.0))
        assert step.refused is None


def new_table(variant: str, profile: TableProfile | None = None) -> Table:
    return table(variant, SEATS, profile)


def test_holdem_names_each_hole_card_the_burn_and_the_board_cards() -> None:
    tb = new_table("NT")
    seen = []
    for _ in range(6):
        seen.append(nxt(tb))
        deal_next(tb)
    assert seen == [
        ("hole", 2, 1, 2, False, "seat2"),
        ("hole", 5, 1, 2, False, "seat5"),
        ("hole", 7, 1, 2, False, "seat7"),
        ("hole", 2, 2, 2, False, "seat2"),
        ("hole", 5, 2, 2, False, "seat5"),
        ("hole", 7, 2, 2, False, "seat7"),  # seat 7's second card
    ]
    assert nxt(tb) is None  # pre-flop betting: nothing to deal
    settle_round(tb)
    flop = []
    for _ in range(4):
        flop.append(nxt(tb))
        deal_next(tb)
    assert flop == [
        ("burn", None, 1, 1, False, "burn"),
        ("board", None, 1, 3, True, "board"),
        ("board", None, 2, 3, True, "board"),
        ("board", None, 3, 3, True, "board"),
    ]
    assert tb.monitor.next_deal() is None
    settle_round(tb)
    nd = tb.monitor.next_deal()
    assert nd is not None and (nd.kind, nd.street) == (NextKind.BURN, "turn")
    deal_next(tb)
    nd = tb.monitor.next_deal()
    assert nd is not None and (nd.kind, nd.street, nd.card, nd.of) == (NextKind.BOARD, "turn", 1, 1)
    deal_next(tb)
    settle_round(tb)
    deal_next(tb)  # the burn
    nd = tb.monitor.next_deal()
    assert nd is not None and (nd.kind, nd.street) == (NextKind.BOARD, "river")


def test_board_cards_on_their_own_antennas_and_a_passed_over_seat() -> None:
    profile = TableProfile(board_readers=("flop1", "flop2", "flop3", "turn", "river"))
    tb = new_table("NT", profile)
    tb.put("seat5", c("As"))  # seat 2's first card was not read (or not dealt)
    nd = tb.monitor.next_deal()
    assert nd is not None and (nd.seat, nd.card, nd.unread) == (7, 1, (2,))
    tb.put("seat7", c("Kd"))
    nd = tb.monitor.next_deal()
    assert nd is not None and (nd.seat, nd.card, nd.unread) == (2, 2, (2,))  # its 2nd card
    for code, seat in (("7c", 2), ("Ah", 2), ("Kc", 5), ("2d", 7)):
        tb.put(f"seat{seat}", c(code))
    settle_round(tb)
    tb.put("burn", c("3d"))
    readers = []
    for code in ("3h", "4h", "5h"):
        nd = tb.monitor.next_deal()
        assert nd is not None
        readers.append(nd.reader)
        tb.put(nd.reader, c(code))
    assert readers == ["flop1", "flop2", "flop3"]


def test_stud_names_down_cards_up_cards_and_each_streets_burn() -> None:
    tb = new_table("F7S", TableProfile(up_cards=True))
    assert tb.monitor.hand.game.family is Family.STUD
    third = []
    for _ in range(9):
        third.append(nxt(tb))
        deal_next(tb)
    assert third == [
        ("hole", 2, 1, 3, False, "seat2"),
        ("hole", 5, 1, 3, False, "seat5"),
        ("hole", 7, 1, 3, False, "seat7"),
        ("hole", 2, 2, 3, False, "seat2"),
        ("hole", 5, 2, 3, False, "seat5"),
        ("hole", 7, 2, 3, False, "seat7"),
        ("hole", 2, 3, 3, True, "up2"),  # the door card, face up on its own antenna
        ("hole", 5, 3, 3, True, "up5"),
        ("hole", 7, 3, 3, True, "up7"),
    ]
    settle_round(tb)
    fourth = []
    for _ in range(4):
        fourth.append(nxt(tb))
        deal_next(tb)
    assert fourth == [
        ("burn", None, 1, 1, False, "burn"),
        ("hole", 2, 4, 4, True, "up2"),
        ("hole", 5, 4, 4, True, "up5"),
        ("hole", 7, 4, 4, True, "up7"),
    ]


def test_draw_names_the_drawer_the_burn_and_each_replacement() -> None:
    tb = new_table("F5D")
    for _ in range(15):
        deal_next(tb)
    settle_round(tb)
    assert nxt(tb) == ("discard", 2, 1, 1, False, "muck")
    thrown = sorted(tb.on["seat2"])[:2]
    tb.move(thrown, "muck")  # seat 2 throws two
    assert nxt(tb) == ("burn", None, 1, 1, False, "burn")
    deal_next(tb)
    assert nxt(tb) == ("replacement", 2, 1, 2, False, "seat2")
    deal_next(tb)
    assert nxt(tb) == ("replacement", 2, 2, 2, False, "seat2")
    deal_next(tb)
    assert nxt(tb) == ("discard", 5, 1, 1, False, "muck")  # seat 5's turn to draw


def test_nothing_to_deal_after_a_misdeal() -> None:
    tb = new_table("NT")
    tb.console(DeclareMisdeal(0.0))
    assert tb.monitor.next_deal() is None


def test_the_console_says_the_next_card_in_english_and_czech() -> None:
    """The words (hub/views/table.py, the catalog's next_deal.* entries), seats as people
    number them; every text fits its catalog entry."""
    cases = [
        (NextDeal(NextKind.HOLE, "pre-flop", "seat4", seat=4, card=2, of=2), False),
        (NextDeal(NextKind.HOLE, "3rd street", "up4", seat=4, card=3, of=3, up=True), False),
        (NextDeal(NextKind.BURN, "flop", "burn"), False),
        (NextDeal(NextKind.BOARD, "flop", "board", card=2, of=3, up=True), False),
        (NextDeal(NextKind.BOARD, "turn", "board", up=True), False),
        (NextDeal(NextKind.BOARD, "7th street", "board", up=True), True),
        (NextDeal(NextKind.REPLACEMENT, "draw", "seat3", seat=3, card=1, of=2), False),
        (NextDeal(NextKind.DISCARD, "draw", "muck", seat=3), False),
    ]
    texts = [next_deal_text(nd, community) for nd, community in cases]
    for text in texts:
        check(text)
    assert [render(t, "en") for t in texts] == [
        "Next: seat 4's second card, face down",
        "Next: seat 4's third card, face up",
        "Next: the burn card (flop)",
        "Next: the flop, card 2 of 3",
        "Next: the turn card",
        "Next: the community card, one for every seat (R-DEAL-4)",
        "Next: seat 3's replacement card 1 of 2",
        "Next: seat 3 throws the discards to the muck (or stands pat)",
    ]
    assert render(texts[0], "cs") == "Další: druhá karta pro místo 4, rubem nahoru"
