"""PokerKit 0.7.7 as an oracle for the rules engine: random legal hands played on both.

:func:`play_hand` builds one hand of a game from a seed (players, stacks, antes, blinds or
bring-in, a shuffled deck), plays it on our :class:`~hub.rules.hand.Hand` and on a
PokerKit ``State`` at the same time, choosing every action at random from our engine's
legal actions, and compares after every step: whose turn it is, the call amount, whether a
check is possible, whether a bet/raise is possible and its minimum and maximum, the seat to
be dealt to, the seat to draw, the seat to show; between streets and before the showdown
the pots; at the end the finishing stacks. A difference raises :class:`Mismatch`, whose
message holds the seed, the game and the hand so far as PHH-like lines.

Every known difference between PokerKit and feltwire is listed once, with an id
``D1``, ``D2`` … in ``docs/rules-divergences.md``; the filters below cite those ids and
nothing else is excused.

Run ``python -m tests.support.oracle_pokerkit [CODE ...] [--hands N]`` to play many hands
and print every kind of mismatch with its shortest reproducing seed.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import pokerkit as pk
from pokerkit import Automation, BettingStructure, Card, Deck, State
from pokerkit import Opening as PkOpening
from pokerkit import Street as PkStreet

import hub.rules.showdown
from feltwire.cards import FULL_DECK
from hub.rules.betting import Action, ActionKind
from hub.rules.dealing import DealKind
from hub.rules.errors import RulesError
from hub.rules.games import BringInTies, Family, Options, Stakes, Structure, game
from hub.rules.hand import Hand, Phase, replay
from hub.rules.pots import Half

SKIP_KNOWN_BUGS = False
"""Explorer only: excuse the engine bugs already reported, to look for others."""

__all__ = [
    "AUTOMATIONS",
    "ORACLES",
    "PK_CARDS",
    "Mismatch",
    "Outcome",
    "Result",
    "play_hand",
    "play_many",
    "play_table",
    "play_tables",
    "pokerkit_split",
]

AUTOMATIONS = (
    # What our engine does on its own: forced bets, gathering bets (and returning an
    # uncalled bet) at the end of a round, killing losing hands, awarding the pots.
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
"""PokerKit automations matching our engine; cards, burns, draws and shows stay manual."""

_RAISES = (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)

PK_CARDS: tuple[Card, ...] = tuple(next(iter(Card.parse(code))) for code in FULL_DECK)
"""Our card ints (``rank * 4 + suit``) as PokerKit cards."""
PK_UNKNOWN = next(iter(Card.parse("??")))
_PK_INDEX = {card: i for i, card in enumerate(PK_CARDS)}


# --------------------------------------------------------------------------- PokerKit states

Factory = Callable[[int, Stakes, Sequence[int], int | None], State]
"""(players, ours' stakes, stacks, the big blind's seat when the table tells it) → state."""


class _MemoHandType:
    """A PokerKit hand type whose ``from_game`` remembers its answers for one hand.

    PokerKit evaluates the same hole and board cards again and again while it kills hands
    and pushes chips (``can_win_now`` compares every hand with every other, per pot); that
    was nine tenths of the differential test's time in Omaha. The answers are PokerKit's
    own, computed once per distinct cards: nothing about the comparison changes."""

    def __init__(self, hand_type: type[pk.Hand]) -> None:
        self.hand_type = hand_type
        self.cache: dict[tuple[tuple[Card, ...], tuple[Card, ...]], pk.Hand | None] = {}

    def from_game(self, hole_cards: object, board_cards: object = ()) -> pk.Hand:
        key = (tuple(Card.clean(hole_cards)), tuple(Card.clean(board_cards)))  # type: ignore[arg-type]
        try:
            hand = self.cache[key]
        except KeyError:
            try:
                hand = self.hand_type.from_game(*key)
            except ValueError:
                hand = None
            self.cache[key] = hand
        if hand is None:
            raise ValueError(f"No valid {self.hand_type.__qualname__} hand")
        return hand


def _memoized(state: State) -> State:
    """``state`` evaluating hands through :class:`_MemoHandType` (same answers, once)."""
    state.hand_types = tuple(_MemoHandType(t) for t in state.hand_types)  # type: ignore[misc]
    return state


def _raw(values: Sequence[int], n: int) -> tuple[int, ...]:
    """Our per-seat values → PokerKit's raw values (heads-up PokerKit swaps the two)."""
    return (values[1], values[0]) if n == 2 else tuple(values)


def _forced(
    n: int, st: Stakes, stacks: Sequence[int], bb_seat: int | None
) -> tuple[bool, tuple[int, ...], tuple[int, ...]]:
    """Ours' forced bets as PokerKit's (ante trimming, raw antes, raw blinds).

    R-BLIND-4: a dead blind is dead money in the main pot: PokerKit's per-player ante
    with ante trimming off (antes out of the pot levels; ours' antes are dead too). A live
    post by a returning or new player (any blind but the big blind's and the small blind
    left of it) is PokerKit's "post bet", a negative blind: live, but not the blind the
    action starts after."""
    antes, blinds = list(st.antes), list(st.blinds)
    trimming = True
    if any(st.dead_blinds):
        for s, dead in enumerate(st.dead_blinds):
            # ours posts the ante, then the live blind, and the dead part gets what is
            # left (R-BLIND-4); PokerKit posts antes first
            ante = min(antes[s], stacks[s])
            antes[s] = ante + min(dead, max(0, stacks[s] - ante - blinds[s]))
        trimming = False
    if bb_seat is not None and n > 2:
        for s in range(n):
            if blinds[s] and s not in (bb_seat, bb_seat - 1):
                blinds[s] = -blinds[s]
    elif bb_seat is not None and n == 2 and blinds[0] == blinds[1] > 0:
        # heads-up, equal blinds: PokerKit would take the button's for the big blind; as
        # a "post bet" it is live but not the blind the action starts after (R-POS-4)
        blinds[1 - bb_seat] = -blinds[1 - bb_seat]
    return trimming, _raw(antes, n), _raw(blinds, n)


