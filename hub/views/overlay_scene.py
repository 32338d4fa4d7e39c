"""The broadcast overlay's picture as a pure projection of the live table.

:func:`overlay_picture` answers what the overlay shows from what the hub knows *now* —
the rules' hand and table, the cards on every antenna, the last equity figures — the way
:func:`hub.views.table.players_view` answers for the public. Nothing is re-derived: the
stacks, bets, pot, the uncalled bet's return, who folded or is all in are the rules'
own; once pots are awarded, each seat's equity is its share of the chips awarded (the
figures agree with the result). The app pushes the picture into the overlay's delay as a
snapshot (a ``state`` frame) after every change, so what a page sees is the table as of
the delay.

Two sources, the richer one winning: with the rules running (a hand
started), players, chips, the board and the hole cards come from the hand, a hole card
the rules have not learnt yet from the seat's antenna; without rules, every seat whose
antenna holds a card is a player and the board is what lies on the board antennas.

>>> scene = OverlayScene(antennas={"seat2": ("As", "Kd"), "board": ("2c",)})
>>> picture = overlay_picture(scene)
>>> picture.rules, [(p.seat, p.cards) for p in picture.players], picture.board
(False, [(2, ['As', 'Kd'])], ['2c'])
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from feltwire.cards import CardIndex, card_code
from feltwire.protocol import (
    AwardPayout,
    EquityFrame,
    EquitySummary,
    LastAction,
    OverlayAward,
    OverlayAwardText,
    OverlayClock,
    OverlayLevel,
    OverlayPicture,
    OverlayPlayer,
    OverlayStakes,
    PlayerEquity,
    PotAwardRecord,
    seat_of,
)
from feltwire.protocol.texts import AwardLine
from hub.equity import EquityGame, Spot, SpotError, game_for_code
from hub.equity.names import describe_hands
from hub.rules.betting import Action
from hub.rules.dealing import ShowOrMuck
from hub.rules.pots import Pot
from hub.rules.procedure import DealingMonitor
from hub.rules.setup import HandSetup
from hub.rules.table import SeatedPlayer, Table
from hub.rules.tournament import Level, Tournament

__all__ = [
    "BOARD_READERS",
    "SEAT_EQUITY",
    "OverlayScene",
    "equity_summary",
    "overlay_clock",
    "overlay_picture",
    "seat_cards",
]

BOARD_READERS = ("board", "flop1", "flop2", "flop3", "turn", "river")
"""The board antennas, in the order their cards are dealt."""

SEAT_EQUITY = ("equity", "win", "tie", "hand_name", "high", "low", "outs", "split_outs")
"""The fields of a seat's equity the picture passes on."""


@dataclass(frozen=True)
class OverlayScene:
    """What the overlay's picture is a projection of: the live table as the hub has it.

    ``antennas``: every card on every antenna (the hub's presence snapshot); ``table``,
    ``monitor``, ``setup``: the rules' table and the current (or last) hand's monitor and
    setup (None: the hub runs no rules, or no hand started yet); ``in_hand``: a hand runs;
    ``blinds``: the seats of the hand's small and big blind; ``pots``: the hand's pot
    awards so far (:func:`hub.views.alerts.award_record_model` of its ``PotAwarded``
    events, kept until the next hand starts); ``awards``: the read-outs
    of the last hand's end (what ``hand_end`` carried); ``equity``: the last equity frame;
    ``unknown``: the readers whose node is offline (left out of ``antennas``; the picture
    names them); ``clock``: the tournament clock (:func:`overlay_clock`; None: a cash
    game); ``faces``: a player's country and photo file, by name (from their record).
    """

    antennas: Mapping[str, Sequence[str]]
    table: Table | None = None
    monitor: DealingMonitor | None = None
    setup: HandSetup | None = None
    in_hand: bool = False
    blinds: tuple[int | None, int | None] = (None, None)
    pots: Sequence[PotAwardRecord] = ()
    awards: Sequence[AwardLine] = ()
    equity: EquityFrame | None = field(default=None)
    unknown: frozenset[str] = frozenset()
    clock: OverlayClock | None = None
    faces: Mapping[str, tuple[str | None, str | None]] = field(default_factory=dict)


