"""The table as each audience sees it, built from the rules' state: the hand's events as
feed frames (:func:`public_event` never names a hole card, :func:`overlay_event` names
every card), the players, the board, the legal actions, the showdown choices and the
shown hands. Pure: no clock, no I/O; the caller passes the state and ``now``.
"""

from __future__ import annotations

from typing import Any

from feltwire.cards import card_code
from hub.rules.dealing import UNKNOWN, ShowOrMuck
from hub.rules.games import Family, Structure
from hub.rules.hand import Hand, Phase
from hub.rules.procedure import DealingMonitor, HandShown, PotAwarded
from hub.rules.procedure import Event as HandEvent
from hub.rules.setup import HandSetup
from hub.rules.table import BuyInLimits, ChipsDelivered, Entry, Table
from hub.views.alerts import award_record


def _cards_named(data: dict[str, Any]) -> dict[str, Any]:
    """Card indexes as card codes (an unread card as None)."""
    out = dict(data)
    if "card" in out and isinstance(out["card"], int):
        out["card"] = card_code(out["card"]) if out["card"] >= 0 else None
    return out


def _event_data(event: HandEvent) -> dict[str, Any]:
    """The event as JSON data; a pot award with its read-out's English beside the text."""
    return award_record(event) if isinstance(event, PotAwarded) else event.as_dict()


def overlay_event(event: HandEvent) -> dict[str, Any]:
    """An event of the hand as an overlay frame: every card named (hole cards too).

    Only the producer's overlay feed carries these, held back by its delay."""
    data = _event_data(event)
    name = data.pop("type")
    out = {"type": "event", "event": name} | _cards_named(data)
    if "cards" in out:
        out["cards"] = [card_code(c) if c >= 0 else None for c in out["cards"]]
    return out


def public_event(event: HandEvent) -> dict[str, Any]:
    """A public event of the hand as a feed frame; a shown hand goes without its cards
    (the public feed never carries a hole card)."""
    data = _event_data(event)
    name = data.pop("type")
    if isinstance(event, HandShown):
        data.pop("cards", None)
    return {"type": "event", "event": name} | _cards_named(data)


def players_view(table: Table, hand: Hand | None, setup: HandSetup | None) -> list[dict[str, Any]]:
    """Every seated player as anyone may see them: seat, name, stack (behind, while a
    hand runs), chips bet this round, in the hand / folded / all in / sitting out; ``hand``
    is the running hand (None between hands)."""
    out = []
    for seat, player in sorted(table.players.items()):
        view: dict[str, Any] = {
            "seat": seat,
            "name": player.name,
            "stack": player.stack,
            "bet": 0,
            "in_hand": False,
            "folded": False,
            "all_in": False,
            "sitting_out": player.sitting_out,
        }
        h = setup.hand_seat(seat) if hand is not None and setup is not None else None
        if hand is not None and h is not None:
            view |= {
                "stack": hand.stacks[h],
                "bet": hand.bets[h],
                "in_hand": True,
                "folded": hand.folded[h],
                "all_in": hand.stacks[h] == 0 and not hand.folded[h],
            }
        out.append(view)
    return out


def board_view(hand: Hand | None) -> list[str]:
    """The board cards of the running hand (public: they lie face up; None: no hand)."""
    if hand is None:
        return []
    return [card_code(c) for c in hand.board if c >= 0]


def console_player(
    table: Table,
    view: dict[str, Any],
    now: float,
    hand: Hand | None,
    setup: HandSetup | None,
) -> dict[str, Any]:
    """A player as the console shows them: the public view, what they owe, and which
    seat commands the table's rules allow now (``hand``: the last or running hand;
    ``setup``: the running hand's, None between hands)."""
    seat = view["seat"]
    player = table.players[seat]
    top_up = table.limits_for_top_up(seat, now)
    out = view | {
        "pending": player.pending,
        "owes": player.owes.value,
        "waiting": player.entry is Entry.WAIT_FOR_BIG_BLIND,
        "can_leave": table.can_leave(seat),
        "can_sit_out": table.can_sit_out(seat),
        "can_come_back": table.can_come_back(seat),
        "can_top_up": table.can_add_chips(seat, top_up.minimum, now),
        "top_up": limits_view(top_up),
        "up": [],
    }
    h = setup.hand_seat(seat) if setup is not None else None
    if hand is not None and h is not None and hand.game.family is Family.STUD:
        out["up"] = [card_code(c) for c in hand.up_cards.get(h, []) if c >= 0]
    return out