def _class_blind(cls: type, fixed: bool) -> Factory:
    def make(n: int, st: Stakes, stacks: Sequence[int], bb_seat: int | None) -> State:
        trimming, antes, blinds = _forced(n, st, stacks, bb_seat)
        if fixed:
            return cls.create_state(  # type: ignore[attr-defined, no-any-return]
                AUTOMATIONS, trimming, antes, blinds, st.small_bet, st.big_bet, stacks, n
            )
        return cls.create_state(  # type: ignore[attr-defined, no-any-return]
            AUTOMATIONS, trimming, antes, blinds, st.min_bet, stacks, n
        )

    return make


def _class_stud(cls: type) -> Factory:
    def make(n: int, st: Stakes, stacks: Sequence[int], bb_seat: int | None) -> State:
        return cls.create_state(  # type: ignore[attr-defined, no-any-return]
            AUTOMATIONS, True, st.antes, st.bring_in, st.small_bet, st.big_bet, stacks, n
        )

    return make


_STRUCTURES = {
    Structure.NO_LIMIT: BettingStructure.NO_LIMIT,
    Structure.POT_LIMIT: BettingStructure.POT_LIMIT,
    Structure.FIXED_LIMIT: BettingStructure.FIXED_LIMIT,
}


def _generic(
    hand_types: tuple[type[pk.Hand], ...], structure: Structure, hole: int, draw: bool
) -> Factory:
    """A PokerKit state built from PokerKit's own parts, for the games it has no class for
    (pot-limit hold'em, fixed-limit Omaha, Omaha hi-lo pot limit and — D1 — fixed limit,
    five-card draw). Fixed limit: a bet and three raises (PokerKit's own count, 4)."""

    def make(n: int, st: Stakes, stacks: Sequence[int], bb_seat: int | None) -> State:
        fixed = structure is Structure.FIXED_LIMIT
        small = st.small_bet if fixed else st.min_bet
        big = st.big_bet if fixed else st.min_bet
        cap = 4 if fixed else None
        first = PkStreet(False, (False,) * hole, 0, False, PkOpening.POSITION, small, cap)
        streets: tuple[PkStreet, ...]
        if draw:
            streets = (first, PkStreet(True, (), 0, True, PkOpening.POSITION, big, cap))
        else:
            streets = (
                first,
                PkStreet(True, (), 3, False, PkOpening.POSITION, small, cap),
                PkStreet(True, (), 1, False, PkOpening.POSITION, big, cap),
                PkStreet(True, (), 1, False, PkOpening.POSITION, big, cap),
            )
        trimming, antes, blinds = _forced(n, st, stacks, bb_seat)
        return State(
            AUTOMATIONS,
            Deck.STANDARD,
            hand_types,
            streets,
            _STRUCTURES[structure],
            trimming,
            antes,
            blinds,
            0,
            stacks,
            n,
        )

    return make


_OMAHA8 = (pk.OmahaHoldemHand, pk.OmahaEightOrBetterLowHand)
_HIGH = (pk.StandardHighHand,)

ORACLES: dict[str, Factory] = {
    "NT": _class_blind(pk.NoLimitTexasHoldem, False),
    "PT": _generic(_HIGH, Structure.POT_LIMIT, 2, False),
    "FT": _class_blind(pk.FixedLimitTexasHoldem, True),
    "NO": _generic((pk.OmahaHoldemHand,), Structure.NO_LIMIT, 4, False),
    "PO": _class_blind(pk.PotLimitOmahaHoldem, False),
    "FO": _generic((pk.OmahaHoldemHand,), Structure.FIXED_LIMIT, 4, False),
    "PO/8": _generic(_OMAHA8, Structure.POT_LIMIT, 4, False),
    # D1: PokerKit's FixedLimitOmahaHoldemHighLowSplitEightOrBetter is pot limit with no cap
    "FO/8": _generic(_OMAHA8, Structure.FIXED_LIMIT, 4, False),
    "NS": _class_blind(pk.NoLimitShortDeckHoldem, False),
    "F7S": _class_stud(pk.FixedLimitSevenCardStud),
    "F7S/8": _class_stud(pk.FixedLimitSevenCardStudHighLowSplitEightOrBetter),
    "FR": _class_stud(pk.FixedLimitRazz),
    "F2L3D": _class_blind(pk.FixedLimitDeuceToSevenLowballTripleDraw, True),
    "N2L1D": _class_blind(pk.NoLimitDeuceToSevenLowballSingleDraw, False),
    "FB": _class_blind(pk.FixedLimitBadugi, True),
    "N5D": _generic(_HIGH, Structure.NO_LIMIT, 5, True),
    "P5D": _generic(_HIGH, Structure.POT_LIMIT, 5, True),
    "F5D": _generic(_HIGH, Structure.FIXED_LIMIT, 5, True),
}
"""Every game both engines play. Five-card stud (``F5S``) has no PokerKit game and no
PokerKit streets can express it (PokerKit's stud openings are the seven-card ones only
for the first street, and its hand types have no five-of-five stud hand): not compared."""


def max_players(code: str) -> int:
    """The most players a differential hand of ``code`` gets (stud: 7, see D4)."""
    g = game(code)
    return 7 if g.family is Family.STUD else g.max_players


# ------------------------------------------------------------------------------- the driver


TableHand = tuple[Stakes, list[int], int | None]
"""A hand a :class:`~hub.rules.table.Table` set up: ours' stakes, the starting stacks and
the big blind's hand seat (the table knows it)."""


class _Stop(Exception):
    """The hand is not comparable from here on (an excused divergence)."""


class Mismatch(AssertionError):
    """Our engine and PokerKit disagree; ``kind`` names what differs (for grouping)."""

    def __init__(self, kind: str, text: str) -> None:
        self.kind = kind
        super().__init__(text)


@dataclass
class Outcome:
    """How a hand went: ``filtered`` lists the divergence ids that excused a difference."""

    code: str
    seed: int
    log: list[str] = field(default_factory=list)
    """The hand as PHH-like lines (``#`` lines: PokerKit-only steps and comments)."""
    steps: int = 0
    showdown: bool = False
    filtered: list[str] = field(default_factory=list)


