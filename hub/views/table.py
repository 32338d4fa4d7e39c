"""The table as each audience sees it, built from the rules' state: the hand's events as
feed frames (:func:`public_event` never names a hole card, :func:`overlay_event` names
every card), the players, the board, the legal actions, the showdown choices and the
shown hands. Pure: no clock, no I/O; the caller passes the state and ``now``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import TypeAdapter

from feltwire.cards import CardIndex, card_code
from feltwire.protocol import (
    ConsolePlayer,
    LegalActions,
    LegalAllIn,
    LegalBet,
    Limits,
    NextCard,
    OverlayHandEvent,
    PublicHandEvent,
    PublicPlayer,
    PublicShownHand,
    ShowdownChoices,
    ShownHand,
    TopUp,
    UndoableAction,
)
from feltwire.text import Seat, Text
from hub.messages.vocabulary import street as street_text
from hub.rules.betting import Action
from hub.rules.dealing import UNKNOWN, ShowOrMuck
from hub.rules.games import Family, Structure
from hub.rules.hand import Hand, Phase
from hub.rules.procedure import DealingMonitor, HandShown, PotAwarded
from hub.rules.procedure import Event as HandEvent
from hub.rules.procedure.next_deal import NextDeal, NextKind
from hub.rules.setup import HandSetup
from hub.rules.table import BuyInLimits, ChipsDelivered, Entry, Table
from hub.views.alerts import award_record
from hub.views.alerts import console_alerts as console_alerts  # the console's, re-exported
from hub.views.frames import Event, frame

_PUBLIC_EVENT: TypeAdapter[PublicHandEvent] = TypeAdapter(PublicHandEvent)
_OVERLAY_EVENT: TypeAdapter[OverlayHandEvent] = TypeAdapter(OverlayHandEvent)
BetAct = Literal["bet", "raise", "complete"]
"""What a bet of the seat to act is called (:class:`feltwire.protocol.LegalBet`)."""

_PLACED = frozenset({"hand", "t"})
"""The fields of an event frame that say where it happened: what a caller of
:func:`public_event` and :func:`overlay_event` adds itself."""


def _code(card: CardIndex) -> str | None:
    """A card index as its code (an unread card as None)."""
    return card_code(card) if card >= 0 else None


def _event_fields(event: HandEvent, hand: int, t: float) -> dict[str, Any]:
    """The event as frame fields, every card named (a pot award with its read-out's
    English beside the text)."""
    data = award_record(event) if isinstance(event, PotAwarded) else event.as_dict()
    out = {"type": "event", "event": data.pop("type"), "hand": hand, "t": t} | data
    if isinstance(out.get("card"), int):
        out["card"] = _code(out["card"])
    if "cards" in out:
        out["cards"] = [_code(c) for c in out["cards"]]
    return out


def overlay_event_model(event: HandEvent, hand: int, t: float) -> OverlayHandEvent:
    """An event of hand ``hand`` at ``t`` as an overlay frame: every card named (hole
    cards too). Only the producer's overlay feed carries these, held back by its delay."""
    return _OVERLAY_EVENT.validate_python(_event_fields(event, hand, t))


def public_event_model(event: HandEvent, hand: int, t: float) -> PublicHandEvent:
    """A public event of hand ``hand`` at ``t`` as a feed frame; a shown hand goes without
    its cards. The model refuses a hidden card (a face-down hole card, a burn): the
    public feed never carries one."""
    fields = _event_fields(event, hand, t)
    if isinstance(event, HandShown):
        del fields["cards"]
    return _PUBLIC_EVENT.validate_python(fields)


def overlay_event(event: HandEvent) -> Event:
    """:func:`overlay_event_model` as a JSON object without ``hand`` and ``t`` (the
    caller adds them)."""
    return frame(overlay_event_model(event, 0, 0.0), exclude=_PLACED)


def public_event(event: HandEvent) -> Event:
    """:func:`public_event_model` as a JSON object without ``hand`` and ``t`` (the caller
    adds them)."""
    return frame(public_event_model(event, 0, 0.0), exclude=_PLACED)