def overlay_clock(tournament: Tournament, now: float) -> OverlayClock:
    """The tournament clock at ``now`` as the picture holds it: while it runs, when the
    level ends on the hub's time (so the picture does not change as the seconds pass);
    the time left when it stands (paused, not started, or the last level's time up).

    >>> from hub.rules.tournament import Level
    >>> t = Tournament([Level(10, 20, minutes=15), Level(15, 30, 5, 15)], 3000)
    >>> _ = t.start(now=0.0)
    >>> c = overlay_clock(t, 60.0)
    >>> c.level, c.ends_at, c.time_left, c.next.big_blind
    (1, 900.0, None, 30)
    """
    t = tournament
    number = t.level_number(now)
    level = t.levels[number - 1]
    left = t.time_left(now)
    runs = t.running and left > 0
    nxt = t.levels[number] if number < len(t.levels) else None
    return OverlayClock(
        level=number,
        levels=len(t.levels),
        small_blind=level.small_blind,
        big_blind=level.big_blind,
        ante=level.ante,
        started=t.started_at is not None,
        paused=t.paused,
        time_left=None if runs else round(left, 3),
        ends_at=round(now + left, 3) if runs else None,
        next=None if nxt is None else OverlayLevel(**_level(nxt)),
    )


def _level(level: Level) -> dict[str, int]:
    return {"small_blind": level.small_blind, "big_blind": level.big_blind, "ante": level.ante}


def seat_cards(antennas: Mapping[str, Sequence[str]], seat: int) -> list[str]:
    """The cards on a seat's antennas (its hole antenna and, in stud, its up cards)."""
    return [*antennas.get(f"seat{seat}", ()), *antennas.get(f"up{seat}", ())]


def equity_summary(equity: EquityFrame | None, board: list[str]) -> EquitySummary | None:
    """The equity figures' state for the board shown (None: no figures for any seat)."""
    if equity is None or not equity.players:
        return None
    return EquitySummary(
        exact=equity.exact,
        error=equity.error,
        low=equity.low,
        stale=list(equity.board) != board,
        outs=equity.outs,
    )


def _seat_equities(equity: EquityFrame | None) -> dict[int, PlayerEquity]:
    """Each seat's figures of ``equity`` as the picture shows them, by seat."""
    if equity is None:
        return {}
    return {
        p.seat: PlayerEquity(**{k: getattr(p, k) for k in SEAT_EQUITY}, exact=equity.exact)
        for p in equity.players
    }


def _award(record: PotAwardRecord, names: Mapping[int, str]) -> OverlayAward:
    payouts = [
        AwardPayout(
            seat=p.seat,
            amount=p.amount,
            half=p.half,
            hand_name=names.get(p.seat),
        )
        for p in record.payouts
    ]
    return OverlayAward(
        text=record.text,
        message=record.message,
        pot=record.pot,
        amount=record.amount,
        payouts=payouts,
    )


def _winnings(pots: Sequence[PotAwardRecord]) -> tuple[dict[int, int], dict[int, int]]:
    """The chips each seat took from the pots awarded, and of them those it took alone."""
    won: dict[int, int] = {}
    alone: dict[int, int] = {}
    for pot in pots:
        for p in pot.payouts:
            won[p.seat] = won.get(p.seat, 0) + p.amount
            if len(pot.payouts) == 1:
                alone[p.seat] = alone.get(p.seat, 0) + p.amount
    return won, alone


def _settled(
    shown: PlayerEquity | None, seat: int, won: dict[int, int], alone: dict[int, int], total: int
) -> PlayerEquity | None:
    """A seat's equity once the pots are awarded: its share of the chips awarded (a
    side-pot winner shows the share it won, whatever its chance at the main pot was)."""
    if shown is None or total <= 0:
        return shown
    share = round(won.get(seat, 0) / total, 4)
    win = round(alone.get(seat, 0) / total, 4)
    return shown.model_copy(
        update={
            "equity": share,
            "win": win,
            "tie": round(share - win, 4),
            "outs": None,
            "split_outs": None,
            "exact": True,
        }
    )


