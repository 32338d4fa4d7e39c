"""Open Hand History (OHH, hh-specs.handhistory.org, spec 1.4.6): the JSON interchange
format, written from a played :class:`~hub.rules.hand.Hand`.

Pure: a hand, its :class:`~hub.rules.pokerstars.HandContext` and a
:class:`~hub.rules.pokerstars.Perspective` in (the same three as the PokerStars text: what
the table saw, a player's own file, every card), a JSON-ready ``{"ohh": {…}}`` out.
``docs/schemas/ohh.schema.json`` is the JSON Schema of what is written (the spec's
objects and fields; the spec publishes none of its own).

Where the spec has no word for something the engine plays, the file uses one of its own,
listed in ``docs/hand-histories.md``: streets of stud (``Third Street`` … ``Seventh Street``; five-
card stud from ``Second Street``) and draw (``Deal``, ``First Draw`` …), the actions
``Discards Cards`` / ``Stands Pat`` and ``Post Bring In``, ``game_type`` ``Stud`` for
razz and ``Draw`` for lowball and badugi, with the variant in ``flags``
(``feltwire_variant:FR``). Amounts are chips; ``currency`` is ``"Chips"``. As the spec
says, a ``Raise``'s ``amount`` is what the player put in with it, not the total.

>>> from datetime import datetime, UTC
>>> from feltwire.cards import card_index as c
>>> from hub.rules.games import Stakes, game
>>> hand = Hand(game("NT"), Stakes.blind_game(2, 5, 10), [1000, 1000])
>>> for seat, cards in enumerate(["AhKh", "QsQd"]):
...     for i in (0, 2):
...         _ = hand.deal_hole(seat, c(cards[i : i + 2]))
>>> _ = hand.bet_or_raise_to(30, 1); _ = hand.fold(0)
>>> when = datetime(2026, 12, 2, 20, tzinfo=UTC)
>>> ctx = HandContext(7, "Main", when, ["Ann", "Bob"], [3, 8], 6)
>>> doc = ohh_document(hand, ctx, Perspective.hero(1))["ohh"]
>>> doc["dealer_seat"], doc["hero_player_id"]
(8, 1)
>>> for a in doc["rounds"][0]["actions"]:
...     print(a["player_id"], a["action"], *(a[k] for k in ("amount", "cards") if k in a))
1 Post SB 5
0 Post BB 10
1 Dealt Cards ['Qs', 'Qd']
1 Raise 25
0 Fold
>>> doc["pots"][0]["player_wins"]
[{'player_id': 1, 'win_amount': 20, 'contributed_rake': 0}]
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC
from typing import Any

from feltwire.cards import CardIndex, card_code
from hub.rules.betting import Action, ActionKind
from hub.rules.dealing import Deal, DealKind, Discard, ShowOrMuck
from hub.rules.games import Evaluation, Family, Structure
from hub.rules.hand import Hand, PostKind
from hub.rules.pokerstars import HandContext, Perspective, posts_in_order

__all__ = ["SPEC_VERSION", "ohh_document"]

SPEC_VERSION = "1.4.6"
"""The OHH specification written."""

_BET_TYPE = {Structure.NO_LIMIT: "NL", Structure.POT_LIMIT: "PL", Structure.FIXED_LIMIT: "FL"}
_GAME_TYPE = {
    Evaluation.HIGH: {Family.BOARD: "Holdem", Family.STUD: "Stud", Family.DRAW: "Draw"},
    Evaluation.SHORT_DECK_HIGH: {Family.BOARD: "Holdem"},
    Evaluation.OMAHA_HIGH: {Family.BOARD: "Omaha"},
    Evaluation.OMAHA_HIGH_LOW8: {Family.BOARD: "OmahaHiLo"},
    Evaluation.HIGH_LOW8: {Family.STUD: "StudHiLo"},
    Evaluation.A5_LOW: {Family.STUD: "Stud"},
    Evaluation.DEUCE_SEVEN_LOW: {Family.DRAW: "Draw"},
    Evaluation.BADUGI: {Family.DRAW: "Draw"},
}
_BOARD_STREETS = ("Preflop", "Flop", "Turn", "River")
_STUD_STREETS = ("Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh")
_DRAW_STREETS = ("Deal", "First Draw", "Second Draw", "Third Draw")
_BETS = {
    ActionKind.FOLD: "Fold",
    ActionKind.CHECK: "Check",
    ActionKind.CALL: "Call",
    ActionKind.BET: "Bet",
    ActionKind.RAISE: "Raise",
    ActionKind.BRING_IN: "Post Bring In",
    ActionKind.COMPLETE: "Bet",
}


def _street_name(hand: Hand, street: int) -> str:
    g = hand.game
    if g.family is Family.BOARD:
        return _BOARD_STREETS[min(street, 3)]
    if g.family is Family.STUD:
        first = 0 if len(g.streets) == 4 else 1
        return f"{_STUD_STREETS[first + street]} Street"
    return _DRAW_STREETS[min(street, 3)]


def _cards(cards: Iterable[CardIndex]) -> list[str]:
    return [card_code(c) for c in cards]


def ohh_document(hand: Hand, ctx: HandContext, view: Perspective | None = None) -> dict[str, Any]:
    """The OHH document of a complete ``hand`` (see the module's docs)."""
    view = view if view is not None else Perspective.shown()
    g, st = hand.game, hand.stakes
    shown = {r.seat for r in hand.log if isinstance(r, ShowOrMuck) and r.shown}
    number = 0

    def act(player: int, action: str, **extra: Any) -> dict[str, Any]:
        nonlocal number
        number += 1
        return {"action_number": number, "player_id": player, "action": action, **extra}

    big = max(st.blinds, default=0)
    rounds: list[dict[str, Any]] = []
    current: dict[str, Any] = {}

    def open_round(street: int) -> None:
        nonlocal current
        board = [r.card for r in hand.log if isinstance(r, Deal)
                 and r.kind is DealKind.BOARD and r.street == street]  # fmt: skip
        current = {"id": len(rounds), "street": _street_name(hand, street), "cards": _cards(board),
                   "actions": []}  # fmt: skip
        rounds.append(current)

    open_round(0)
    for post in posts_in_order(hand):
        if post.kind is PostKind.ANTE:
            name = "Post Ante"
        elif post.kind is PostKind.DEAD_BLIND:
            name = "Post Dead"
        elif st.blinds[post.seat] == big:
            name = "Post BB"
        elif 0 < st.blinds[post.seat] < big:
            name = "Post SB"
        else:
            name = "Straddle"
        current["actions"].append(act(post.seat, name, amount=post.amount))
    street = 0
    dealt: dict[int, list[CardIndex]] = {}

    def deal_lines(upto: int) -> None:
        """``Dealt Cards`` for each seat's cards of street ``upto`` it may show."""
        new: dict[int, list[tuple[CardIndex, bool]]] = {}
        for r in hand.log:
            if isinstance(r, Deal) and r.kind is DealKind.HOLE and r.street == upto:
                assert r.seat is not None
                new.setdefault(r.seat, []).append((r.card, r.up))
        if g.family is Family.DRAW and upto > 0:
            return  # replacements go with each seat's discard
        for seat in sorted(new):
            mine = view.sees(seat, seat in shown)
            cards = [c for c, up in new[seat] if mine or up]
            dealt.setdefault(seat, []).extend(c for c, _ in new[seat])
            if cards:
                current["actions"].append(act(seat, "Dealt Cards", cards=_cards(cards)))

    deal_lines(0)
    showdown = False
    for r in hand.log:
        if isinstance(r, ShowOrMuck):
            if not showdown:
                current = {"id": len(rounds), "street": "Showdown", "actions": []}
                rounds.append(current)
                showdown = True
            if r.shown:
                current["actions"].append(act(r.seat, "Shows Cards", cards=_cards(r.cards)))
            elif view.sees(r.seat, False):
                current["actions"].append(
                    act(r.seat, "Mucks Cards", cards=_cards(dealt.get(r.seat, [])))
                )
            else:
                current["actions"].append(act(r.seat, "Mucks Cards"))
            continue
        if not isinstance(r, (Deal, Discard, Action)):
            continue
        if r.street != street and not showdown:
            street = r.street
            open_round(street)
            deal_lines(street)
        if isinstance(r, Discard):
            mine = view.sees(r.seat, r.seat in shown)
            if not r.cards:
                current["actions"].append(act(r.seat, "Stands Pat"))
                continue
            extra: dict[str, Any] = {"cards": _cards(r.cards)} if mine else {}
            current["actions"].append(act(r.seat, "Discards Cards", **extra))
            new = [d.card for d in hand.log if isinstance(d, Deal) and d.kind is DealKind.HOLE
                   and d.seat == r.seat and d.street == r.street]  # fmt: skip
            dealt[r.seat] = [c for c in dealt.get(r.seat, []) if c not in r.cards] + new
            if mine and new:
                current["actions"].append(act(r.seat, "Dealt Cards", cards=_cards(new)))
        elif isinstance(r, Action):
            extra = {} if r.kind in (ActionKind.FOLD, ActionKind.CHECK) else {"amount": r.amount}
            if r.all_in:
                extra["is_allin"] = True
            current["actions"].append(act(r.seat, _BETS[r.kind], **extra))

    owed = dict(ctx.rake)
    pots = []
    for award in hand.awards:
        wins = []
        cut_total = 0
        for share in award.shares:
            cut = min(owed.get(share.seat, 0), share.amount)
            owed[share.seat] = owed.get(share.seat, 0) - cut
            cut_total += cut
            wins.append(
                {"player_id": share.seat, "win_amount": share.amount - cut, "contributed_rake": cut}
            )
        pots.append(
            {
                "number": award.pot,
                "amount": award.amount,
                "rake": cut_total,
                "jackpot": 0,
                "player_wins": wins,
            }
        )
    doc: dict[str, Any] = {
        "spec_version": SPEC_VERSION,
        "site_name": "feltwire",
        "network_name": "feltwire",
        "internal_version": "1.0.0",
        "tournament": False,
        "game_number": str(ctx.hand_id),
        "start_date_utc": ctx.started.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "table_name": ctx.table,
        "game_type": _GAME_TYPE[g.evaluation][g.family],
        "bet_limit": {"bet_type": _BET_TYPE[g.structure], "bet_cap": 0},
        "table_size": ctx.max_seats,
        "currency": "Chips",
        "dealer_seat": ctx.table_seats[hand.button],
        "small_blind_amount": min((b for b in st.blinds if b), default=0) if big else 0,
        "big_blind_amount": big,
        "ante_amount": max(st.antes, default=0),
        "flags": [f"feltwire_variant:{g.variant}"],
        "players": [
            {
                "id": seat,
                "seat": ctx.table_seats[seat],
                "name": ctx.players[seat],
                "display": ctx.players[seat],
                "starting_stack": hand.starting_stacks[seat],
            }
            for seat in range(hand.n)
        ],
        "rounds": rounds,
        "pots": pots,
    }
    if view.hero_seat is not None:
        doc["hero_player_id"] = view.hero_seat
    return {"ohh": doc}
