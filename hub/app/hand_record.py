"""A finished hand as the hands store keeps it: :class:`HandRecord`, values only.

:func:`hand_record` reads one off the rules desk at the moment a hand ends (finished or
voided by a misdeal: :meth:`hub.app.rules_desk.RulesDesk._end`), before the next hand
replaces the desk's hand. Everything in it comes from the rules' state, which is the
replay of the event log: a hand read live, at a restart's replay or by ``feltwire
history import-log`` is the same record. The log position (``end_seq``, the input that
ended it; ``start_seq``, the one that started it, when known) and the wall-clock times
are added by :class:`hub.app.hand_book.HandBook`, which sees the logged inputs.

Seats are table seats (1–10, as people number them); ``position`` is the seat's place
in the hand's order (0 = first left of the button, the button last). Who could see each
card is :attr:`CardRecord.visibility` (see :mod:`hub.adapters.hands.schema`).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from feltwire.cards import CardIndex, card_code
from hub.rules.alerts import Alert
from hub.rules.betting import Action
from hub.rules.dealing import Deal, DealKind, Discard, ShowOrMuck
from hub.rules.hand import Hand
from hub.rules.procedure import DealingMonitor
from hub.rules.setup import HandSetup
from hub.rules.table import Table
from hub.rules.table.events import HandFinished
from hub.rules.table.seating import SeatedPlayer

__all__ = [
    "ActionRecord",
    "AlertRecord",
    "AwardRecord",
    "Began",
    "CardRecord",
    "EndingDesk",
    "HandRecord",
    "PotRecord",
    "SeatRecord",
    "hand_record",
]


Began = tuple[float, Mapping[int, SeatedPlayer], tuple[int | None, int | None]]
"""A hand's beginning as the rules desk keeps it: the table time, the players dealt in
(by table seat), the small and big blinds' seats."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat dealt in: the person, the stacks, the result."""

    seat: int
    position: int
    name: str
    club_id: str | None
    starting_stack: int
    finishing_stack: int
    """After the pots and the rake (before chips bought during the hand are delivered)."""
    net: int
    rake: int


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """A forced bet (``ante``, ``blind``, ``dead blind``), a betting action (``fold`` …
    ``complete``, ``bring-in``), a draw (``discard``: ``cards`` many; 0 = stood pat), a
    ``show`` or ``muck``. ``amount``: chips added; ``to_amount``: the seat's bet in the
    round afterwards."""

    at: int
    """The place in the hand's record, counted with the cards (:attr:`CardRecord.at`):
    deals and actions in the order they happened."""
    street: int
    seat: int
    kind: str
    amount: int = 0
    to_amount: int = 0
    all_in: bool = False
    cards: int = 0


@dataclass(frozen=True, slots=True)
class CardRecord:
    """A card the hub saw: ``kind`` hole, board, burn or discard; ``card`` None when it
    was never read (a burn the engine assumed); ``visibility`` who could see it."""

    at: int
    """The place in the hand's record, counted with the actions."""
    street: int
    seat: int | None
    kind: str
    card: str | None
    up: bool
    visibility: str


@dataclass(frozen=True, slots=True)
class PotRecord:
    """One pot: its chips, the seats that could win it."""

    pot: int
    amount: int
    eligible: tuple[int, ...]
    uncontested: bool
    no_low: bool


@dataclass(frozen=True, slots=True)
class AwardRecord:
    """Chips one seat took from one pot (``half``: whole, high or low)."""

    pot: int
    seat: int
    amount: int
    half: str
    odd_chip: bool


@dataclass(frozen=True, slots=True)
class AlertRecord:
    """A rules alert raised during the hand: its code and the catalog's texts."""

    code: str
    severity: str
    seat: int | None
    rule: str
    text: dict[str, Any]
    remedy: dict[str, Any]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand, finished or voided (see the module)."""

    table: str
    number: int
    voided: bool
    game: str
    game_name: str
    structure: str
    button: int
    small_blind_seat: int | None
    big_blind_seat: int | None
    stakes: dict[str, Any]
    """The table's stakes as logged at its opening (blinds, ante, bets, tournament)."""
    rules: dict[str, Any]
    """The hand's own stakes and options, as the engine played it (``stakes``: per seat
    in hand order, ``options``): what a replay of the stored hand needs."""
    small_blind: int
    big_blind: int
    ante: int
    small_bet: int
    big_bet: int
    bring_in: int
    chip_unit: int
    seats: tuple[SeatRecord, ...]
    actions: tuple[ActionRecord, ...]
    cards: tuple[CardRecord, ...]
    pots: tuple[PotRecord, ...]
    awards: tuple[AwardRecord, ...]
    alerts: tuple[AlertRecord, ...]
    rake: int
    board: str
    """The board's cards as codes (``AsKd7c``), public."""
    started_t: float
    ended_t: float
    origin: str = ""
    """The event log the hand came from (the chain of its first input)."""
    start_seq: int | None = None
    end_seq: int = 0
    started_at: float | None = None
    ended_at: float | None = None

    @property
    def pot_total(self) -> int:
        """Every chip the pots held (before the rake)."""
        return sum(p.amount for p in self.pots)