def hand_names(game_code: str, shown: Mapping[int, list[str]], board: list[str]) -> dict[int, str]:
    """The names of the hands shown whole, by seat, in the board games equity knows
    (hold'em, Omaha; none for the others, nor for a hand not shown whole).

    >>> hand_names("T", {2: ["As", "Ah"], 5: ["Kd"]}, ["Ad", "7c", "2h", "9s", "Kc"])
    {2: 'Three of a Kind, Aces'}

    The names of a hand's showdown are asked for again at each change until the next hand
    begins, so the answers are kept (the last 64: pure, the same question, the same names).
    """
    held = tuple((seat, tuple(cards)) for seat, cards in shown.items())
    return dict(_hand_names(game_code, held, tuple(board)))


@functools.lru_cache(maxsize=64)
def _hand_names(
    game_code: str, shown: tuple[tuple[int, tuple[str, ...]], ...], board: tuple[str, ...]
) -> tuple[tuple[int, str], ...]:
    try:
        game = game_for_code(game_code)
    except SpotError:
        return ()
    need = {EquityGame.HOLDEM: 2, EquityGame.OMAHA: 4, EquityGame.OMAHA8: 4}.get(game)
    if need is None or len(board) != 5:
        return ()
    whole = {seat: cards for seat, cards in shown if len(cards) == need}
    if not whole:
        return ()
    try:
        spot = Spot.parse(game.value, ["".join(c) for c in whole.values()], board="".join(board))
    except SpotError:
        return ()
    named = describe_hands(spot)
    return tuple((seat, name) for seat, name in zip(whole, named, strict=True) if name is not None)


def _face(
    player: SeatedPlayer | None, faces: Mapping[str, tuple[str | None, str | None]]
) -> tuple[str | None, str | None]:
    """A player's country and photo: those given when they sat down, else those of the
    configured player of their name (None: none)."""
    if player is None:
        return None, None
    country, photo = faces.get(player.name, (None, None))
    return player.face.country or country, player.face.photo or photo


def _code(card: CardIndex) -> str | None:
    return card_code(card) if card >= 0 else None


def overlay_picture(scene: OverlayScene) -> OverlayPicture:
    """What the overlay shows of ``scene`` (see the module docstring)."""
    if scene.table is None or scene.monitor is None or scene.setup is None:
        return _without_rules(scene)
    return _with_rules(scene, scene.table, scene.monitor, scene.setup)


def _without_rules(scene: OverlayScene) -> OverlayPicture:
    board = [c for r in BOARD_READERS for c in scene.antennas.get(r, ())]
    seats = {s for r, cards in scene.antennas.items() if cards and (s := seat_of(r))}
    if scene.equity is not None:
        seats.update(p.seat for p in scene.equity.players)
    figures = _seat_equities(scene.equity)
    players = [
        OverlayPlayer(
            seat=seat,
            name=None,
            in_hand=True,
            stack=None,
            bet=0,
            cards=list(seat_cards(scene.antennas, seat)),
            folded=False,
            all_in=False,
            acting=False,
            button=False,
            shown=False,
            shown_cards=[],
            mucked=False,
            won=0,
            equity=figures.get(seat),
        )
        for seat in sorted(seats)
    ]
    return OverlayPicture(
        rules=False,
        hand=None,
        in_hand=False,
        voided=False,
        button=None,
        small_blind=None,
        big_blind=None,
        acting=None,
        pot=0,
        board=board,
        last_action=None,
        players=players,
        equity=equity_summary(scene.equity, board),
        awards=[],
        unknown=sorted(scene.unknown),
        clock=scene.clock,
    )