def legal_view(hand: Hand, setup: HandSetup | None) -> dict[str, Any] | None:
    """What the seat to act may do, from the engine (None outside a betting round)."""
    if hand.phase is not Phase.BETTING or hand.actor is None or setup is None:
        return None
    la = hand.legal_actions()
    h = la.seat
    bet: dict[str, Any] | None = None
    if la.can_bet_or_raise:
        fixed = hand.game.structure is Structure.FIXED_LIMIT
        act = "complete" if la.is_completion else "raise" if la.bet_is_raise else "bet"
        bet = {"act": act, "min_to": la.min_to, "max_to": la.max_to, "fixed": fixed}
        if fixed:  # fixed limit: the one size (or the two of an open pair, R-BET-9)
            bet["amounts"] = sorted({la.min_to, la.max_to})
    return {
        "seat": setup.seats[h],
        "fold": hand.can_fold(h),
        "check": hand.can_check(h),
        "call": la.call_amount if hand.can_call(h) else None,
        "bring_in": la.bring_in_amount if hand.can_bring_in(h) else None,
        "bet": bet,
        "all_in": (
            {"to": hand.bets[h] + hand.stacks[h], "amount": hand.stacks[h]}
            if hand.can_all_in(h)
            else None
        ),
        "bet_now": hand.bets[h],
        "stack": hand.stacks[h],
    }


def showdown_view(hand: Hand, setup: HandSetup | None) -> dict[str, Any] | None:
    """Who is asked to show or muck next and which seats may do which: at showdown any
    hand may be shown at once, a muck waits its turn (R-SHOW-4); after a pot won
    uncontested, the winner may show all, some cards (``part``) or muck (R-SHOW-3)."""
    if setup is None:
        return None
    seats = setup.seats
    winner = hand.uncalled_winner
    if winner is not None:
        t = seats[winner]
        return {"next": t, "show": [t], "muck": [t], "part": True, "uncalled": True}
    if hand.phase is not Phase.SHOWDOWN:
        return None
    done = set(hand.shown) | set(hand.mucked)
    open_ = [h for h in hand.in_hand if h not in done]
    return {
        "next": seats[hand.shower] if hand.shower is not None else None,
        "show": [seats[h] for h in open_ if may_show(hand, h)],
        "muck": [seats[h] for h in open_ if hand.can_muck(h)],
        "part": False,
        "uncalled": False,
    }


def shown_view(hand: Hand, setup: HandSetup | None) -> list[dict[str, Any]]:
    """Hands shown at the showdown or by the uncalled winner (their cards are public
    then; ``whole`` False: only these cards, R-SHOW-3); nothing before."""
    if hand.phase not in (Phase.SHOWDOWN, Phase.COMPLETE) or setup is None:
        return []
    seats = setup.seats
    return [
        {
            "seat": seats[r.seat],
            "cards": [card_code(c) for c in r.cards if c >= 0],
            "whole": len(r.cards) == len(hand.hole[r.seat]),
        }
        for r in hand.log
        if isinstance(r, ShowOrMuck) and r.shown
    ]


def shown_public(monitor: DealingMonitor | None, setup: HandSetup | None) -> list[dict[str, Any]]:
    """The shown hands as the public view has them: the seat, how many cards it
    showed and whether that was the whole hand — never a card (the public feed carries
    no hole card; the overlay names them, behind its delay) — those of the last hand
    until the next starts."""
    if monitor is None or monitor.void:
        return []
    hand = monitor.hand
    return [
        {"seat": s["seat"], "count": len(s["cards"]), "whole": s["whole"]}
        for s in shown_view(hand, setup)
    ]


def top_up_view(delivery: ChipsDelivered) -> dict[str, Any]:
    """Chips bought during a hand, as delivered when it ended (R-BUY-4): a console line."""
    return {
        "seat": delivery.seat,
        "bought": delivery.bought,
        "delivered": delivery.delivered,
        "refused": delivery.refused,
        "stack": delivery.stack,
        "maximum": delivery.maximum,
        "rule": delivery.rule,
        "message": delivery.message,
    }


def limits_view(limits: BuyInLimits) -> dict[str, Any]:
    """Buy-in or top-up limits as the console shows them."""
    return {"min": limits.minimum, "max": limits.maximum, "rule": limits.rule}


def may_show(hand: Hand, h: int) -> bool:
    """True when it is in order for hand seat ``h`` to show now. Cards that were never
    read are named by the dealing monitor when the hand is shown (or it says to lay them
    on the antenna), so the check here is of the order and the phase only: a placeholder
    of the right length stands in for unread cards."""
    hole = hand.hole[h]
    if UNKNOWN not in hole:
        return hand.can_show(h)
    return hand.can_show(h, [0] * len(hole))
