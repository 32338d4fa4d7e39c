"""Hands played on the engine from a short PHH script and kept as the hub keeps them:
:func:`stored_hand` is the :class:`~hub.app.hand_record.HandRecord` the rules desk makes
when a hand ends (:func:`hub.app.hand_record.hand_record` itself, read off a desk that
holds the scripted hand), stamped with its log position and wall-clock times as the
hand book stamps them — for tests that need hands whose every action they chose.

Players are given by table seat in hand order, the button last (hold'em: the first two
post the small and big blind); PHH seats ``p1`` … ``pN`` are that order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from hub.app.hand_record import Began, HandRecord, hand_record
from hub.rules.games import Family, Stakes, game
from hub.rules.hand import Hand, Phase
from hub.rules.phh import apply_action
from hub.rules.procedure.events import pot_awarded
from hub.rules.setup import HandSetup
from hub.rules.table.seating import SeatedPlayer
from hub.views.alerts import award_record

ORIGIN = "scripted-log"
"""The event log the scripted hands are said to come from."""


@dataclass(frozen=True, slots=True)
class _Monitor:
    hand: Hand


@dataclass(frozen=True, slots=True)
class _NoTableLog:
    """No table events: the stacks after the hand are the hand's own (no rake)."""

    log: tuple[Any, ...] = ()


@dataclass
class _EndingDesk:
    """What :func:`hand_record` reads of a rules desk, holding one scripted hand."""

    table_id: str
    game_code: str
    setup: HandSetup
    monitor: _Monitor
    began: Began
    last_pots: list[dict[str, Any]]
    table: Any = field(default_factory=_NoTableLog)
    alerts_by_hand: Mapping[int, Sequence[Any]] = field(default_factory=dict)

    def stakes(self) -> dict[str, Any]:
        return {}


def stored_hand(
    number: int,
    variant: str,
    players: Mapping[int, str],
    actions: Sequence[str],
    *,
    stakes: Stakes,
    started_at: float,
    seconds: float = 60.0,
    stack: int = 1000,
    table: str = "t1",
    voided: bool = False,
    club_ids: Mapping[str, str] | None = None,
) -> HandRecord:
    """Hand ``number`` of ``variant`` at ``table``: ``players`` (table seat → name, in
    hand order, the button last) with ``stack`` chips each play ``actions`` (PHH) to the
    end — or, ``voided``, as far as they go before a misdeal — started at ``started_at``
    (seconds since the epoch) and lasting ``seconds``."""
    seats = tuple(players)
    g = game(variant)
    setup = HandSetup(number, g, seats, seats[-1], stakes, (stack,) * len(seats))
    hand = setup.new_hand()
    for action in actions:
        apply_action(hand, action)
    return kept_hand(
        setup,
        hand,
        players,
        variant=variant,
        started_at=started_at,
        seconds=seconds,
        table=table,
        voided=voided,
        club_ids=club_ids,
    )


def kept_hand(
    setup: HandSetup,
    hand: Hand,
    players: Mapping[int, str],
    *,
    variant: str,
    started_at: float,
    seconds: float = 60.0,
    table: str = "t1",
    voided: bool = False,
    club_ids: Mapping[str, str] | None = None,
) -> HandRecord:
    """The record the hub keeps of ``hand`` (played from ``setup``: complete, or as far
    as it went before a misdeal when ``voided``) by ``players`` (table seat → name, in
    ``setup``'s order), stamped as :class:`~hub.app.hand_book.HandBook` stamps it: the
    work of :func:`stored_hand` once the hand is played."""
    seats = setup.seats
    number = setup.number
    pots: list[dict[str, Any]] = []
    if not voided:
        assert hand.phase is Phase.COMPLETE, (number, hand.phase)
        assert hand.result is not None
        pots = [award_record(pot_awarded(a, seats)) for a in hand.result.awards]
    ids = club_ids or {}
    people = {
        s: SeatedPlayer(n, setup.starting_stacks[h], club_id=ids.get(n, ""))
        for h, (s, n) in enumerate(players.items())
    }
    blinds = (None, None) if setup.game.family is Family.STUD else (seats[0], seats[1])
    desk = _EndingDesk(
        table_id=table,
        game_code=variant,
        setup=setup,
        monitor=_Monitor(hand),
        began=(started_at, people, blinds),
        last_pots=pots,
    )
    record = hand_record(desk, voided, started_at + seconds)
    return replace(
        record,
        origin=ORIGIN,
        start_seq=10 * number,
        end_seq=10 * number + 9,
        started_at=started_at,
        ended_at=started_at + seconds,
    )