def _public_players(
    table: Table, hand: Hand | None, setup: HandSetup | None
) -> list[dict[str, Any]]:
    """Every seated player's public fields (:class:`PublicPlayer`'s), by seat; ``hand``
    is the running hand (None between hands)."""
    out = []
    for seat, player in sorted(table.players.items()):
        h = setup.hand_seat(seat) if hand is not None and setup is not None else None
        stack, bet, folded = player.stack, 0, False
        if hand is not None and h is not None:
            stack, bet, folded = hand.stacks[h], hand.bets[h], hand.folded[h]
        out.append(
            {
                "seat": seat,
                "name": player.name,
                "stack": stack,
                "bet": bet,
                "in_hand": h is not None,
                "folded": folded,
                "all_in": h is not None and stack == 0 and not folded,
                "sitting_out": player.sitting_out,
            }
        )
    return out


def players_view_model(
    table: Table, hand: Hand | None, setup: HandSetup | None
) -> list[PublicPlayer]:
    """Every seated player as anyone may see them: seat, name, stack (behind, while a
    hand runs), chips bet this round, in the hand / folded / all in / sitting out; ``hand``
    is the running hand (None between hands)."""
    return [PublicPlayer(**fields) for fields in _public_players(table, hand, setup)]


def players_view(table: Table, hand: Hand | None, setup: HandSetup | None) -> list[Event]:
    """:func:`players_view_model` as JSON objects."""
    return [frame(p) for p in players_view_model(table, hand, setup)]


def board_view(hand: Hand | None) -> list[str]:
    """The board cards of the running hand (public: they lie face up; None: no hand)."""
    if hand is None:
        return []
    return [card_code(c) for c in hand.board if c >= 0]


def console_player_model(
    table: Table,
    view: Mapping[str, Any],
    now: float,
    hand: Hand | None,
    setup: HandSetup | None,
    discards: Mapping[int, int] | None = None,
) -> ConsolePlayer:
    """A player as the console shows them: the public view (``view``: the public fields
    of :func:`_public_players`), what they owe, which seat commands the table's rules
    allow now, and how many cards the hand dealt them, less the discards waiting at the
    muck (``hand``: the last or running hand; ``setup``: the running hand's, None between
    hands; ``discards``: by hand seat, in a draw)."""
    seat = view["seat"]
    player = table.player(seat)
    top_up, can_top_up = table.top_up_offer(seat, now)
    h = setup.hand_seat(seat) if setup is not None else None
    up: list[str] = []
    if hand is not None and h is not None and hand.game.family is Family.STUD:
        up = [card_code(c) for c in hand.up_cards.get(h, []) if c >= 0]
    cards = 0
    if hand is not None and h is not None and not view["folded"]:
        cards = max(0, len(hand.hole[h]) - (discards or {}).get(h, 0))
    return ConsolePlayer(
        **view,
        pending=player.pending,
        owes=player.owes.value,
        waiting=player.entry is Entry.WAIT_FOR_BIG_BLIND,
        can_leave=table.can_leave(seat),
        can_sit_out=table.can_sit_out(seat),
        can_come_back=table.can_come_back(seat),
        can_top_up=can_top_up,
        top_up=limits_view_model(top_up),
        up=up,
        cards=cards,
    )


def console_players(
    table: Table,
    now: float,
    hand: Hand | None,
    setup: HandSetup | None,
    discards: Mapping[int, int] | None = None,
) -> list[Event]:
    """Every seated player as :func:`console_player_model` shows them, as JSON objects
    (``hand``, ``setup``: the running hand's, or None between hands). Each player's
    model is built and dumped once: a player's frame is built on every change the
    console sees."""
    live = hand if setup is not None else None
    return [
        frame(console_player_model(table, view, now, hand, setup, discards))
        for view in _public_players(table, live, setup)
    ]


def _nth(n: int) -> Text:
    """The ordinal word of a seat's ``n``-th card (``second``; Czech ``druhá``)."""
    return Text(f"ordinal.{n}") if 1 <= n <= 7 else Text("ordinal.other", {"n": n})


