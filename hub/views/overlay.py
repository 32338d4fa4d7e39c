"""The broadcast overlay's picture of the table, folded from the overlay feed's frames.

To be replaced: :func:`hub.views.overlay_scene.overlay_picture` is the same picture as a
pure projection of the live table (a test shows the two agree over the demo's hands);
once the app pushes that picture into the overlay's delay, this fold goes away.

Pure: :class:`OverlayState` is fed the frames the hub *released* to the producer's
overlay feed (see :mod:`hub.app.table_app`: antenna frames with every card, the rules' hand
frames with every card named, equity frames) one at a time, and answers with
:meth:`OverlayState.picture` — what the overlay shows: each player's seat, name, stack,
bet, hole cards, folded / all in / acting, equity (quick or exact), hand name, hi-lo
shares and heads-up outs; the board, the pot, the last action and the pot awards. The hub
keeps one per table and sends its picture with every change, and in the snapshot of a page
that opens late, so every page shows the table as of the delay — never newer, because only
released frames go in.

Two sources, the richer one winning:

* with the rules running (a ``hand`` frame came), players, chips, the board and hole
  cards come from the hand's frames; a hole card the rules have not learnt yet is shown
  from the seat's antenna;
* without rules, every seat whose antenna holds a card is a player, the board is what lies
  on the board antennas (in the order it arrived), and there are no chips.

Chips follow the hand: the forced bets of the ``hand`` frame (``posts``), each
``ActionTaken`` (its ``amount`` leaves the stack, ``to`` is the seat's bet), an uncalled
bet back to its owner when the round ends (R-POT-1: a card dealt after the round's
actions, a hand shown or a pot awarded ends it), ``PotAwarded`` payouts, and the stacks of
``hand_end`` as the final word. ``ActionUndone`` restores the picture before the last
action.

>>> s = OverlayState()
>>> s.apply({"type": "hand", "hand": 1, "button": 3, "seats": [1, 2, 3],
...          "small_blind": 1, "big_blind": 2, "stacks": [[1, 1000], [2, 1000], [3, 1000]],
...          "names": [[1, "Ann"], [2, "Bob"], [3, "Cy"]],
...          "posts": [[1, "blind", 5], [2, "blind", 10]]})
True
>>> s.apply({"type": "event", "event": "ActionTaken", "hand": 1, "seat": 3,
...          "kind": "raise", "amount": 60, "to": 60, "all_in": False})
True
>>> p = s.picture()
>>> p["pot"], [(x["seat"], x["stack"], x["bet"]) for x in p["players"]]
(75, [(1, 995, 5), (2, 990, 10), (3, 940, 60)])
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from feltwire.errors import ProtocolError
from feltwire.protocol import ReaderKind, reader_kind, seat_of
from hub.views.overlay_scene import BOARD_READERS, SEAT_EQUITY

Frame = Mapping[str, Any]

_ROUND_ENDERS = frozenset({"HoleCardDealt", "BurnDealt", "BoardDealt", "Discarded"})
"""Hand events that end a betting round when they come after an action in it."""


class OverlayFrameError(ValueError):
    """A released frame the overlay cannot read (a field missing or of the wrong type)."""


@dataclass
class _Chips:
    """Everything an action changes (kept per action, so an undo can restore it)."""

    stacks: dict[int, int] = field(default_factory=dict)
    bets: dict[int, int] = field(default_factory=dict)
    pot: int = 0
    folded: set[int] = field(default_factory=set)
    all_in: set[int] = field(default_factory=set)
    round_acted: bool = False
    last_action: dict[str, Any] | None = None


class OverlayState:
    """The overlay's picture of one table, built only from released overlay frames."""

    def __init__(self) -> None:
        self.frames = 0
        """Frames applied so far."""
        self._antennas: dict[str, tuple[str, ...]] = {}
        self._board_order: dict[str, list[str]] = {}
        self._names: dict[int, str] = {}
        self._rules = False
        self._reset_hand(None)

    # ------------------------------------------------------------------ folding

    def _reset_hand(self, number: int | None) -> None:
        self.hand = number
        self.in_hand = False
        self.voided = False
        self.button: int | None = None
        self.blinds: tuple[int | None, int | None] = (None, None)
        self.seats: list[int] = []
        self.chips = _Chips()
        self.hole: dict[int, list[str | None]] = {}
        self.shown: set[int] = set()
        self.shown_cards: dict[int, list[str]] = {}
        self.mucked: set[int] = set()
        self.won: dict[int, int] = {}
        self.board: list[str] = []
        self.acting: int | None = None
        self.awards: list[dict[str, Any]] = []
        self.equity: dict[str, Any] | None = None
        self._undo: list[_Chips] = []

    def apply(self, frame: Frame) -> bool:
        """Fold one released frame in; True when the picture may have changed.

        Frames of a kind the overlay does not show (alerts, button presses) are ignored
        (False); a frame missing a field it needs raises :class:`OverlayFrameError`.
        """
        try:
            changed = self._apply(frame)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            if isinstance(err, OverlayFrameError):
                raise
            raise OverlayFrameError(
                f"overlay frame {frame.get('type')!r}/{frame.get('event')!r} unreadable: "
                f"{type(err).__name__} {err}"
            ) from None
        if changed:
            self.frames += 1
        return changed

    def _apply(self, frame: Frame) -> bool:
        kind = frame["type"]
        if kind == "antenna":
            return self._antenna(str(frame["reader"]), [str(c) for c in frame["cards"]])
        if kind == "hand":
            self._hand(frame)
            return True
        if kind == "equity":
            return self._equity(frame)
        if self._rules and frame.get("hand") not in (None, self.hand):
            return False  # a frame of another hand than the one shown
        if kind == "event":
            return self._event(frame)
        if kind == "turn":
            self.acting = _opt_int(frame.get("acting"))
            self.chips.all_in = {int(s) for s in frame.get("all_in", ())}
            self.chips.folded = {int(s) for s in frame.get("folded", ())}
            return True
        if kind == "hand_end":
            self._end_round()
            self.in_hand = False
            self.acting = None
            self.voided = bool(frame.get("voided", False))
            for seat, stack in frame.get("stacks", ()):
                self.chips.stacks[int(seat)] = int(stack)
            self.chips.bets = dict.fromkeys(self.chips.bets, 0)
            self.chips.pot = 0
            if not self.awards:
                self.awards = [
                    {"text": a["text"], "message": str(a["message"])}
                    for a in frame.get("awards", ())
                ]
            return True
        return False

    def _antenna(self, reader: str, cards: list[str]) -> bool:
        try:
            kind = reader_kind(reader)
        except ProtocolError as err:
            raise OverlayFrameError(str(err)) from None
        if kind is ReaderKind.REGISTER:
            return False
        self._antennas[reader] = tuple(cards)
        if kind is ReaderKind.BOARD:
            order = [c for c in self._board_order.get(reader, []) if c in cards]
            order += [c for c in cards if c not in order]
            self._board_order[reader] = order
        return True

    def _hand(self, frame: Frame) -> None:
        self._rules = True
        self._reset_hand(int(frame["hand"]))
        self.in_hand = True
        self.button = _opt_int(frame.get("button"))
        self.blinds = (_opt_int(frame.get("small_blind")), _opt_int(frame.get("big_blind")))
        self.seats = [int(s) for s in frame["seats"]]
        for seat, name in frame.get("names", ()):
            self._names[int(seat)] = str(name)
        chips = self.chips
        for seat, stack in frame.get("stacks", ()):
            chips.stacks[int(seat)] = int(stack)
            chips.bets[int(seat)] = 0
        for seat, post, amount in frame.get("posts", ()):
            seat, amount = int(seat), int(amount)
            chips.stacks[seat] = chips.stacks.get(seat, 0) - amount
            chips.pot += amount
            if post == "blind":
                chips.bets[seat] = chips.bets.get(seat, 0) + amount
        chips.all_in = {s for s in self.seats if chips.stacks.get(s) == 0}

    def _event(self, frame: Frame) -> bool:
        name = frame["event"]
        if name in _ROUND_ENDERS and self.chips.round_acted:
            self._end_round()
        if name == "HoleCardDealt":
            seat = int(frame["seat"])
            self.hole.setdefault(seat, []).append(_opt_str(frame.get("card")))
        elif name == "BoardDealt":
            card = _opt_str(frame.get("card"))
            if card is not None:
                self.board.append(card)
        elif name == "ActionTaken":
            self._action(frame)
        elif name == "ActionUndone":
            if self._undo:
                self.chips = self._undo.pop()
        elif name == "HandShown":
            self._end_round()
            seat = int(frame["seat"])
            self.shown.add(seat)
            cards = [c for c in map(_opt_str, frame.get("cards", ())) if c is not None]
            self.shown_cards[seat] = cards
            if frame.get("whole", True):
                self.hole[seat] = [_opt_str(c) for c in frame.get("cards", ())]
            else:  # R-SHOW-3: only these cards turned up; the rest stays as it was
                known = self.hole.setdefault(seat, [])
                for card in cards:
                    if card not in known:
                        slot = known.index(None) if None in known else len(known)
                        known[slot : slot + 1] = [card]
        elif name == "HandMucked":
            self._end_round()
            self.mucked.add(int(frame["seat"]))
        elif name == "PotAwarded":
            self._end_round()
            self._award(frame)
        elif name == "HandVoided":
            self.voided = True
            self.chips.pot = 0
            for seat, stack in frame.get("stacks", ()):
                self.chips.stacks[int(seat)] = int(stack)
                self.chips.bets[int(seat)] = 0
        elif name not in ("BurnDealt", "Discarded"):
            return False
        return True

    def _action(self, frame: Frame) -> None:
        self._undo.append(copy.deepcopy(self.chips))
        chips = self.chips
        seat, kind = int(frame["seat"]), str(frame["kind"])
        amount = int(frame.get("amount", 0))
        if kind == "fold":
            chips.folded.add(seat)
        else:
            chips.stacks[seat] = chips.stacks.get(seat, 0) - amount
            chips.bets[seat] = int(frame.get("to", chips.bets.get(seat, 0) + amount))
            chips.pot += amount
        if frame.get("all_in"):
            chips.all_in.add(seat)
        chips.round_acted = True
        chips.last_action = {
            "seat": seat,
            "kind": kind,
            "amount": amount,
            "to": chips.bets.get(seat, 0),
            "all_in": bool(frame.get("all_in", False)),
        }

    def _end_round(self) -> None:
        """The betting round is over: an uncalled bet goes back (R-POT-1), bets go in."""
        chips = self.chips
        bets = chips.bets
        if bets and any(bets.values()):
            ranked = sorted(bets.items(), key=lambda kv: kv[1], reverse=True)
            (top_seat, top), second = ranked[0], ranked[1][1] if len(ranked) > 1 else 0
            if top > second:
                chips.stacks[top_seat] = chips.stacks.get(top_seat, 0) + top - second
                chips.pot -= top - second
                if chips.stacks[top_seat] > 0:
                    chips.all_in.discard(top_seat)
            chips.bets = dict.fromkeys(bets, 0)
        chips.round_acted = False

    def _award(self, frame: Frame) -> None:
        payouts = []
        for p in frame.get("payouts", ()):
            seat, amount = int(p["seat"]), int(p["amount"])
            self.chips.stacks[seat] = self.chips.stacks.get(seat, 0) + amount
            self.chips.pot = max(0, self.chips.pot - amount)
            self.won[seat] = self.won.get(seat, 0) + amount
            payouts.append({"seat": seat, "amount": amount, "half": str(p.get("half", "whole"))})
        self.awards.append(
            {
                "text": frame["text"],
                "message": str(frame["message"]),
                "pot": int(frame.get("pot", 0)),
                "amount": int(frame.get("amount", 0)),
                "payouts": payouts,
            }
        )

    def _equity(self, frame: Frame) -> bool:
        number = _opt_int(frame.get("hand"))
        if self._rules and number is not None and number != self.hand:
            return False
        self.equity = {k: v for k, v in frame.items() if k not in ("type", "t")}
        return True

    # ------------------------------------------------------------------ the picture

    def _seat_cards(self, seat: int) -> list[str]:
        """The cards on a seat's antennas (its hole antenna and, in stud, its up cards)."""
        return list(self._antennas.get(f"seat{seat}", ())) + list(
            self._antennas.get(f"up{seat}", ())
        )

    def _cards_of(self, seat: int) -> list[str | None]:
        on_antenna = self._seat_cards(seat)
        if not self._rules:
            return list(on_antenna)
        known = list(self.hole.get(seat, []))
        spare = [c for c in on_antenna if c not in known]
        for i, card in enumerate(known):  # a card the rules have not learnt: the antenna's
            if card is None and spare:
                known[i] = spare.pop(0)
        if seat not in self.shown:
            known += spare  # cards on the antenna the rules have not taken (yet)
        return known

    def _board(self) -> list[str]:
        if self._rules:
            return list(self.board)
        out: list[str] = []
        for reader in BOARD_READERS:
            out += self._board_order.get(reader, [])
        return out

    def _player_seats(self) -> list[int]:
        seats = set(self.seats)
        for reader, cards in self._antennas.items():
            seat = seat_of(reader) if cards else None
            if seat is not None:
                seats.add(seat)
        if self.equity is not None:
            seats.update(int(p["seat"]) for p in self.equity.get("players", ()))
        return sorted(seats)

    def picture(self) -> dict[str, Any]:
        """What the overlay shows now (JSON-ready; a fresh object on every call)."""
        chips = self.chips
        equity = self.equity or {}
        by_seat = {int(p["seat"]): p for p in equity.get("players", ())}
        board = self._board()
        players = []
        for seat in self._player_seats():
            folded = seat in chips.folded
            eq = by_seat.get(seat) if not folded else None
            player: dict[str, Any] = {
                "seat": seat,
                "name": self._names.get(seat) if self._rules else None,
                "in_hand": seat in self.seats if self._rules else True,
                "stack": chips.stacks.get(seat),
                "bet": chips.bets.get(seat, 0),
                "cards": self._cards_of(seat),
                "folded": folded,
                "all_in": seat in chips.all_in and not folded,
                "acting": seat == self.acting and self.in_hand,
                "button": seat == self.button,
                "shown": seat in self.shown,
                "shown_cards": list(self.shown_cards.get(seat, ())),
                "mucked": seat in self.mucked,
                "won": self.won.get(seat, 0),
                "equity": None,
            }
            if eq is not None:
                shown = {k: eq[k] for k in SEAT_EQUITY if k in eq}
                player["equity"] = shown | {"exact": bool(equity.get("exact", False))}
            players.append(player)
        summary = None
        if self.equity is not None and by_seat:
            summary = {
                "exact": bool(equity.get("exact", False)),
                "error": equity.get("error", 0.0),
                "low": equity.get("low"),
                "stale": list(equity.get("board", board)) != board,
                "outs": equity.get("outs"),
            }
        return {
            "rules": self._rules,
            "hand": self.hand,
            "in_hand": self.in_hand,
            "voided": self.voided,
            "button": self.button,
            "small_blind": self.blinds[0],
            "big_blind": self.blinds[1],
            "acting": self.acting if self.in_hand else None,
            "pot": chips.pot,
            "board": board,
            "last_action": dict(chips.last_action) if chips.last_action else None,
            "players": players,
            "equity": summary,
            "awards": copy.deepcopy(self.awards),
        }


def fold(frames: Iterable[Frame]) -> OverlayState:
    """A fresh state with ``frames`` applied in order (what a page open all along saw).

    >>> fold([{"type": "antenna", "reader": "seat2", "cards": ["As", "Kd"]}]).picture()[
    ...     "players"][0]["cards"]
    ['As', 'Kd']
    """
    state = OverlayState()
    for frame in frames:
        state.apply(frame)
    return state


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)
