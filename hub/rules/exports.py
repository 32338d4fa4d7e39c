"""A hand in the format asked for — PHH, PokerStars-style text or Open Hand History —
through a perspective, one hand or many in one file (what ``feltwire history export``
writes). Pure: hands and their contexts in, text out.

PHH carries every card it is given (PokerKit must be able to replay it); through a
perspective, a hole card or discard the reader may not see is written ``??`` (PHH's
unknown card), card by card — a seat that showed one card of two (R-SHOW-3) shows that
one only, and its discards stay hidden — and a mucked hand stays mucked. An uncalled
winner's show or muck (R-SHOW-3) is left out of the actions: PHH (PokerKit) has no
showdown in a hand everyone else folded, and would not replay the file; the cards shown
are seen in the dealt cards. Many hands in one file: PHH as a ``.phhs``
file (one TOML table a hand: ``[1]``, ``[2]`` …), PokerStars text with two blank lines
between hands, OHH objects separated by one blank line (the spec's storage format).

>>> FORMATS, SUFFIX["ohh"], SUFFIX["pokerstars"], SUFFIX["phh"]
(('phh', 'pokerstars', 'ohh'), '.ohh', '.txt', '.phhs')
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from decimal import Decimal
from typing import Any

import tomli_w

from feltwire.cards import card_code
from hub.rules.betting import Action, ActionKind
from hub.rules.dealing import ShowOrMuck
from hub.rules.hand import Hand
from hub.rules.ohh import ohh_document
from hub.rules.phh import dumps, from_hand, loads
from hub.rules.pokerstars import HandContext, Perspective, pokerstars_text

__all__ = ["FORMATS", "SUFFIX", "file_name", "hand_text", "phh_fields"]

FORMATS = ("phh", "pokerstars", "ohh")
"""The formats, as ``--format`` names them."""
SUFFIX = {"phh": ".phhs", "pokerstars": ".txt", "ohh": ".ohh"}
"""The file suffix of a file of hands in each format."""
SEPARATOR = {"phh": "", "pokerstars": "\n\n", "ohh": "\n"}
"""What goes between two hands' texts in a file (each text ends with a newline)."""


def file_name(table: str) -> str:
    """A table id as an ASCII file name (the OHH storage format asks for one).

    >>> file_name("Stůl 1")
    'St_l_1'
    """
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in table)


_DEALT = re.compile(r"^(d dh p(\d+) )(\S+)$")
_DISCARD = re.compile(r"^(p(\d+) sd )(\S+)$")
_SHOW = re.compile(r"^p\d+ sm( |$)")


def phh_fields(hand: Hand, ctx: HandContext, view: Perspective) -> dict[str, Any]:
    """The PHH fields of ``hand`` with its table, seats, players and time, through
    ``view`` (a card it may not see written ``??``)."""
    hh = from_hand(
        hand,
        players=list(ctx.players),
        seats=list(ctx.table_seats),
        seat_count=ctx.max_seats,
        table=ctx.table,
        time_zone="UTC",
        year=ctx.started.year,
        month=ctx.started.month,
        day=ctx.started.day,
    )
    hh = replace(hh, metadata={**hh.metadata, "hand": ctx.hand_id})
    shown: dict[int, set[str]] = {}
    for r in hand.log:
        if isinstance(r, ShowOrMuck) and r.shown:
            shown.setdefault(r.seat, set()).update(card_code(c) for c in r.cards)

    def mask(action: str) -> str:
        for pattern in (_DEALT, _DISCARD):
            m = pattern.match(action)
            if m is None:
                continue
            seat = int(m.group(2)) - 1
            if view.sees(seat, False):
                return action
            cards = [m.group(3)[i : i + 2] for i in range(0, len(m.group(3)), 2)]
            seen = shown.get(seat, set())
            return m.group(1) + "".join(c if c in seen else "??" for c in cards)
        return action

    fields: dict[str, Any] = dict(_toml_fields(dumps(hh)))
    actions = [mask(a) for a in fields["actions"]]
    folds = sum(1 for r in hand.log if isinstance(r, Action) and r.kind is ActionKind.FOLD)
    if folds >= hand.n - 1:  # no showdown: the uncalled winner's show or muck goes
        actions = [a for a in actions if not _SHOW.match(a)]
    fields["actions"] = actions
    return fields


def _toml_fields(text: str) -> dict[str, Any]:
    """The fields of a PHH text, as TOML values (through our own reader: it checks)."""
    import tomllib

    loads(text)  # our own reader takes it: the fields are PHH
    return tomllib.loads(text, parse_float=Decimal)


def hand_text(
    fmt: str, hand: Hand, ctx: HandContext, view: Perspective | None = None, *, number: int = 1
) -> str:
    """``hand`` in format ``fmt`` (one of :data:`FORMATS`) through ``view`` (default: what
    the table saw), as the ``number``-th hand of a file (PHH's table name ``[number]``);
    the texts of a file's hands are joined with :data:`SEPARATOR`."""
    view = view if view is not None else Perspective.shown()
    if fmt == "pokerstars":
        return pokerstars_text(hand, ctx, view)
    if fmt == "ohh":
        return json.dumps(ohh_document(hand, ctx, view), ensure_ascii=False) + "\n"
    if fmt == "phh":
        return tomli_w.dumps({str(number): phh_fields(hand, ctx, view)})
    raise ValueError(f"unknown format {fmt!r}: one of {', '.join(FORMATS)}")