def next_deal_text(nd: NextDeal, community: bool = False) -> Text:
    """What the console says of the next card: ``Next: seat 4's second card, face down``,
    the burn, the flop's card 2 of 3, the turn, a replacement, the discards (catalog
    ``next_deal.*``). ``community``: stud's one shared card (R-DEAL-4)."""
    where = street_text(nd.street)
    if nd.kind is NextKind.HOLE:
        assert nd.seat is not None
        key = "next_deal.hole.up" if nd.up else "next_deal.hole.down"
        return Text(key, {"seat": Seat(nd.seat), "nth": _nth(nd.card)})
    if nd.kind is NextKind.BURN:
        return Text("next_deal.burn", {"street": where})
    if nd.kind is NextKind.BOARD:
        if community:
            return Text("next_deal.board.community")
        if nd.of > 1:
            return Text("next_deal.board.flop", {"index": nd.card, "total": nd.of})
        return Text("next_deal.board.one", {"street": where})
    assert nd.seat is not None
    if nd.kind is NextKind.REPLACEMENT:
        return Text(
            "next_deal.replacement", {"seat": Seat(nd.seat), "index": nd.card, "total": nd.of}
        )
    return Text("next_deal.discard", {"seat": Seat(nd.seat)})


def next_deal_view_model(monitor: DealingMonitor | None) -> NextCard | None:
    """The next card the dealer deals, as the console shows it (None: none is due)."""
    nd = monitor.next_deal() if monitor is not None else None
    if nd is None or monitor is None:
        return None
    community = nd.kind is NextKind.BOARD and monitor.hand.game.family is Family.STUD
    return NextCard.model_validate(
        {
            "kind": nd.kind.value,
            "street": nd.street,
            "reader": nd.reader,
            "seat": nd.seat,
            "index": nd.card,
            "total": nd.of,
            "up": nd.up,
            "unread": list(nd.unread),
            "text": next_deal_text(nd, community).as_json(),
        }
    )


def next_deal_view(monitor: DealingMonitor | None) -> Event | None:
    """:func:`next_deal_view_model` as a JSON object."""
    card = next_deal_view_model(monitor)
    return None if card is None else frame(card)


def last_action_view(hand: Hand, setup: HandSetup | None) -> Event | None:
    """The betting action undo would take back (the hand's last), None when none."""
    if setup is None:
        return None
    last = next((r for r in reversed(hand.log) if isinstance(r, Action)), None)
    if last is None:
        return None
    fields = {"seat": setup.seats[last.seat], "act": last.kind.value, "amount": last.amount}
    model = UndoableAction.model_validate(fields | {"to": last.to, "all_in": last.all_in})
    return frame(model)


def console_hand_view(monitor: DealingMonitor | None, setup: HandSetup | None) -> Event:
    """What the console says of the open hand (``monitor``; None: no hand is open): the
    next card to deal (:func:`next_deal_view`) and the action undo would take back
    (:func:`last_action_view`)."""
    if monitor is None:
        return {"next_deal": None, "last_action": None}
    return {
        "next_deal": next_deal_view(monitor),
        "last_action": last_action_view(monitor.hand, setup),
    }


def legal_view_model(hand: Hand, setup: HandSetup | None) -> LegalActions | None:
    """What the seat to act may do, from the engine (None outside a betting round)."""
    if hand.phase is not Phase.BETTING or hand.actor is None or setup is None:
        return None
    la = hand.legal_actions()
    h = la.seat
    bet: LegalBet | None = None
    if la.can_bet_or_raise:
        fixed = hand.game.structure is Structure.FIXED_LIMIT
        act: BetAct = "complete" if la.is_completion else "raise" if la.bet_is_raise else "bet"
        if fixed:  # fixed limit: the one size (or the two of an open pair, R-BET-9)
            amounts = sorted({la.min_to, la.max_to})
            bet = LegalBet(act=act, min_to=la.min_to, max_to=la.max_to, fixed=True, amounts=amounts)
        else:
            bet = LegalBet(act=act, min_to=la.min_to, max_to=la.max_to, fixed=False)
    all_in = None
    if hand.can_all_in(h):
        all_in = LegalAllIn(to=hand.bets[h] + hand.stacks[h], amount=hand.stacks[h])
    return LegalActions(
        seat=setup.seats[h],
        fold=hand.can_fold(h),
        check=hand.can_check(h),
        call=la.call_amount if hand.can_call(h) else None,
        bring_in=la.bring_in_amount if hand.can_bring_in(h) else None,
        bet=bet,
        all_in=all_in,
        bet_now=hand.bets[h],
        stack=hand.stacks[h],
    )


def legal_view(hand: Hand, setup: HandSetup | None) -> Event | None:
    """:func:`legal_view_model` as a JSON object."""
    legal = legal_view_model(hand, setup)
    return None if legal is None else frame(legal)