class EndingDesk(Protocol):
    """What :func:`hand_record` reads of the rules desk
    (:class:`hub.app.rules_desk.RulesDesk`) as a hand ends."""

    table_id: str
    game_code: str
    table: Table
    setup: HandSetup | None
    monitor: DealingMonitor | None
    began: Began
    last_pots: list[dict[str, Any]]

    @property
    def alerts_by_hand(self) -> Mapping[int, Sequence[Alert]]:
        """The alerts raised, by hand number."""
        ...

    def stakes(self) -> dict[str, Any]:
        """The table's stakes as its opening logged them."""
        ...


def _plain(value: Any) -> Any:
    """``value`` as JSON values (enums by their value, tuples as lists)."""
    if isinstance(value, enum.Enum):
        return _plain(value.value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _code(card: CardIndex) -> str | None:
    return None if card < 0 else card_code(card)


def _hole_as_learnt(hand: Hand) -> dict[int, CardIndex]:
    """Each hole card's deal (its index in ``hand.log``) → the card as the hand knows it
    at its end. A card dealt unread (``UNKNOWN``: its antenna not read then) may be learnt
    later — when the seat shows (the console's show takes it from the antenna) or throws
    it by name in a draw — and the engine fills its slot, not the deal's record; the
    store keeps the card learnt, else a show of that hand would name no card and the
    hand would not replay. Slots follow the engine: a seat's cards in the order dealt, a
    discard taking the slot holding the card thrown, else the first unread one."""
    known: dict[int, CardIndex] = {}
    slots: dict[int, list[int]] = {}
    for i, r in enumerate(hand.log):
        if isinstance(r, Deal) and r.kind is DealKind.HOLE:
            assert r.seat is not None
            known[i] = r.card
            slots.setdefault(r.seat, []).append(i)
        elif isinstance(r, Discard):
            held = slots.get(r.seat, [])
            for c in r.cards:
                at = next((j for j in held if c >= 0 and known[j] == c), None)
                if at is None:
                    at = next((j for j in held if known[j] < 0), None)
                if at is None:
                    continue  # not as the engine dealt it: keep what was read
                held.remove(at)
                if c >= 0:
                    known[at] = c
    for seat, held in slots.items():
        if len(held) == len(hand.hole[seat]):
            for j, card in zip(held, hand.hole[seat], strict=True):
                if known[j] < 0 <= card:
                    known[j] = card
    return known


def hand_record(desk: EndingDesk, voided: bool, now: float) -> HandRecord:
    """The hand that ends on ``desk`` at table time ``now`` (see the module)."""
    setup, monitor = desk.setup, desk.monitor
    assert setup is not None and monitor is not None
    hand, seats, number = monitor.hand, setup.seats, setup.number
    finished = next(
        (e for e in reversed(desk.table.log) if isinstance(e, HandFinished) and e.number == number),
        None,
    )
    rake_by = dict(finished.rake_by_seat) if finished is not None and not voided else {}
    after = dict(finished.stacks) if finished is not None and not voided else {}
    began_t, players, (sb, bb) = desk.began
    seat_rows = []
    for h, seat in enumerate(seats):
        start = setup.starting_stacks[h]
        end = start if voided else after.get(seat, hand.stacks[h])
        player = players.get(seat)
        seat_rows.append(
            SeatRecord(
                seat=seat,
                position=h,
                name=player.name if player is not None else f"seat {seat}",
                club_id=(player.club_id or None) if player is not None else None,
                starting_stack=start,
                finishing_stack=end,
                net=end - start,
                rake=rake_by.get(seat, 0),
            )
        )
    acts = [
        ActionRecord(at, 0, seats[p.seat], p.kind.value, p.amount, p.amount)
        for at, p in enumerate(hand.posts)
    ]
    at = len(acts)
    card_rows: list[CardRecord] = []
    shown: dict[int, set[int]] = {}
    mucked: set[int] = set()
    for r in hand.log:
        if isinstance(r, ShowOrMuck):
            if r.shown:
                shown.setdefault(r.seat, set()).update(r.cards or hand.hole[r.seat])
            else:
                mucked.add(r.seat)
    street = 0
    learnt = _hole_as_learnt(hand)
    for i, r in enumerate(hand.log):
        if isinstance(r, Deal):
            street = r.street
            if r.kind is DealKind.HOLE:
                assert r.seat is not None
                card = learnt[i]
                if r.up:
                    vis = "public"
                elif card >= 0 and card in shown.get(r.seat, ()):
                    vis = "shown"
                elif r.seat in mucked and card in hand.hole[r.seat]:
                    vis = "mucked"
                else:
                    vis = "dealer"
                card_rows.append(
                    CardRecord(at, street, seats[r.seat], "hole", _code(card), r.up, vis)
                )
            elif r.kind is DealKind.BOARD:
                card_rows.append(
                    CardRecord(at, street, None, "board", _code(r.card), True, "public")
                )
            else:
                card_rows.append(
                    CardRecord(at, street, None, "burn", _code(r.card), False, "dealer")
                )
        elif isinstance(r, Action):
            street = r.street
            acts.append(
                ActionRecord(at, r.street, seats[r.seat], r.kind.value, r.amount, r.to, r.all_in)
            )
        elif isinstance(r, Discard):
            street = r.street
            acts.append(ActionRecord(at, r.street, seats[r.seat], "discard", cards=len(r.cards)))
            for c in r.cards:
                at += 1
                card_rows.append(
                    CardRecord(at, r.street, seats[r.seat], "discard", _code(c), False, "dealer")
                )
        elif isinstance(r, ShowOrMuck):
            acts.append(ActionRecord(at, street, seats[r.seat], "show" if r.shown else "muck"))
        else:
            continue  # a reshuffle (R-DEAL-5) takes no place
        at += 1
    pots, awards = [], []
    for p in [] if voided else desk.last_pots:
        pots.append(
            PotRecord(
                int(p["pot"]),
                int(p["amount"]),
                tuple(int(s) for s in p["eligible"]),
                bool(p["uncontested"]),
                bool(p["no_low"]),
            )
        )
        for w in p["payouts"]:
            awards.append(
                AwardRecord(
                    int(p["pot"]),
                    int(w["seat"]),
                    int(w["amount"]),
                    str(w["half"]),
                    bool(w["odd_chip"]),
                )
            )
    alert_rows = tuple(
        AlertRecord(
            a.code.value, a.severity.value, a.seat, a.rule, a.text.as_json(), a.remedy.as_json()
        )
        for a in desk.alerts_by_hand.get(number, ())
    )
    st, game = setup.stakes, setup.game

    def blind(seat: int | None) -> int:
        """The blind the hand asked of ``seat`` (a tournament's level, not the config's)."""
        h = None if seat is None else setup.hand_seat(seat)
        return st.blinds[h] if h is not None and h < len(st.blinds) else 0

    return HandRecord(
        table=desk.table_id,
        number=number,
        voided=voided,
        game=desk.game_code,
        game_name=game.name,
        structure=game.structure.name.lower().replace("_", " "),
        button=setup.button,
        small_blind_seat=sb,
        big_blind_seat=bb,
        stakes=desk.stakes(),
        rules={"stakes": _plain(asdict(st)), "options": _plain(asdict(setup.options))},
        small_blind=blind(sb),
        big_blind=blind(bb) or max(st.blinds, default=0),
        ante=max(st.antes, default=0),
        small_bet=st.small_bet,
        big_bet=st.big_bet,
        bring_in=st.bring_in,
        chip_unit=st.chip_unit,
        seats=tuple(seat_rows),
        actions=tuple(acts),
        cards=tuple(card_rows),
        pots=tuple(pots),
        awards=tuple(awards),
        alerts=alert_rows,
        rake=finished.rake if finished is not None and not voided else 0,
        board="".join(c for c in (_code(b) for b in hand.board) if c is not None),
        started_t=began_t,
        ended_t=now,
    )