def _with_rules(
    scene: OverlayScene, table: Table, monitor: DealingMonitor, setup: HandSetup
) -> OverlayPicture:
    hand, seats, live = monitor.hand, setup.seats, scene.in_hand
    hints = monitor.hints()
    equity = scene.equity
    if equity is not None and equity.hand is not None and equity.hand != setup.number:
        equity = None  # figures of another hand than the one shown
    board = [card_code(c) for c in hand.board if c >= 0]
    shown: dict[int, list[str]] = {}
    mucked: set[int] = set()
    last: Action | None = None
    for record in hand.log:
        if isinstance(record, ShowOrMuck):
            if record.shown:
                shown[seats[record.seat]] = [card_code(c) for c in record.cards if c >= 0]
            else:
                mucked.add(seats[record.seat])
        elif isinstance(record, Action):
            last = record
    won, alone = _winnings(scene.pots)
    total_won = sum(won.values())
    everyone: set[int] = set(seats)
    everyone.update(s for r, cards in scene.antennas.items() if cards and (s := seat_of(r)))
    if equity is not None:
        everyone.update(p.seat for p in equity.players)
    figures = _seat_equities(equity)
    seated = table.players
    players = []
    for seat in sorted(everyone):
        h = setup.hand_seat(seat)
        folded = seat in hints.folded
        player = seated.get(seat)
        stack = hand.stacks[h] if h is not None and live else None
        if stack is None and player is not None and (not live or h is not None):
            stack = player.stack
        face = _face(player, scene.faces)
        known = [_code(c) for c in hand.hole[h]] if h is not None else []
        spare = [c for c in seat_cards(scene.antennas, seat) if c not in known]
        cards = [c if c is not None or not spare else spare.pop(0) for c in known]
        if seat not in shown:
            cards += spare
        players.append(
            OverlayPlayer(
                seat=seat,
                name=player.name if player is not None else None,
                in_hand=h is not None,
                stack=stack,
                bet=hand.bets[h] if h is not None and live else 0,
                cards=cards,
                folded=folded,
                all_in=seat in hints.all_in and not folded,
                acting=seat == hints.acting and live,
                button=seat == setup.button,
                shown=seat in shown,
                shown_cards=shown.get(seat, []),
                mucked=seat in mucked,
                won=won.get(seat, 0),
                equity=None if folded else _settled(figures.get(seat), seat, won, alone, total_won),
                country=face[0],
                photo=face[1],
            )
        )
    names = hand_names(setup.game.code, shown, board) if scene.pots else {}
    awards: list[OverlayAward | OverlayAwardText] = [_award(p, names) for p in scene.pots]
    if not awards and not live:
        awards = [OverlayAwardText(text=a.text, message=a.message) for a in scene.awards]
    return OverlayPicture(
        rules=True,
        hand=setup.number,
        in_hand=live,
        voided=monitor.void,
        button=setup.button,
        small_blind=scene.blinds[0],
        big_blind=scene.blinds[1],
        acting=hints.acting if live else None,
        pot=hand.pot_total if live and not monitor.void else 0,
        board=board,
        last_action=(
            LastAction(
                seat=seats[last.seat],
                kind=last.kind.value,
                amount=last.amount,
                to=last.to,
                all_in=last.all_in,
            )
            if last is not None
            else None
        ),
        players=players,
        equity=equity_summary(equity, board),
        awards=awards,
        unknown=sorted(scene.unknown),
        hole_cards=sum(len(street.hole_up) for street in setup.game.streets),
        stakes=_stakes(setup, scene.blinds),
        pots=_contested(hand.pots()) if live and not monitor.void else [],
        clock=scene.clock,
    )


def _contested(pots: Sequence[Pot]) -> list[int]:
    """The main and side pots more than one seat may win (a bet nobody has called yet is
    no side pot)."""
    return [p.amount for p in pots if len(p.eligible) > 1]


def _stakes(setup: HandSetup, blinds: tuple[int | None, int | None]) -> OverlayStakes:
    """The hand's blinds (as the table set them for the blinds' seats) and its ante."""
    stakes = setup.stakes

    def blind(seat: int | None) -> int | None:
        h = None if seat is None else setup.hand_seat(seat)
        return None if h is None or h >= len(stakes.blinds) else stakes.blinds[h]

    return OverlayStakes(
        small_blind=blind(blinds[0]), big_blind=blind(blinds[1]), ante=max(stakes.antes, default=0)
    )
