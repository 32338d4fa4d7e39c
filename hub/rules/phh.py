"""PHH (Poker Hand History) read, write and replay.

Reads both the first PHH layout used by the files in ``data/phh`` (``ante_trimming_status``,
``min_bet``, ``'d dh p1 AsKs'``, ``'p3 cbr 170000'``) and the current specification as
PokerKit 0.7.7 writes it (the same grammar with optional fields, ``pN sm -`` for "show the
known cards", ``.phhs`` files holding several hands as TOML tables). The writer emits the
current layout.

Shows: ``pN sm AsKs`` shows a hand, ``pN sm`` mucks it. A hand that won uncontested may
show only some of its cards once the pot is won (R-SHOW-3): ``pN sm As`` (or ``As??``)
shows the ace and keeps the other card face down. The showdown order is not enforced on
replay: shows and mucks replay in the order the file has them (R-SHOW-4).

Amounts: the engine counts in whole chips. A file with fractional amounts
(``1259450.25``) is scaled by a power of ten (:attr:`HandHistory.scale`); finishing stacks
are compared in the file's own units.

Heads-up: PHH lists blinds as ``[SB, BB]`` even with two players, where the button
(seat 1, the last) posts the small blind; the reader swaps them into the engine's
per-seat :class:`~hub.rules.games.Stakes` (and the antes likewise), the writer swaps back.

feltwire's own fields (the spec's ``_`` extension fields):

``_feltwire_variant``
    A variant code the PHH standard lacks: ``F5S`` (five-card stud; also ``N5S``/``P5S``)
    and ``N5D``/``P5D``/``F5D`` (five-card draw). The writer also puts the code in
    ``variant``; a reader that knows the field prefers it.
``_bring_in_ties``
    ``"suit"`` (default for files: recorded hands follow the casino rule, R-STUD-1) or
    ``"seat"`` (the seed's rule: the first seat left of the dealer).
``_cap_heads_up``
    ``false`` lifts the fixed-limit cap heads-up (R-BET-4 option).
``_chip_unit``
    The smallest chip (R-BUY-6, odd chips), in file units; default 1 engine chip.
``_dead_blinds``
    Dead blind parts per seat (R-BLIND-4/5), in file units, in the file's seat order.
``_big_blind_seat``
    The big blind's player number (``2`` for p2), written when the blinds alone do not
    tell it (R-BET-8): a returning player's live post right after the big blind, a dead
    small blind and a live post of the same size, or equal blinds heads-up. Absent, the
    blinds are read as PokerKit reads them: the largest, the last of equal ones — heads-up
    with equal blinds that is the button (p2), so p1 acts first pre-flop.
``_short_blinds_full_price``
    ``true``: a blind posted short (all in for less) leaves the price at the full blind
    (R-BET-2 *default*); written when a blind was short. Absent: the largest blind posted
    sets it, as PokerKit plays and files written before the rule did.

>>> text = '''variant = 'NT'
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... min_bet = 2
... starting_stacks = [200, 200]
... actions = ['d dh p1 AsKs', 'd dh p2 7h2c', 'p2 f']'''
>>> hh = loads(text)
>>> replay_history(hh).stacks
[201, 199]
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import tomli_w

from feltwire.cards import CardIndex, card_code, card_index
from feltwire.text import Param, Player, Text
from hub.messages.vocabulary import phase
from hub.rules.betting import Action, ActionKind
from hub.rules.dealing import UNKNOWN, Deal, DealKind, Discard, ShowOrMuck
from hub.rules.errors import HandHistoryError, RulesError
from hub.rules.games import BringInTies, Family, Game, Options, Stakes, Structure, game
from hub.rules.hand import Hand, Phase, PostKind, big_blind_seat

__all__ = [
    "HandHistory",
    "apply_action",
    "dumps",
    "from_hand",
    "loads",
    "loads_all",
    "parse_cards",
    "replay_history",
]

STANDARD_VARIANTS = frozenset(
    {"FT", "NT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB"}
)
"""The variant codes of the PHH standard (PokerKit 0.7.7)."""

_GAME_FIELDS = (
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "bring_in",
    "small_bet",
    "big_bet",
    "min_bet",
    "starting_stacks",
    "actions",
)
_AMOUNT_FIELDS = ("antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet", "min_bet")


def _file_big_blind(blinds: Sequence[int]) -> int:
    """The big blind a file without ``_big_blind_seat`` means (``blinds`` in seat order):
    PokerKit's reading, which heads-up with equal blinds takes the button's (seat 1), and
    otherwise the engine's own (:func:`~hub.rules.hand.big_blind_seat`)."""
    if len(blinds) == 2 and blinds[0] == blinds[1] > 0:
        return 1
    return big_blind_seat(blinds)