def showdown_view_model(hand: Hand, setup: HandSetup | None) -> ShowdownChoices | None:
    """Who is asked to show or muck next and which seats may do which: at showdown any
    hand may be shown at once, a muck waits its turn (R-SHOW-4); after a pot won
    uncontested, the winner may show all, some cards (``part``) or muck (R-SHOW-3)."""
    if setup is None:
        return None
    seats = setup.seats
    winner = hand.uncalled_winner
    if winner is not None:
        t = seats[winner]
        return ShowdownChoices(next=t, show=[t], muck=[t], part=True, uncalled=True)
    if hand.phase is not Phase.SHOWDOWN:
        return None
    done = set(hand.shown) | set(hand.mucked)
    open_ = [h for h in hand.in_hand if h not in done]
    return ShowdownChoices(
        next=seats[hand.shower] if hand.shower is not None else None,
        show=[seats[h] for h in open_ if may_show(hand, h)],
        muck=[seats[h] for h in open_ if hand.can_muck(h)],
        part=False,
        uncalled=False,
    )


def showdown_view(hand: Hand, setup: HandSetup | None) -> Event | None:
    """:func:`showdown_view_model` as a JSON object."""
    choices = showdown_view_model(hand, setup)
    return None if choices is None else frame(choices)


def shown_view_model(hand: Hand, setup: HandSetup | None) -> list[ShownHand]:
    """Hands shown at the showdown or by the uncalled winner (their cards are public
    then; ``whole`` False: only these cards, R-SHOW-3); nothing before."""
    if hand.phase not in (Phase.SHOWDOWN, Phase.COMPLETE) or setup is None:
        return []
    seats = setup.seats
    return [
        ShownHand(
            seat=seats[r.seat],
            cards=[card_code(c) for c in r.cards if c >= 0],
            whole=len(r.cards) == len(hand.hole[r.seat]),
        )
        for r in hand.log
        if isinstance(r, ShowOrMuck) and r.shown
    ]


def shown_view(hand: Hand, setup: HandSetup | None) -> list[Event]:
    """:func:`shown_view_model` as JSON objects."""
    return [frame(s) for s in shown_view_model(hand, setup)]


def shown_public_model(
    monitor: DealingMonitor | None, setup: HandSetup | None
) -> list[PublicShownHand]:
    """The shown hands as the public view has them: the seat, how many cards it
    showed and whether that was the whole hand — never a card (the public feed carries
    no hole card; the overlay names them, behind its delay) — those of the last hand
    until the next starts."""
    if monitor is None or monitor.void:
        return []
    return [
        PublicShownHand(seat=s.seat, count=len(s.cards), whole=s.whole)
        for s in shown_view_model(monitor.hand, setup)
    ]


def shown_public(monitor: DealingMonitor | None, setup: HandSetup | None) -> list[Event]:
    """:func:`shown_public_model` as JSON objects."""
    return [frame(s) for s in shown_public_model(monitor, setup)]


def top_up_view_model(delivery: ChipsDelivered) -> TopUp:
    """Chips bought during a hand, as delivered when it ended (R-BUY-4): a console line."""
    return TopUp(
        seat=delivery.seat,
        bought=delivery.bought,
        delivered=delivery.delivered,
        refused=delivery.refused,
        stack=delivery.stack,
        maximum=delivery.maximum,
        rule=delivery.rule,
        message=delivery.message,
    )


def top_up_view(delivery: ChipsDelivered) -> Event:
    """:func:`top_up_view_model` as a JSON object."""
    return frame(top_up_view_model(delivery))


def limits_view_model(limits: BuyInLimits) -> Limits:
    """Buy-in or top-up limits as the console shows them."""
    return Limits(min=limits.minimum, max=limits.maximum, rule=limits.rule)


def limits_view(limits: BuyInLimits) -> Event:
    """:func:`limits_view_model` as a JSON object."""
    return frame(limits_view_model(limits))


def may_show(hand: Hand, h: int) -> bool:
    """True when it is in order for hand seat ``h`` to show now. Cards that were never
    read are named by the dealing monitor when the hand is shown (or it says to lay them
    on the antenna), so the check here is of the order and the phase only: a placeholder
    of the right length stands in for unread cards."""
    hole = hand.hole[h]
    if UNKNOWN not in hole:
        return hand.can_show(h)
    return hand.can_show(h, [CardIndex(0)] * len(hole))
