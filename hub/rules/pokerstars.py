"""PokerStars-style hand histories: the text hand trackers (PokerTracker 4, Hold'em
Manager 3) import, written from a played :class:`~hub.rules.hand.Hand`.

Pure: a hand, what the file says about its table (:class:`HandContext`) and whose eyes
it is written through (:class:`Perspective`) in; the text out. Every game the engine
plays is written — hold'em and Omaha (``*** HOLE CARDS ***``, ``*** FLOP ***`` …), stud
(``*** 3rd STREET ***`` …, five-card stud from ``2nd``), draw (``*** DEALING HANDS ***``,
``*** FIRST DRAW ***`` …) — with the game names PokerStars uses (``Hold'em No Limit``,
``Omaha Hi/Lo Pot Limit``, ``7 Card Stud Limit``, ``Triple Draw 2-7 Lowball Limit``,
``6+ Hold'em`` for short deck; five-card stud, which PokerStars no longer deals, as
``5 Card Stud``). Amounts are chips, without a currency sign.

Which hole cards the file shows (a card face up in stud is everyone's):

* ``Perspective.shown()`` — what the table saw: only hands shown at the showdown (a
  file to give out: mucked and folded hands stay secret);
* ``Perspective.hero(seat)`` — a player's own file, as PokerStars writes it for them:
  their own cards (``Dealt to …``) and the hands shown;
* ``Perspective.everything()`` — every card dealt, mucked hands included (a broadcast's
  record, for the producer only).

>>> from datetime import datetime, UTC
>>> from feltwire.cards import card_index as c
>>> from hub.rules.games import Stakes, game
>>> hand = Hand(game("NT"), Stakes.blind_game(3, 5, 10), [1000, 1000, 1000])
>>> for seat, cards in enumerate(["AhKh", "2c7d", "QsQd"]):
...     for i in (0, 2):
...         _ = hand.deal_hole(seat, c(cards[i : i + 2]))
>>> _ = hand.bet_or_raise_to(30, 2); _ = hand.fold(0); _ = hand.fold(1)
>>> ctx = HandContext(7, "Main", datetime(2026, 12, 2, 20, tzinfo=UTC), ["Ann", "Bob", "Cy"],
...                    [2, 4, 6], 6)
>>> print(pokerstars_text(hand, ctx))
PokerStars Hand #7: Hold'em No Limit (5/10) - 2026/12/02 20:00:00 UTC
Table 'Main' 6-max Seat #6 is the button
Seat 2: Ann (1000 in chips)
Seat 4: Bob (1000 in chips)
Seat 6: Cy (1000 in chips)
Ann: posts small blind 5
Bob: posts big blind 10
*** HOLE CARDS ***
Cy: raises 20 to 30
Ann: folds
Bob: folds
Uncalled bet (20) returned to Cy
Cy collected 25 from pot
*** SUMMARY ***
Total pot 25 | Rake 0
Seat 2: Ann (small blind) folded before Flop
Seat 4: Bob (big blind) folded before Flop
Seat 6: Cy (button) collected (25)
<BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from feltwire.cards import CardIndex, card_code
from hub.rules.betting import Action, ActionKind
from hub.rules.dealing import Deal, DealKind, Discard, ShowOrMuck
from hub.rules.errors import RulesError
from hub.rules.evaluator import (
    describe_27_low,
    describe_high,
    describe_low,
)
from hub.rules.games import Evaluation, Family, Structure
from hub.rules.hand import Hand, PostKind
from hub.rules.hand.records import Post
from hub.rules.showdown import hand_value

__all__ = ["HandContext", "Perspective", "game_title", "pokerstars_text", "posts_in_order"]


@dataclass(frozen=True, slots=True)
class Perspective:
    """Whose eyes a file is written through (see the module's docs)."""

    everything_: bool = False
    hero_seat: int | None = None
    """The hero's seat in the hand (0 … n-1, the hand's order), or None."""

    @classmethod
    def shown(cls) -> Perspective:
        return cls()

    @classmethod
    def hero(cls, seat: int) -> Perspective:
        return cls(hero_seat=seat)

    @classmethod
    def everything(cls) -> Perspective:
        return cls(everything_=True)

    def sees(self, seat: int, shown: bool) -> bool:
        """Whether this perspective sees ``seat``'s face-down cards (``shown``: the seat
        showed them at the showdown)."""
        return self.everything_ or shown or seat == self.hero_seat


@dataclass(frozen=True, slots=True)
class HandContext:
    """What the file says around the hand: its number, table and time; per seat of the
    hand (the hand's order, button last) the player's name and table seat (1 … 10)."""

    hand_id: int
    table: str
    started: datetime
    players: Sequence[str]
    table_seats: Sequence[int]
    max_seats: int
    rake: Mapping[int, int] = field(default_factory=dict)
    """The house's cut of each winner's chips (hand seat → chips; the table's
    :class:`~hub.rules.table.events.HandFinished` says it): "collected" is after it."""


_STRUCTURE = {
    Structure.NO_LIMIT: "No Limit",
    Structure.POT_LIMIT: "Pot Limit",
    Structure.FIXED_LIMIT: "Limit",
}
_BASE = {
    Evaluation.HIGH: {
        Family.BOARD: "Hold'em",
        Family.STUD: "7 Card Stud",
        Family.DRAW: "5 Card Draw",
    },
    Evaluation.OMAHA_HIGH: {Family.BOARD: "Omaha"},
    Evaluation.OMAHA_HIGH_LOW8: {Family.BOARD: "Omaha Hi/Lo"},
    Evaluation.HIGH_LOW8: {Family.STUD: "7 Card Stud Hi/Lo"},
    Evaluation.A5_LOW: {Family.STUD: "Razz"},
    Evaluation.BADUGI: {Family.DRAW: "Badugi"},
    Evaluation.SHORT_DECK_HIGH: {Family.BOARD: "6+ Hold'em"},
}
_BOARD_STREETS = ("HOLE CARDS", "FLOP", "TURN", "RIVER")
_DRAWS = ("FIRST DRAW", "SECOND DRAW", "THIRD DRAW")
_ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th")


def game_title(hand: Hand) -> str:
    """The game as PokerStars names it in a hand's first line.

    >>> from hub.rules.games import Stakes, game
    >>> game_title(Hand(game("PO/8"), Stakes.blind_game(2, 1, 2), [100, 100]))
    'Omaha Hi/Lo Pot Limit'
    """
    g = hand.game
    if g.evaluation is Evaluation.DEUCE_SEVEN_LOW:
        base = "Triple Draw 2-7 Lowball" if len(g.streets) > 2 else "Single Draw 2-7 Lowball"
    elif g.family is Family.STUD and g.evaluation is Evaluation.HIGH and len(g.streets) == 4:
        base = "5 Card Stud"
    else:
        base = _BASE[g.evaluation][g.family]
    return f"{base} {_STRUCTURE[g.structure]}"


def posts_in_order(hand: Hand) -> list[Post]:
    """The hand's forced bets as they are written: antes, the small blind, the big
    blind, then the others (straddles, dead blinds)."""
    blinds = hand.stakes.blinds
    big = max(blinds, default=0)

    def order(post: Post) -> tuple[int, int]:
        if post.kind is PostKind.ANTE:
            return (0, post.seat)
        if post.kind is PostKind.BLIND and 0 < blinds[post.seat] < big:
            return (1, post.seat)
        return (2 if blinds[post.seat] == big else 3, post.seat)

    return sorted(hand.posts, key=order)


def _cards(cards: Sequence[CardIndex]) -> str:
    return " ".join(card_code(c) for c in cards)


def _stakes(hand: Hand) -> str:
    st = hand.stakes
    if hand.game.structure is Structure.FIXED_LIMIT:
        return f"{st.small_bet}/{st.big_bet}"
    blinds = sorted(b for b in st.blinds if b)
    if len(blinds) >= 2:
        return f"{blinds[-2]}/{blinds[-1]}"
    ante = max(st.antes, default=0)
    return f"{ante}/{st.bring_in or ante}"


def _hand_name(hand: Hand, seat: int, cards: Sequence[CardIndex]) -> str:
    """The name PokerStars puts after a shown hand (``(a pair of Aces)``-style, ours)."""
    g = hand.game
    try:
        high, low = hand_value(g.evaluation, cards, hand.board)
    except RulesError:  # a hand shown with too few cards (a part shown): no name
        return ""
    if g.evaluation in (Evaluation.A5_LOW,):
        return describe_low(high)
    if g.evaluation is Evaluation.DEUCE_SEVEN_LOW:
        return describe_27_low(high)
    if g.evaluation is Evaluation.BADUGI:
        return ""
    name = describe_high(high) if g.evaluation is not Evaluation.SHORT_DECK_HIGH else ""
    if low is not None:
        name += f", and {describe_low(low)}" if name else describe_low(low)
    return name


class _Writer:
    """The text of one hand, line by line."""

    def __init__(self, hand: Hand, ctx: HandContext, view: Perspective) -> None:
        self.hand, self.ctx, self.view = hand, ctx, view
        self.lines: list[str] = []
        self.shown = {r.seat: r.cards for r in hand.log if isinstance(r, ShowOrMuck) and r.shown}
        self.mucked = {r.seat for r in hand.log if isinstance(r, ShowOrMuck) and not r.shown}
        self.bets = [0] * hand.n
        self.street = -1
        self.folded_on: dict[int, int] = {}
        self.cards: list[list[tuple[CardIndex, bool]]] = [[] for _ in range(hand.n)]
        self.replacements: dict[int, list[tuple[CardIndex, bool]]] = {}

    def name(self, seat: int) -> str:
        return self.ctx.players[seat]

    def sees(self, seat: int) -> bool:
        return self.view.sees(seat, seat in self.shown)

    # ------------------------------------------------------------------ parts

    def header(self) -> None:
        hand, ctx = self.hand, self.ctx
        when = ctx.started.astimezone(UTC).strftime("%Y/%m/%d %H:%M:%S")
        self.lines.append(
            f"PokerStars Hand #{ctx.hand_id}: {game_title(hand)} ({_stakes(hand)}) - {when} UTC"
        )
        button = ""
        if hand.game.family is not Family.STUD:
            button = f" Seat #{ctx.table_seats[hand.button]} is the button"
        self.lines.append(f"Table '{ctx.table}' {ctx.max_seats}-max{button}")
        for seat in sorted(range(hand.n), key=lambda s: ctx.table_seats[s]):
            stack = hand.starting_stacks[seat]
            self.lines.append(f"Seat {ctx.table_seats[seat]}: {self.name(seat)} ({stack} in chips)")
        big = max(hand.stakes.blinds, default=0)
        small = sorted({b for b in hand.stakes.blinds if b})
        left = list(hand.starting_stacks)
        for post in posts_in_order(hand):
            who = self.name(post.seat)
            if post.kind is PostKind.ANTE:
                what = "the ante"
            elif post.kind is PostKind.DEAD_BLIND:
                what = "dead blind"
            elif hand.stakes.blinds[post.seat] == big:
                what = "big blind"
            elif len(small) > 1 and hand.stakes.blinds[post.seat] == small[0]:
                what = "small blind"
            else:
                what = "straddle"
            left[post.seat] -= post.amount
            all_in = " and is all-in" if left[post.seat] == 0 else ""
            self.lines.append(f"{who}: posts {what} {post.amount}{all_in}")
            if post.kind is not PostKind.ANTE:
                self.bets[post.seat] += post.amount

    def street_header(self, street: int) -> None:
        if street > 0:  # the last street's betting is over
            self.return_uncalled()
            self.bets = [0] * self.hand.n
        self.street = street
        g = self.hand.game
        if g.family is Family.BOARD:
            board = [r.card for r in self.hand.log if isinstance(r, Deal)
                     and r.kind is DealKind.BOARD and r.street <= street]  # fmt: skip
            new = [r.card for r in self.hand.log if isinstance(r, Deal)
                   and r.kind is DealKind.BOARD and r.street == street]  # fmt: skip
            title = _BOARD_STREETS[min(street, 3)]
            if street == 0:
                self.lines.append(f"*** {title} ***")
            elif len(board) == len(new):
                self.lines.append(f"*** {title} *** [{_cards(new)}]")
            else:
                old = board[: len(board) - len(new)]
                self.lines.append(f"*** {title} *** [{_cards(old)}] [{_cards(new)}]")
        elif g.family is Family.STUD:
            first = 2 if len(g.streets) == 4 else 3
            self.lines.append(f"*** {_ORDINALS[first - 1 + street]} STREET ***")
        elif street == 0:
            self.lines.append("*** DEALING HANDS ***")
        else:
            self.lines.append(f"*** {_DRAWS[min(street, 3) - 1]} ***")

    def dealt(self, street: int) -> None:
        """The ``Dealt to`` lines of ``street`` (hole, stud and draw cards)."""
        hand = self.hand
        new: dict[int, list[tuple[CardIndex, bool]]] = {}
        for r in hand.log:
            if isinstance(r, Deal) and r.kind is DealKind.HOLE and r.street == street:
                assert r.seat is not None
                new.setdefault(r.seat, []).append((r.card, r.up))
        if hand.game.family is Family.DRAW and street > 0:
            self.replacements = new  # written after each seat's discard
            return
        for seat in range(hand.n):
            if seat not in new:
                continue
            before = self.cards[seat]
            self.cards[seat] = before + new[seat]
            mine = self.sees(seat)
            old = [c for c, up in before if mine or up]
            now = [c for c, up in new[seat] if mine or up]
            if not now:
                continue
            if old and hand.game.family is not Family.BOARD:
                self.lines.append(f"Dealt to {self.name(seat)} [{_cards(old)}] [{_cards(now)}]")
            else:
                self.lines.append(f"Dealt to {self.name(seat)} [{_cards(old + now)}]")

    def discard(self, r: Discard) -> None:
        who = self.name(r.seat)
        kept = [c for c, _ in self.cards[r.seat] if c not in r.cards]
        self.cards[r.seat] = [(c, False) for c in kept]
        if not r.cards:
            self.lines.append(f"{who}: stands pat")
            return
        n = len(r.cards)
        mine = self.sees(r.seat)
        shown = f" [{_cards(r.cards)}]" if mine else ""
        self.lines.append(f"{who}: discards {n} card{'s' if n > 1 else ''}{shown}")
        new = self.replacements.get(r.seat, [])
        self.cards[r.seat] += new
        if mine and new:
            self.lines.append(f"Dealt to {who} [{_cards(kept)}] [{_cards([c for c, _ in new])}]")

    def action(self, r: Action) -> None:
        who = self.name(r.seat)
        tail = " and is all-in" if r.all_in else ""
        facing = max(self.bets)
        if r.kind is ActionKind.FOLD:
            self.lines.append(f"{who}: folds")
            self.folded_on[r.seat] = self.street
        elif r.kind is ActionKind.CHECK:
            self.lines.append(f"{who}: checks")
        elif r.kind is ActionKind.CALL:
            self.lines.append(f"{who}: calls {r.amount}{tail}")
        elif r.kind is ActionKind.BRING_IN:
            self.lines.append(f"{who}: brings in for {r.amount}{tail}")
        elif r.kind is ActionKind.COMPLETE:
            self.lines.append(f"{who}: completes it to {r.to}{tail}")
        elif r.kind is ActionKind.BET or facing == 0:
            self.lines.append(f"{who}: bets {r.amount}{tail}")
        else:
            self.lines.append(f"{who}: raises {r.to - facing} to {r.to}{tail}")
        if r.kind is not ActionKind.FOLD:
            self.bets[r.seat] = r.to

    def return_uncalled(self) -> None:
        ordered = sorted(range(self.hand.n), key=lambda s: self.bets[s], reverse=True)
        if len(ordered) < 2:
            return
        top, second = ordered[0], ordered[1]
        extra = self.bets[top] - self.bets[second]
        if extra > 0:
            self.lines.append(f"Uncalled bet ({extra}) returned to {self.name(top)}")
            self.bets[top] = self.bets[second]

    def show(self, r: ShowOrMuck) -> None:
        who = self.name(r.seat)
        if r.shown:
            hole = [c for c, _ in self.cards[r.seat]]
            name = _hand_name(self.hand, r.seat, hole)
            self.lines.append(f"{who}: shows [{_cards(r.cards)}]" + (f" ({name})" if name else ""))
        else:
            self.lines.append(f"{who}: mucks hand")

    def results(self) -> None:
        self.return_uncalled()
        awards = self.hand.awards
        side = len(awards) > 1
        owed = dict(self.ctx.rake)  # taken from a winner's first share(s)
        for award in awards:
            pot = "pot" if not side else ("main pot" if award.pot == 0 else f"side pot-{award.pot}")
            for share in award.shares:
                cut = min(owed.get(share.seat, 0), share.amount)
                owed[share.seat] = owed.get(share.seat, 0) - cut
                net = share.amount - cut
                self.lines.append(f"{self.name(share.seat)} collected {net} from {pot}")

    def summary(self) -> None:
        hand = self.hand
        self.lines.append("*** SUMMARY ***")
        total = sum(a.amount for a in hand.awards)
        pots = ""
        if len(hand.awards) > 1:
            pots = (
                " Main pot "
                + ". ".join(
                    f"{a.amount}" if a.pot == 0 else f"Side pot-{a.pot} {a.amount}"
                    for a in hand.awards
                )
                + "."
            )
        rake = sum(self.ctx.rake.values())
        self.lines.append(f"Total pot {total}{pots} | Rake {rake}")
        if hand.board:
            self.lines.append(f"Board [{_cards(hand.board)}]")
        won = [0] * hand.n
        for award in hand.awards:
            for share in award.shares:
                won[share.seat] += share.amount
        for seat, cut in self.ctx.rake.items():
            won[seat] -= cut
        for seat in sorted(range(hand.n), key=lambda s: self.ctx.table_seats[s]):
            self.lines.append(
                f"Seat {self.ctx.table_seats[seat]}: {self.name(seat)}{self._role(seat)} "
                f"{self._fate(seat, won[seat])}"
            )

    def _role(self, seat: int) -> str:
        hand = self.hand
        if hand.game.family is Family.STUD:
            return ""
        button = " (button)" if seat == hand.button else ""
        blinds = hand.stakes.blinds
        big = max(blinds, default=0)
        if big and blinds[seat] == big:
            return button + " (big blind)"
        if blinds[seat]:
            return button + " (small blind)"
        return button

    def _fate(self, seat: int, won: int) -> str:
        hand = self.hand
        if seat in self.folded_on:
            street = self.folded_on[seat]
            names = {Family.BOARD: _BOARD_STREETS, Family.DRAW: ("DEALING", *_DRAWS)}
            if hand.game.family is Family.BOARD:
                where = (
                    "before Flop"
                    if street == 0
                    else f"on the {names[Family.BOARD][street].title()}"
                )
            elif hand.game.family is Family.STUD:
                first = 2 if len(hand.game.streets) == 4 else 3
                where = f"on {_ORDINALS[first - 1 + street]} St"
            else:
                where = (
                    "before the Draw"
                    if street == 0
                    else f"after {names[Family.DRAW][street].title()}"
                )
            return f"folded {where}"
        if seat in self.shown:
            cards = _cards(self.shown[seat])
            name = _hand_name(hand, seat, [c for c, _ in self.cards[seat]])
            with_name = f" with {name}" if name else ""
            if won:
                return f"showed [{cards}] and won ({won}){with_name}"
            return f"showed [{cards}] and lost{with_name}"
        if won:
            return f"collected ({won})"
        if seat in self.mucked:
            hole = [c for c, _ in self.cards[seat]]
            return (
                f"mucked [{_cards(hole)}]"
                if self.view.everything_ or seat == self.view.hero_seat
                else "mucked"
            )
        return "lost"


def pokerstars_text(hand: Hand, ctx: HandContext, view: Perspective | None = None) -> str:
    """The PokerStars-style text of a complete ``hand`` (see the module's docs)."""
    w = _Writer(hand, ctx, view if view is not None else Perspective.shown())
    w.header()
    street = -1
    showdown = False
    for r in hand.log:
        rs = getattr(r, "street", street)
        if isinstance(r, ShowOrMuck):
            if not showdown:
                w.return_uncalled()
                w.lines.append("*** SHOW DOWN ***")
                showdown = True
            w.show(r)
            continue
        if rs != street and isinstance(r, (Deal, Discard, Action)):
            street = rs
            w.street_header(street)
            w.dealt(street)
        if isinstance(r, Discard):
            w.discard(r)
        elif isinstance(r, Action):
            w.action(r)
    w.results()
    w.summary()
    return "\n".join(w.lines) + "\n"