@dataclass(frozen=True, slots=True)
class HandHistory:
    """One hand as a PHH file records it, amounts already in engine chips.

    ``metadata`` holds every other field (players, event, ``finishing_stacks`` …) as read,
    including the ``_`` extension fields.
    """

    variant: str
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    starting_stacks: tuple[int, ...]
    actions: tuple[str, ...]
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    min_bet: int = 0
    ante_trimming_status: bool = False
    scale: int = 1
    """File amount × scale = engine chips."""
    metadata: Mapping[str, Any] = field(default_factory=dict)

    @property
    def game(self) -> Game:
        """The engine's game for this variant."""
        return game(str(self.metadata.get("_feltwire_variant", self.variant)))

    @property
    def finishing_stacks(self) -> tuple[Decimal, ...] | None:
        """The file's finishing stacks in file units (None when absent)."""
        raw = self.metadata.get("finishing_stacks")
        if raw is None:
            return None
        return tuple(Decimal(str(v)) for v in raw)

    def stakes(self) -> Stakes:
        """The engine's stakes, heads-up blinds and antes swapped into seat order."""
        n = len(self.starting_stacks)
        antes = _pad(self.antes, n)
        blinds = _pad(self.blinds_or_straddles, n)
        if n == 2:
            antes = (antes[1], antes[0])
            blinds = (blinds[1], blinds[0])
        unit = self.metadata.get("_chip_unit")
        raw_dead = self.metadata.get("_dead_blinds")
        dead = tuple(_to_chips(v, self.scale) for v in raw_dead) if raw_dead else ()
        if len(dead) == 2:
            dead = (dead[1], dead[0])
        raw_bb = self.metadata.get("_big_blind_seat")
        bb: int | None = None
        if raw_bb is not None:
            bb = int(raw_bb) - 1
        elif _file_big_blind(blinds) != big_blind_seat(blinds):
            bb = _file_big_blind(blinds)
        return Stakes(
            antes=antes,
            blinds=tuple(abs(b) for b in blinds),
            dead_blinds=dead,
            bring_in=self.bring_in,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            min_bet=self.min_bet,
            chip_unit=_to_chips(unit, self.scale) if unit is not None else 1,
            big_blind_seat=bb,
        )

    def options(self, **overrides: Any) -> Options:
        """Options for replaying the file (casino conventions unless a ``_`` field says
        otherwise); keyword arguments override. The showdown order is not enforced: a
        recorded hand whose shows or mucks came in another order replays (R-SHOW-4)."""
        ties = self.metadata.get("_bring_in_ties", "suit")
        values: dict[str, Any] = {
            "bring_in_ties": BringInTies(ties),
            "antes_by_level": bool(self.ante_trimming_status),
            "cap_heads_up": bool(self.metadata.get("_cap_heads_up", True)),
            "short_blinds_full_price": bool(self.metadata.get("_short_blinds_full_price", False)),
            "showdown_order": False,
        }
        values.update(overrides)
        return Options(**values)

    def create_hand(self, options: Options | None = None) -> Hand:
        """A new hand with the file's game, stakes and starting stacks."""
        return Hand(self.game, self.stakes(), self.starting_stacks, options or self.options())

    def to_file_units(self, chips: int) -> Decimal:
        """Engine chips back to the file's units."""
        return Decimal(chips) / self.scale if self.scale != 1 else Decimal(chips)


def _pad(values: Sequence[int], n: int) -> tuple[int, ...]:
    out = list(values)[:n]
    return tuple(out + [0] * (n - len(out)))


def _decimals(value: Any) -> int:
    if isinstance(value, Decimal):
        exp = value.normalize().as_tuple().exponent
        return max(0, -exp) if isinstance(exp, int) else 0
    return 0


def _to_chips(value: Any, scale: int) -> int:
    if isinstance(value, bool):
        raise _not_an_amount(value)
    if isinstance(value, int):
        return value * scale
    if isinstance(value, Decimal):
        chips = value * scale
        if chips != chips.to_integral_value():
            raise HandHistoryError(
                Text("refusal.hand_history.amount_too_fine", {"value": str(value)})
            )
        return int(chips)
    if isinstance(value, str):
        return _to_chips(Decimal(value), scale)
    raise _not_an_amount(value)