def _stakes(code: str, rng: random.Random, n: int) -> Stakes:
    g = game(code)
    if g.family is Family.STUD:
        small = rng.choice((2, 4, 10, 20, 40))
        bring_in = rng.choice((small // 2, small // 2, rng.randint(1, small - 1)))
        ante = rng.choice((0, small // 4, small // 5, rng.randint(1, small)))
        return Stakes.stud_game(n, ante, bring_in, small, 2 * small)
    bb = rng.choice((2, 4, 10, 20, 50, 100))
    sb = rng.choice((bb // 2, bb // 2, bb // 2, rng.randint(1, bb - 1)))
    ante = 0 if rng.random() < 0.7 else rng.randint(1, max(1, bb // 2))
    return Stakes.blind_game(n, sb, bb, ante=ante, small_bet=bb, big_bet=2 * bb)


def _stacks(rng: random.Random, n: int, unit: int) -> list[int]:
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.25:
            out.append(rng.randint(1, 6 * unit))
        elif r < 0.8:
            out.append(rng.randint(6 * unit, 60 * unit))
        else:
            out.append(rng.randint(60 * unit, 250 * unit))
    return out


def _cards(cards: Sequence[int]) -> str:
    return "".join(FULL_DECK[c] if c >= 0 else "??" for c in cards)


class _Game:
    """One hand on both engines plus the action log."""

    def __init__(
        self, code: str, seed: int, players: int = 0, table: TableHand | None = None
    ) -> None:
        self.code = code
        self.seed = seed
        self.rng = rng = random.Random(f"{code}:{seed}")
        g = self.game = game(code)
        n = self.n = rng.randint(2, max_players(code))
        if players:
            n = self.n = players
        st = self.stakes = _stakes(code, rng, n)
        unit = st.small_bet if g.family is Family.STUD else st.min_bet
        self.starting = _stacks(rng, n, unit)
        bb_seat = None
        if table is not None:  # a hand a table set up: its stakes, stacks, big blind
            st, stacks, bb_seat = table
            self.stakes, self.starting = st, list(stacks)
            n = self.n = len(stacks)
        self.deck = [c for c in range(52) if c >> 2 >= g.lowest_rank]  # 36 in short deck
        rng.shuffle(self.deck)
        self.pile: list[tuple[int, int, int]] = []  # discards and burns, as ours keeps them
        self.rebuilt = False  # the stub was rebuilt in this hand (R-DEAL-5)
        self.log: list[str] = [
            f"# {code} seed={seed} players={n} stacks={self.starting} antes={list(st.antes)}"
            f" blinds={list(st.blinds)} bring_in={st.bring_in} small_bet={st.small_bet}"
            f" big_bet={st.big_bet} min_bet={st.min_bet}"
            + (f" dead_blinds={list(st.dead_blinds)}" if st.dead_blinds else "")
            + (f" big_blind=p{bb_seat + 1}" if bb_seat is not None else "")
        ]
        # PokerKit's rules: D5 (bring-in ties by suit), D18 (a blind posted short sets the
        # price; ours' default keeps the full blind, proven by the scenario tests)
        self.options = Options(bring_in_ties=BringInTies.SUIT, short_blinds_full_price=False)
        self.ours = Hand(g, st, self.starting, self.options)
        self.pk = _memoized(ORACLES[code](n, st, self.starting, bb_seat))
        self.outcome = Outcome(code, seed, self.log)
        self.pots_street = -1
        self.implicit_burn: tuple[int, str] | None = None
        self.short_round: tuple[int, str] | None = None
        self.stopped = False

    def where(self) -> tuple[int, str]:
        return self.ours.street_index, self.ours.phase.value

    # ------------------------------------------------------------------ reporting

    def fail(self, kind: str, detail: str) -> Mismatch:
        text = "\n".join(
            [
                f"{self.code} seed {self.seed}: {kind}: {detail}",
                f"reproduce: FELTWIRE_DIFF_ONLY='{self.code}:{self.seed}'",
                *self.log,
            ]
        )
        return Mismatch(f"{self.code} {kind}", text)

    def same(self, kind: str, ours: object, theirs: object) -> None:
        if ours != theirs:
            raise self.fail(kind, f"ours {ours!r}, PokerKit {theirs!r}")

    # ------------------------------------------------------------------- cards

    def next_card(self, seat: int = -1) -> tuple[int, bool]:
        """The next card from the stub; True when the stub was rebuilt (R-DEAL-5)."""
        if self.deck:
            return self.deck.pop(), False
        street = self.ours.street_index
        back = [c for c, o, s in self.pile if not (o == seat and s == street)]
        self.pile = [(c, o, s) for c, o, s in self.pile if o == seat and s == street]
        self.rng.shuffle(back)
        self.deck = back
        self.log.append(f"# the stub is rebuilt from {len(back)} discards and burns")
        if not self.deck:
            raise self.fail("deck", "no card left to deal")
        return self.deck.pop(), True

    # ------------------------------------------------------------------ the loop

    def play(self) -> Outcome:
        ours, pk_state = self.ours, self.pk
        st = self.stakes
        if any(st.dead_blinds) and any(
            stack < ante for stack, ante in zip(self.starting, st.antes, strict=True)
        ):
            # D19: a dead blind is PokerKit's dead ante with ante trimming off, which puts
            # every ante in the main pot; with an ante posted short, ours' pots (antes by
            # level) cannot be PokerKit's. The hand is not compared; the session ends.
            self.excused("D19")
            self.log.append("# an ante posted short beside a dead blind: not compared (D19)")
            self.stopped = True
            return self.outcome
        for _ in range(2000):
            self.outcome.steps += 1
            if ours.phase is Phase.COMPLETE:
                if pk_state.status and pk_state.showdown_index is not None:
                    again = pk_state.showdown_index
                    if again in ours.shown:
                        # PokerKit asks an all-in hand shown before the last (face-down)
                        # card to show again; ours keeps a shown hand shown
                        pk_state.show_or_muck_hole_cards(True)
                        self.log.append(f"# p{again + 1} sm (PokerKit only: shown again)")
                        continue
                    if sum(pk_state.statuses) == 1:
                        # D10: every other hand was mucked; ours awards the pot at once,
                        # PokerKit still asks the last hand to show or muck
                        self.excused("D10")
                        last = pk_state.showdown_index
                        pk_state.show_or_muck_hole_cards(True)
                        self.log.append(f"# p{last + 1} sm (PokerKit only, D10)")
                        continue
                if pk_state.status:
                    raise self.fail("end", f"ours is over, PokerKit is not ({self.pk_where()})")
                self.compare_end()
                return self.outcome
            if not pk_state.status:
                raise self.fail("end", f"PokerKit is over, ours is in {ours.phase.value}")
            self.compare_pots_between_streets()
            if self.draw_burn_nobody_drew():
                continue
            if pk_state.showdown_index is not None:
                self.showdown_step()
            elif ours.phase is Phase.BETTING:
                try:
                    self.betting_step()
                except _Stop:
                    self.stopped = True
                    return self.outcome
            elif pk_state.actor_index is not None:
                if self.pointless_check():
                    continue
                raise self.fail(
                    "turn",
                    f"PokerKit has seat {pk_state.actor_index} to act,"
                    f" ours is in {ours.phase.value}",
                )
            elif ours.phase is Phase.DRAWING and ours.drawer is not None:
                self.draw_step()
            elif ours.phase in (Phase.DEALING, Phase.DRAWING):
                if not self.deal_step():
                    self.stopped = True
                    return self.outcome
            elif ours.phase is Phase.SHOWDOWN:
                raise self.fail(
                    "showdown",
                    f"ours waits for seat {ours.shower} to show,"
                    f" PokerKit for nobody ({self.pk_where()})",
                )
            else:  # pragma: no cover
                raise self.fail("phase", ours.phase.value)
        raise self.fail("loop", "the hand does not end")

    def pk_where(self) -> str:
        p = self.pk
        return (
            f"street {p.street_index}, actor {p.actor_index}, showdown {p.showdown_index},"
            f" burn {p.card_burning_status}, hole {p.hole_dealee_index},"
            f" board {p.board_dealing_count}, draw {p.stand_patter_or_discarder_index}"
        )

    def pointless_check(self) -> bool:
        """D13: PokerKit asks the only player with chips to act although it already has the
        highest bet and nobody could call a bet; ours closes the round."""
        p = self.pk
        seat = p.actor_index
        assert seat is not None
        others = [i for i in range(self.n) if i != seat and p.statuses[i]]
        if p.checking_or_calling_amount == 0 and all(p.stacks[i] == 0 for i in others):
            p.check_or_call()
            self.log.append(f"# p{seat + 1} cc (PokerKit only, D13)")
            self.excused("D13")
            return True
        return False

    # ----------------------------------------------------------------- dealing

    def draw_burn_nobody_drew(self) -> bool:
        """D7: PokerKit burns in a draw round even when every player stood pat."""
        p = self.pk
        if (
            p.card_burning_status
            and p.street is not None
            and p.street.draw_status
            and p.stand_patter_or_discarder_index is None
            and p.street_index is not None
            and not p.discarded_cards[p.street_index]
        ):
            if p.deck_cards:
                p.burn_card(PK_UNKNOWN)
            else:
                # D8: PokerKit's deck is used up; it warns that it burns from its reserve
                # (the mucked hands and the discards), which ours never rebuilds for nothing
                with warnings.catch_warnings():
                    warnings.filterwarnings("ignore", message="Returning reserved")
                    p.burn_card(PK_UNKNOWN)
                self.excused("D8")
            self.log.append("# d burn ?? (PokerKit only: nobody drew, D7)")
            self.excused("D7")
            return True
        return False

    def deal_step(self) -> bool:
        ours, p = self.ours, self.pk
        expected = ours.expected()
        if not expected:
            raise self.fail("deal", f"ours expects no card ({ours.phase.value})")
        first = expected[0]
        if first.kind is DealKind.BURN and self.implicit_burn == self.where():
            first = expected[1]  # PokerKit has burnt; ours burns when the next card comes
        if first.kind is DealKind.BURN or p.card_burning_status:
            if not p.card_burning_status:
                raise self.fail("burn", "ours expects a burn, PokerKit does not")
            # R-DEAL-5: a stub that runs out at the burn is rebuilt without the discards of
            # the player served next (the first one owed cards)
            served = next((e.seat for e in expected if e.kind is DealKind.HOLE), None)
            card, rebuilt = self.next_card(-1 if served is None else served)
            self.pk_deal(p.burn_card, card, rebuilt)
            self.pile.append((card, -1, ours.street_index))
            if first.kind is DealKind.BURN and self.rng.random() < 0.5:
                ours.burn(card)
                self.log.append(f"d burn {_cards([card])}")
            else:
                self.implicit_burn = self.where()
                self.log.append(f"# d burn {_cards([card])} (PokerKit; ours burns implicitly)")
            return True
        if first.kind is DealKind.HOLE:
            assert first.seat is not None
            if p.hole_dealee_index is None:
                if self.game.family is Family.STUD and p.board_dealing_count:
                    raise self.fail("deal", "PokerKit deals a community card, ours hole cards")
                raise self.fail(
                    "deal", f"ours deals to seat {first.seat}, PokerKit nowhere ({self.pk_where()})"
                )
            self.same("hole dealee", first.seat, p.hole_dealee_index)
            if ours.phase is Phase.DEALING:
                self.same("card face up", first.up, p.hole_dealing_statuses[first.seat][0])
            card, rebuilt = self.next_card(first.seat)
            self.pk_deal(p.deal_hole, card, rebuilt)
            ours.deal_hole(first.seat, card)
            self.log.append(f"d dh p{first.seat + 1} {_cards([card])}")
            return True
        # a board card
        if self.game.family is Family.STUD:
            # D4 (R-DEAL-4): ours deals 7th street as one community card when the stub is
            # too short; PokerKit runs out of cards. Not comparable from here on.
            self.outcome.filtered.append("D4")
            self.log.append("# ours deals a community card (R-DEAL-4); comparison stops (D4)")
            return False
        if not p.board_dealing_count:
            raise self.fail("deal", f"ours deals a board card, PokerKit not ({self.pk_where()})")
        card, rebuilt = self.next_card()
        self.pk_deal(p.deal_board, card, rebuilt)
        ours.deal_board(card)
        self.log.append(f"d db {_cards([card])}")
        return True

    def pk_deal(self, op: Callable[..., object], card: int, rebuilt: bool) -> None:
        self.rebuilt |= rebuilt
        if self.rebuilt or not self.deck:
            # D8 (R-DEAL-5): PokerKit warns whenever it deals from its reserve (the muck,
            # burns and discards); ours rebuilds the stub from discards and burns only —
            # so every card dealt from a rebuilt stub, not only the first (a stub rebuilt
            # at the burn, then a replacement card: F2L3D seed 1141175).
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message="Returning reserved")
                warnings.filterwarnings("ignore", message="A card being dealt")
                op(PK_CARDS[card])
            if "D8" not in self.outcome.filtered:
                self.outcome.filtered.append("D8")
        else:
            op(PK_CARDS[card])

    def draw_step(self) -> None:
        ours, p = self.ours, self.pk
        seat = ours.drawer
        assert seat is not None
        self.same("drawer", seat, p.stand_patter_or_discarder_index)
        hole = ours.hole[seat]
        k = self.rng.choice((0, 0, 1, 1, 2, 3, len(hole)))
        k = min(k, len(hole))
        cards = self.rng.sample(hole, k)
        p.stand_pat_or_discard([PK_CARDS[c] for c in cards])
        ours.discard(seat, cards)
        for c in cards:
            self.pile.append((c, seat, ours.street_index))
        self.log.append(f"p{seat + 1} sd {_cards(cards)}")

    # ----------------------------------------------------------------- betting

    def betting_step(self) -> None:
        ours, p, rng = self.ours, self.pk, self.rng
        la = ours.legal_actions()
        seat = la.seat
        if self.short_round != self.where():
            self.short_round = None
        self.same("actor", seat, p.actor_index)
        self.same("stacks", list(ours.stacks), list(p.stacks))
        self.same("bets", list(ours.bets), list(p.bets))
        self.same("can bring in", la.can_bring_in, p.can_post_bring_in())
        if la.can_bring_in:
            self.same("bring-in amount", la.bring_in_amount, p.effective_bring_in_amount)
        else:
            pk_call = p.checking_or_calling_amount
            self.same("call amount", la.call_amount, pk_call)
            self.same("can check", la.can_check, pk_call == 0)
        may_raise = la.can_bet_or_raise
        alt = False
        if la.can_bet_or_raise != p.can_complete_bet_or_raise_to():
            self.excuse_can_raise(la.can_bet_or_raise)
            may_raise = False
        elif la.can_bet_or_raise:
            lo = p.min_completion_betting_or_raising_to_amount
            hi = p.max_completion_betting_or_raising_to_amount
            if self.short_round is not None and (la.min_to, la.max_to) != (lo, hi):
                self.excused("D12")  # the amounts after a short fixed-limit all-in
                may_raise = False
            else:
                self.same("min raise-to", la.min_to, lo)
                if self.open_pair_big_bet(la.min_to, la.max_to, hi):
                    alt = True  # D6: the big bet on 4th street after an open pair
                else:
                    self.same("max raise-to", la.max_to, hi)
        # choose an action among ours' legal ones (never a fold when a check is free: D2)
        choices: list[str] = []
        if la.can_bring_in:
            choices += ["bring-in"] * 3
        if la.call_amount > 0 and la.can_fold:
            choices += ["fold"] * 2
        if la.can_check or la.can_call:
            choices += ["call"] * 5
        if may_raise:
            choices += ["min"] * 2 + ["max", "mid", "mid"]
            if ours.can_all_in():
                choices.append("all-in")
        if not choices:  # a bring-in that may only complete
            choices.append("min")
        what = rng.choice(choices)
        if what == "fold":
            ours.fold(seat)
            p.fold()
            self.log.append(f"p{seat + 1} f")
        elif what == "call":
            ours.check_or_call(seat)
            p.check_or_call()
            self.log.append(f"p{seat + 1} cc")
        elif what == "bring-in":
            ours.bring_in(seat)
            p.post_bring_in()
            self.log.append(f"p{seat + 1} pb")
        else:
            hi = la.min_to if alt else la.max_to
            if what == "min":
                to = la.min_to
            elif what == "max":
                to = hi
            elif what == "mid":
                to = rng.randint(la.min_to, hi)
            else:
                to = ours.bets[seat] + ours.stacks[seat]
                if alt:  # D6: an all-in between the small and the big bet is ours only
                    to = min(to, la.min_to)
            if (
                self.game.structure is Structure.FIXED_LIMIT
                and to == ours.bets[seat] + ours.stacks[seat]
            ):
                st, street = self.stakes, ours.street
                full = (
                    st.small_bet
                    if la.is_completion
                    else ours.current_bet + (st.big_bet if street.big_bet else st.small_bet)
                )
                if to < full:
                    self.short_round = self.where()  # D12 applies for the rest of the round
            ours.bet_or_raise_to(to, seat)
            p.complete_bet_or_raise_to(to)
            self.log.append(f"p{seat + 1} cbr {to}")

    def excused(self, entry: str) -> None:
        self.outcome.filtered.append(entry)

    def why_not_raise(self) -> str:
        """The rule id of ours' refusal to raise now ("" when ours would allow it)."""
        ours = self.ours
        seat = ours.actor
        assert seat is not None
        try:
            ours.verify_bet_or_raise_to(ours.bets[seat] + ours.stacks[seat], seat)
        except RulesError as exc:
            return exc.rule
        return ""

    def excuse_can_raise(self, ours_can: bool) -> None:
        """A raise one engine allows and the other refuses: excused only by D11, D12, D15."""
        p = self.pk
        g = self.game
        fixed = g.structure is Structure.FIXED_LIMIT
        if not ours_can:
            rule = self.why_not_raise()
            first_blind_round = g.uses_blinds and self.ours.street_index == 0
            capped = rule == "R-BET-4" and fixed and first_blind_round
            if capped and p.completion_betting_or_raising_count == 3:
                return self.excused("D11")  # PokerKit: 4 raises over the big blind
            if rule == "R-BET-6" and not fixed:
                return self.excused("D15")  # PokerKit: a first short all-in reopens
        if fixed and self.short_round is not None:
            return self.excused("D12")
        if ours_can and not fixed and self.summed_short_all_ins():
            return self.excused("D17")  # PokerKit: short all-ins never add up
        ours_h = self.ours
        seat = ours_h.actor
        if ours_can and all(
            ours_h.bets[o] + ours_h.stacks[o] <= ours_h.current_bet
            for o in ours_h.in_hand
            if o != seat
        ):
            if SKIP_KNOWN_BUGS:
                return self.excused("BUG1")
            raise self.fail(
                "engine bug 1: raise that no other player can call",
                "ours offers a raise although every other player is all in or cannot cover"
                " the current bet; PokerKit (and R-BET-7's own message) allow only call/fold",
            )
        raise self.fail("can raise", f"ours {ours_can}, PokerKit {not ours_can}")

    def summed_short_all_ins(self) -> bool:
        """D17 (R-BET-6): since the actor last acted, only short all-in raises came, at
        least two, and ours reopens because together they make a full raise (TDA)."""
        ours = self.ours
        seat, street = ours.actor, ours.street_index
        acts = [r for r in ours.log if isinstance(r, Action) and r.street == street]
        mine = [i for i, r in enumerate(acts) if r.seat == seat]
        if not mine:
            return False
        later = [r for r in acts[mine[-1] + 1 :] if r.kind in _RAISES]
        return len(later) >= 2 and all(r.all_in and not r.reopens for r in later)

    def open_pair_big_bet(self, lo: int, hi: int, pk_hi: int | None) -> bool:
        """D6 (R-BET-9): ours lets 4th street be bet at the big bet after an open pair;
        PokerKit has no such option. True when that is the only difference."""
        g = self.game
        street = g.streets[self.ours.street_index]
        fixed = g.structure is Structure.FIXED_LIMIT
        if fixed and street.open_pair_big_bet and hi > lo and pk_hi == lo:
            self.outcome.filtered.append("D6")
            return True
        return False

    # ---------------------------------------------------------------- showdown

    def compare_pots_between_streets(self) -> None:
        ours, p = self.ours, self.pk
        due = ours.phase is Phase.SHOWDOWN or p.showdown_index is not None
        if ours.phase is Phase.DEALING and not any(ours.bets):
            due = due or ours.street_index != self.pots_street
        if not due or self.pots_street == 100 + ours.street_index:
            return
        if any(p.bets):  # PokerKit has not gathered the bets yet
            return
        self.pots_street = ours.street_index + (100 if ours.phase is Phase.SHOWDOWN else 0)
        mine = [(pot.amount, tuple(pot.eligible)) for pot in ours.pots()]
        theirs = [(pot.amount, tuple(pot.player_indices)) for pot in p.pots]
        self.same("pots", mine, theirs)

    def showdown_step(self) -> None:
        ours, p = self.ours, self.pk
        seat = p.showdown_index
        assert seat is not None
        self.outcome.showdown = True
        if ours.phase is Phase.SHOWDOWN and ours.shower != seat:
            # R-SHOW-1: both ask the same seat first. In an all-in showdown (one player
            # with chips at most) ours takes the hands in any order (R-SHOW-4)
            if sum(ours.stacks[s] > 0 for s in ours.in_hand) > 1:
                self.same("shower", ours.shower, seat)
        elif ours.phase is Phase.BETTING:
            raise self.fail("showdown", f"PokerKit shows seat {seat}, ours is betting")
        if not p.all_in_status and ours.can_muck(seat) and self.rng.random() < 0.3:
            ours.muck(seat)
            p.show_or_muck_hole_cards(False, seat)
            self.log.append(f"p{seat + 1} sm")
        else:
            ours.show(seat)
            p.show_or_muck_hole_cards(True, seat)
            self.log.append(f"p{seat + 1} sm {_cards(ours.hole[seat])}")

    def pk_split(self) -> list[int]:
        """Ours' finishing stacks with the pots divided PokerKit's way (D9)."""
        return pokerkit_split(self.ours)

    def with_pokerkit_short_deck_ranking(self) -> list[int]:
        """Ours' finishing stacks (divided PokerKit's way, D9) when the hand is replayed
        with a straight ranked above three of a kind, as PokerKit ranks short deck."""
        module = hub.rules.showdown
        original = module.short_deck_value
        module.short_deck_value = _pokerkit_short_deck_value
        try:
            again = replay(self.game, self.stakes, self.starting, self.ours.log, self.options)
        finally:
            module.short_deck_value = original
        saved, self.ours = self.ours, again
        try:
            return self.pk_split()
        finally:
            self.ours = saved

    def compare_end(self) -> None:
        ours, p = self.ours, self.pk
        mine, theirs = list(ours.stacks), list(p.stacks)
        self.same("chips", sum(mine), sum(theirs))
        if mine == theirs:
            return
        awards = ours.awards
        if self.game.evaluation.hi_lo:
            has_low = any(s.half is Half.LOW for a in awards for s in a.shares)
            if has_low and any(a.no_low and not a.uncontested for a in awards):
                # D3: PokerKit gives a side pot's low half to every eligible hand when none
                # of them has a low but a player outside that pot has one
                self.outcome.filtered.append("D3")
                return
        if self.pk_split() == theirs:
            # D9 (R-POT-1..4): PokerKit merges pots with the same contenders and gives the
            # whole remainder of a split to the first winner by seat; ours splits every pot
            # on its own, one odd chip each, by seat or (stud) by the highest card showing
            self.excused("D9")
            return
        if self.code == "NS" and self.with_pokerkit_short_deck_ranking() == theirs:
            # D16 (R-CARD-2): ours ranks short deck by Triton rules (three of a kind beats
            # a straight); PokerKit has the straight higher. Replayed with PokerKit's
            # order, ours must finish exactly as PokerKit did.
            self.excused("D16")
            return
        raise self.fail("finishing stacks", f"ours {mine}, PokerKit {theirs}")


def pokerkit_split(ours: Hand) -> list[int]:
    """Ours' finishing stacks with the pots divided PokerKit's way (D9): once the losing
    hands are killed, adjacent pots with the same remaining contenders are merged, and
    a split gives equal parts with the whole remainder to the first winner by seat."""
    stacks = list(ours.stacks)
    winners = {share.seat for award in ours.awards for share in award.shares}
    groups: list[tuple[tuple[int, ...], list[int], dict[Half, list[int]]]] = []
    for award in ours.awards:
        for share in award.shares:
            stacks[share.seat] -= share.amount
        contenders = tuple(s for s in award.eligible if s in winners)
        halves: dict[Half, list[int]] = {}
        for share in award.shares:
            halves.setdefault(share.half, []).append(share.seat)
        if groups and groups[-1][0] == contenders:
            groups[-1][1][0] += award.amount
        else:
            groups.append((contenders, [award.amount], halves))
    for _, (amount,), halves in groups:
        parts = [(half, amount) for half in halves]
        if Half.LOW in halves:
            parts = [(Half.HIGH, amount - amount // 2), (Half.LOW, amount // 2)]
        for half, part in parts:
            seats = sorted(halves[half])
            q, r = divmod(part, len(seats))
            for s in seats:
                stacks[s] += q + (r if s == seats[0] else 0)
    return stacks


_CATEGORY = 13**5
"""``_five_short_deck`` values are ``category * 13**5 + kickers``."""


def _pokerkit_short_deck_value(cards: Sequence[int]) -> int:
    """Short-deck strength as PokerKit ranks it (D16): a straight (category 3 in ours)
    above three of a kind (4); everything else as ours."""
    best = 0
    for five in combinations(cards, 5):
        value = hub.rules.showdown._five_short_deck(five)
        category = value // _CATEGORY
        if category == 3:
            value += _CATEGORY
        elif category == 4:
            value -= _CATEGORY
        best = max(best, value)
    return best


def play_hand(code: str, seed: int, players: int = 0) -> Outcome:
    """Play hand ``seed`` of ``code`` on both engines (warnings are errors inside);
    ``players`` fixes the table size (default: a random one)."""
    game_ = _Game(code, seed, players)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return game_.play()
        except Mismatch:
            raise
        except Exception as exc:  # an engine refused what the other allowed
            raise game_.fail(f"error {type(exc).__name__}", f"{exc}".splitlines()[0][:300]) from exc


# ----------------------------------------------------------------- hands a table sets up

TABLE_HANDS = 6
"""Hands per table session of :func:`play_table`."""


def _buy_in(rng: random.Random, bb: int, most: int) -> int:
    r = rng.random()
    if r < 0.25:  # short: all in for the blind, or soon after (R-BET-2)
        return rng.randint(1, 3 * bb)
    return rng.randint(3 * bb, most)


def play_table(code: str, seed: int) -> Outcome:
    """A session of :data:`TABLE_HANDS` hands of the blind game ``code`` at a
    :class:`~hub.rules.table.Table`, each hand played on both engines with the stakes the
    table set: equal blinds (SB == BB) in a quarter of the sessions; short stacks all in
    for a blind; players who sit out and come back posting their missed blinds live and
    dead, new players posting the big blind (R-BLIND-3, R-BLIND-4); misdeals, whose redeal
    must keep the button and the stacks (R-DEAL-6); top-ups bought during a hand, which
    may not lift a stack over the maximum when they are delivered (R-BUY-4)."""
    from hub.rules.table import NotEnoughPlayersError, Table, TableConfig

    rng = random.Random(f"table:{code}:{seed}")
    g = game(code)
    bb = rng.choice((2, 4, 10, 20, 50, 100))
    sb = rng.choice((bb // 2, bb // 2, bb, rng.randint(1, bb)))
    ante = 0 if rng.random() < 0.8 else rng.randint(1, max(1, bb // 2))
    most = 100 * bb
    table = Table(
        TableConfig(g, small_blind=sb, big_blind=bb, ante=ante, min_buy_in=1, max_buy_in=most)
    )
    seats = sorted(rng.sample(range(1, 11), rng.randint(2, min(9, g.max_players))))
    joined = len(seats)
    for t in seats:
        table.join(t, f"P{t}", _buy_in(rng, bb, most), now=0.0)
    log = [f"# table session {code}:{seed}: blinds {sb}/{bb} ante {ante} max buy-in {most}"]
    outcome = Outcome(code, seed, log)

    def fail(kind: str, detail: str) -> Mismatch:
        text = "\n".join(
            [
                f"{code} table session {seed}: {kind}: {detail}",
                f"reproduce: FELTWIRE_DIFF_ONLY='table:{code}:{seed}'",
                *log,
            ]
        )
        return Mismatch(f"{code} table: {kind}", text)

    delivered: dict[int, tuple[int, int]] = {}  # seat -> (stack after the hand, bought)
    for h in range(TABLE_HANDS):
        now = 60.0 * (h + 1)
        players = table.players
        # between hands: sit out, come back posting, a rebuy, a new player
        for t, pl in list(players.items()):
            if pl.sitting_out and rng.random() < 0.5:
                table.come_back(t)
                log.append(f"# seat {t} comes back, posting")
            elif not pl.sitting_out and rng.random() < 0.08 and table.can_sit_out(t):
                table.sit_out(t)
                log.append(f"# seat {t} sits out")
            elif pl.stack == 0 and rng.random() < 0.7:
                amount = _buy_in(rng, bb, most)
                if table.can_add_chips(t, amount, now):
                    table.add_chips(t, amount, now)
                    log.append(f"# seat {t} rebuys {amount}")
        empty = [t for t in range(1, 11) if t not in players]
        if empty and len(players) < g.max_players and rng.random() < 0.2:
            t = rng.choice(empty)
            joined += 1
            table.join(t, f"P{t}.{joined}", _buy_in(rng, bb, most), now=now)
            log.append(f"# seat {t} joins, posting")
        ready = [t for t, pl in table.players.items() if not pl.sitting_out and pl.stack]
        button = rng.choice(ready) if ready and table.big_blind_seat is None else None
        try:
            setup = table.start_hand(now, button=button)
        except NotEnoughPlayersError:
            continue
        for t, (after, bought) in delivered.items():
            stack = table.players[t].stack if t in table.players else 0
            if stack > max(most, after):
                raise fail(
                    "top-up over the maximum (R-BUY-4)",
                    f"seat {t} finished the hand with {after} and bought {bought} during"
                    f" it: starts hand {h + 1} with {stack}, over the maximum {most}",
                )
        delivered = {}
        if rng.random() < 0.15:  # R-DEAL-6: a misdeal; the redeal keeps the button
            table.misdeal()
            again = table.start_hand(now)
            same = (again.button, again.seats, again.stakes, again.starting_stacks)
            if same != (setup.button, setup.seats, setup.stakes, setup.starting_stacks):
                raise fail(
                    "redeal after a misdeal (R-DEAL-6)",
                    f"button {setup.button} seats {setup.seats} stacks"
                    f" {setup.starting_stacks}; redealt: button {again.button} seats"
                    f" {again.seats} stacks {again.starting_stacks}",
                )
            log.append(f"# hand {h + 1}: misdeal, redealt")
            setup = again
        started = table.current
        assert started is not None
        bb_seat = None if started.big_blind is None else setup.hand_seat(started.big_blind)
        if rng.random() < 0.3:  # a top-up bought during the hand (R-BUY-5: delivered later)
            t = rng.choice(setup.seats)
            amount = rng.randint(1, most)
            if table.can_add_chips(t, amount, now):
                table.add_chips(t, amount, now)
                log.append(f"# seat {t} buys {amount} during hand {h + 1}")
                delivered[t] = (0, amount)
        log.append(
            f"# hand {h + 1}: seats {setup.seats} button {setup.button}"
            f" big blind {started.big_blind}"
        )
        stacks = list(setup.starting_stacks)
        one = _Game(code, seed * 100 + h, table=(setup.stakes, stacks, bb_seat))
        one.log[:0] = log
        log = one.log  # the session so far, then this hand
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                played = one.play()
            except Mismatch as exc:
                first = str(exc).split("\n", 1)[0].split(": ", 1)[-1]
                raise fail(exc.kind.removeprefix(f"{code} "), first) from exc
            except Exception as exc:  # an engine refused what the other allowed
                raise fail(f"error {type(exc).__name__}", f"{exc}".splitlines()[0][:300]) from exc
        outcome.filtered += played.filtered
        outcome.showdown |= played.showdown
        outcome.steps += played.steps
        if one.stopped:  # not played to the end: the session ends here
            break
        table.finish_hand(one.ours, now=now)
        for t in delivered:
            after = table.players[t].stack if t in table.players else 0
            delivered[t] = (after, delivered[t][1])
    return outcome


Result = tuple[bool, tuple[str, ...], str, str]
"""One hand's result as plain data (it crosses processes): (went to a showdown, the
divergence ids that excused something, mismatch kind or "" when the engines agreed,
mismatch text)."""


def play_tables(code: str, seeds: Sequence[int]) -> list[Result]:
    """:func:`play_table` for ``seeds`` (a worker of the differential test's pool)."""
    return _results(play_table, code, seeds)


def play_many(code: str, seeds: Sequence[int]) -> list[Result]:
    """Play hands ``seeds`` of ``code`` (a worker of the differential test's pool)."""
    return _results(play_hand, code, seeds)


def _results(play: Callable[[str, int], Outcome], code: str, seeds: Sequence[int]) -> list[Result]:
    """``play(code, seed)`` for each of ``seeds``, as plain :data:`Result` data; a
    mismatch is a result, not an error."""
    out: list[Result] = []
    for seed in seeds:
        try:
            outcome = play(code, seed)
        except Mismatch as mismatch:
            out.append((False, (), mismatch.kind, str(mismatch)))
        else:
            out.append((outcome.showdown, tuple(sorted(set(outcome.filtered))), "", ""))
    return out


def _explore(argv: Sequence[str] | None = None) -> None:  # pragma: no cover - a tool
    import argparse
    import time

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("codes", nargs="*", default=list(ORACLES))
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--skip-known", action="store_true")
    args = parser.parse_args(argv)
    global SKIP_KNOWN_BUGS
    SKIP_KNOWN_BUGS = args.skip_known
    for code in args.codes:
        kinds: dict[str, tuple[int, int, str]] = {}
        filtered: dict[str, int] = {}
        t0 = time.perf_counter()
        for seed in range(args.start, args.start + args.hands):
            try:
                out = play_hand(code, seed)
                for f in set(out.filtered):
                    filtered[f] = filtered.get(f, 0) + 1
            except Mismatch as m:
                text = str(m)
                count, best_len, best = kinds.get(m.kind, (0, 10**9, ""))
                size = text.count("\n")
                if size < best_len:
                    best_len, best = size, text
                kinds[m.kind] = (count + 1, best_len, best)
        dt = time.perf_counter() - t0
        print(f"== {code}: {args.hands} hands in {dt:.1f}s; filtered {filtered}")
        for kind, (count, _, text) in sorted(kinds.items(), key=lambda kv: -kv[1][0]):
            print(f"-- {kind}: {count} hands; shortest:\n{text}\n")


if __name__ == "__main__":  # pragma: no cover
    _explore()