def _not_an_amount(value: object) -> HandHistoryError:
    return HandHistoryError(Text("refusal.hand_history.amount_expected", {"value": repr(value)}))


def _from_mapping(data: Mapping[str, Any]) -> HandHistory:
    missing = [k for k in ("variant", "antes", "starting_stacks", "actions") if k not in data]
    if missing:
        raise HandHistoryError(
            Text("refusal.hand_history.missing_fields", {"fields": ", ".join(missing)})
        )
    actions = [str(a) for a in data["actions"]]
    places = 0
    for name in (*_AMOUNT_FIELDS, "starting_stacks"):
        value = data.get(name)
        if isinstance(value, list):
            places = max([places, *(_decimals(v) for v in value)])
        elif value is not None:
            places = max(places, _decimals(value))
    for a in actions:
        words = a.split("#", 1)[0].split()
        if len(words) == 3 and words[1] == "cbr":
            places = max(places, _decimals(Decimal(words[2])))
    scale = 10**places

    seats = len(data["starting_stacks"])

    def amounts(name: str) -> tuple[int, ...]:
        value = data.get(name) or []
        if not isinstance(value, list):  # a single amount for every seat
            value = [value] * seats
        return tuple(_to_chips(v, scale) for v in value)

    def amount(name: str) -> int:
        v = data.get(name)
        return 0 if v is None else _to_chips(v, scale)

    metadata = {k: v for k, v in data.items() if k not in _GAME_FIELDS}
    return HandHistory(
        variant=str(data["variant"]),
        antes=amounts("antes"),
        blinds_or_straddles=amounts("blinds_or_straddles"),
        starting_stacks=amounts("starting_stacks"),
        actions=tuple(actions),
        bring_in=amount("bring_in"),
        small_bet=amount("small_bet"),
        big_bet=amount("big_bet"),
        min_bet=amount("min_bet"),
        ante_trimming_status=bool(data.get("ante_trimming_status", False)),
        scale=scale,
        metadata=metadata,
    )


def loads(text: str) -> HandHistory:
    """Read one hand from PHH text."""
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise _not_toml(exc) from None
    return _from_mapping(data)


def loads_all(text: str) -> Iterator[tuple[str, HandHistory]]:
    """Read every hand of a ``.phh`` (one hand) or ``.phhs`` (TOML tables, one per hand)
    text, yielding (label, hand); the label is ``""`` for a single-hand file."""
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise _not_toml(exc) from None
    if "variant" in data:
        yield "", _from_mapping(data)
        return
    for label, table in data.items():
        if isinstance(table, dict) and "variant" in table:
            yield str(label), _from_mapping(table)


def _not_toml(exc: tomllib.TOMLDecodeError) -> HandHistoryError:
    return HandHistoryError(Text("refusal.hand_history.not_toml", {"error": str(exc)}))


def parse_cards(text: str) -> list[CardIndex]:
    """PHH card string (``AsKs``, ``????``) to card indexes (``UNKNOWN`` for ``??``)."""
    if len(text) % 2:
        raise HandHistoryError(Text("refusal.hand_history.bad_card_string"))
    out: list[CardIndex] = []
    for i in range(0, len(text), 2):
        code = text[i : i + 2]
        if code == "??":
            out.append(UNKNOWN)
        else:
            try:
                out.append(card_index(code))
            except ValueError:
                raise HandHistoryError(Text("refusal.hand_history.bad_card")) from None
    return out


def _seat(word: str, n: int) -> int:
    if len(word) < 2 or word[0] != "p" or not word[1:].isdigit():
        raise HandHistoryError(Text("refusal.hand_history.bad_player", {"word": repr(word)}))
    seat = int(word[1:]) - 1
    if not 0 <= seat < n:
        absent: dict[str, Param] = {"word": repr(word), "players": n}
        raise HandHistoryError(Text("refusal.hand_history.no_player", absent))
    return seat


def apply_action(hand: Hand, action: str, scale: int = 1) -> None:
    """Apply one PHH action string to ``hand`` (raises a RulesError when illegal)."""
    words = action.split("#", 1)[0].split()
    if not words:
        return
    n = hand.n
    if words[0] == "d":
        if len(words) == 4 and words[1] == "dh":
            seat = _seat(words[2], n)
            for c in parse_cards(words[3]):
                hand.deal_hole(seat, c)
            return
        if len(words) == 3 and words[1] == "db":
            for c in parse_cards(words[2]):
                hand.deal_board(c)
            return
        raise HandHistoryError(Text("refusal.hand_history.bad_dealer_action"))
    seat = _seat(words[0], n)
    verb = words[1] if len(words) > 1 else ""
    if verb == "f" and len(words) == 2:
        hand.fold(seat)
    elif verb == "cc" and len(words) == 2:
        hand.check_or_call(seat)
    elif verb == "cbr" and len(words) == 3:
        hand.bet_or_raise_to(_to_chips(Decimal(words[2]), scale), seat)
    elif verb == "pb" and len(words) == 2:
        hand.bring_in(seat)
    elif verb == "sd" and len(words) in (2, 3):
        hand.discard(seat, parse_cards(words[2]) if len(words) == 3 else [])
    elif verb == "sm" and len(words) == 2:
        hand.muck(seat)
    elif verb == "sm" and len(words) == 3:
        hand.show(seat, None if words[2] == "-" else parse_cards(words[2]))
    else:
        raise HandHistoryError(Text("refusal.hand_history.bad_action"))


def replay_history(hh: HandHistory, options: Options | None = None) -> Hand:
    """Play every action of ``hh`` and finish the showdown the way the file implies: a
    seat the file leaves undecided shows when its cards are known, else mucks."""
    hand = hh.create_hand(options)
    for index, action in enumerate(hh.actions):
        try:
            apply_action(hand, action, hh.scale)
        except RulesError as exc:  # a HandHistoryError too: the same class, the same rule
            at: dict[str, Param] = {"index": index + 1, "reason": exc.text}
            raise exc.reworded(Text("refusal.hand_history.action_failed", at)) from None
    while hand.phase is Phase.SHOWDOWN:
        seat = hand.shower
        assert seat is not None
        if UNKNOWN not in hand.hole[seat]:
            hand.show(seat)
        elif hand.can_muck(seat):
            hand.muck(seat)
        else:
            unknown = {"seat": Player(seat)}
            raise HandHistoryError(Text("refusal.hand_history.cards_unknown_at_showdown", unknown))
    if hand.phase is not Phase.COMPLETE:
        early = {"phase": phase(hand.phase.value)}
        raise HandHistoryError(Text("refusal.hand_history.actions_end_early", early))
    return hand


# ------------------------------------------------------------------- writing


def _cards(cards: Sequence[CardIndex]) -> str:
    return "".join("??" if c < 0 else card_code(c) for c in cards)


def _history_actions(hand: Hand) -> list[str]:
    actions: list[str] = []
    hole: dict[int, list[CardIndex]] = {}
    board: list[CardIndex] = []
    street = -1

    def flush() -> None:
        for seat in sorted(hole):
            actions.append(f"d dh p{seat + 1} {_cards(hole[seat])}")
        if board:
            actions.append(f"d db {_cards(board)}")
        hole.clear()
        board.clear()

    for r in hand.log:
        if isinstance(r, Deal):
            if r.street != street:
                flush()
                street = r.street
            if r.kind is DealKind.HOLE:
                assert r.seat is not None
                hole.setdefault(r.seat, []).append(r.card)
            elif r.kind is DealKind.BOARD:
                board.append(r.card)
            continue
        if isinstance(r, Discard):
            if board or (hole and r.street != street):
                flush()
            actions.append(f"p{r.seat + 1} sd {_cards(r.cards)}".rstrip())
            continue
        flush()
        if isinstance(r, Action):
            p = f"p{r.seat + 1}"
            if r.kind is ActionKind.FOLD:
                actions.append(f"{p} f")
            elif r.kind in (ActionKind.CHECK, ActionKind.CALL):
                actions.append(f"{p} cc")
            elif r.kind is ActionKind.BRING_IN:
                actions.append(f"{p} pb")
            else:
                actions.append(f"{p} cbr {{{r.to}}}")
        elif isinstance(r, ShowOrMuck):
            if r.shown:
                actions.append(f"p{r.seat + 1} sm {_cards(r.cards)}")
            else:
                actions.append(f"p{r.seat + 1} sm")
    flush()
    return actions


def from_hand(hand: Hand, scale: int = 1, **metadata: Any) -> HandHistory:
    """A :class:`HandHistory` of a played (or partly played) hand.

    ``metadata`` adds fields such as ``players`` or ``event``; ``finishing_stacks`` is
    filled in when the hand is complete. Amounts stay in engine chips (``scale``
    converts them back on :func:`dumps`).
    """
    g, st, n = hand.game, hand.stakes, hand.n
    antes, blinds = st.antes, st.blinds
    if n == 2:
        antes, blinds = (antes[1], antes[0]), (blinds[1], blinds[0])
    raw_actions = _history_actions(hand)
    actions = tuple(_format_amounts(a, scale) for a in raw_actions)
    meta = dict(metadata)
    if any(st.dead_blinds):
        dead = st.dead_blinds if n != 2 else (st.dead_blinds[1], st.dead_blinds[0])
        meta.setdefault("_dead_blinds", [_unit(d, scale) for d in dead])
    bb = st.big_blind_seat if st.big_blind_seat is not None else big_blind_seat(st.blinds)
    if g.uses_blinds and bb != _file_big_blind(st.blinds):
        meta.setdefault("_big_blind_seat", bb + 1)
    if g.variant not in STANDARD_VARIANTS:
        meta.setdefault("_feltwire_variant", g.variant)
    opts = hand.options
    posted = [p.amount for p in hand.posts if p.kind is PostKind.BLIND]
    if opts.short_blinds_full_price and max(posted, default=0) < max(st.blinds, default=0):
        meta.setdefault("_short_blinds_full_price", True)  # the price differs (R-BET-2)
    if g.family is Family.STUD:
        meta.setdefault("_bring_in_ties", opts.bring_in_ties.value)
    if not opts.cap_heads_up:
        meta.setdefault("_cap_heads_up", False)
    if hand.phase is Phase.COMPLETE:
        meta.setdefault("finishing_stacks", [_unit(s, scale) for s in hand.stacks])
    fixed = g.structure is Structure.FIXED_LIMIT
    return HandHistory(
        variant=g.variant,
        antes=antes,
        blinds_or_straddles=blinds if g.uses_blinds else (),
        starting_stacks=hand.starting_stacks,
        actions=actions,
        bring_in=st.bring_in if g.family is Family.STUD else 0,
        small_bet=st.small_bet if fixed else 0,
        big_bet=st.big_bet if fixed else 0,
        min_bet=0 if fixed else (st.min_bet or max(blinds, default=0)),
        ante_trimming_status=opts.antes_by_level,
        scale=scale,
        metadata=meta,
    )


def _unit(chips: int, scale: int) -> int | Decimal:
    return chips if scale == 1 else Decimal(chips) / scale


def _format_amounts(action: str, scale: int) -> str:
    if "{" not in action:
        return action
    head, rest = action.split("{", 1)
    amount = _unit(int(rest.rstrip("}")), scale)
    if isinstance(amount, int):
        return head + str(amount)
    text = format(amount.normalize(), "f")
    return head + (text if "." in text else text + ".0")


def dumps(hh: HandHistory) -> str:
    """PHH text (current layout) of ``hh``; reading it back gives the same hand. Written
    by ``tomli-w``: any name (a quote, a backslash, a control character) stays valid TOML.
    Amounts of a scaled hand are decimals (``1.5``, ``2.0``); one chip a unit, integers."""
    g = hh.game
    scale = hh.scale

    def amounts(values: Sequence[int]) -> list[int | Decimal]:
        return [_unit(v, scale) for v in values]

    doc: dict[str, Any] = {
        "variant": hh.variant,
        "ante_trimming_status": hh.ante_trimming_status,
        "antes": amounts(hh.antes),
    }
    if g.uses_blinds:
        doc["blinds_or_straddles"] = amounts(hh.blinds_or_straddles)
    if g.family is Family.STUD:
        doc["bring_in"] = _unit(hh.bring_in, scale)
    if g.structure is Structure.FIXED_LIMIT:
        doc["small_bet"] = _unit(hh.small_bet, scale)
        doc["big_bet"] = _unit(hh.big_bet, scale)
    else:
        doc["min_bet"] = _unit(hh.min_bet, scale)
    doc["starting_stacks"] = amounts(hh.starting_stacks)
    doc["actions"] = list(hh.actions)
    for key, value in hh.metadata.items():
        if value is not None:
            doc[key] = list(value) if isinstance(value, tuple) else value
    return tomli_w.dumps(doc)
