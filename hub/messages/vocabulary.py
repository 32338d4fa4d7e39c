"""The nested texts other texts take as parameters: antennas, streets, phases, lists.

A producer that says "on seat3" or "on the flop" passes the antenna or the street as a
:class:`~feltwire.text.Text` built here, so each language names it its own way:

>>> from hub.messages.phrasebook import render
>>> render(antenna("up3"), "en"), render(antenna("up3"), "cs")
('up3', 'otevřené karty místa 3')
>>> render(joined([antenna("board"), antenna("seat2")]), "cs")
'společné karty a místo 2'
>>> render(street("4th street"), "cs"), render(phase("drawing"), "cs")
('4th street', 'výměna karet')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from feltwire.text import Param, Text

_NUMBERED = re.compile(r"^(seat|up|flop)([1-9][0-9]*)$")
_NAMED: Final = frozenset({"board", "turn", "river", "burn", "muck", "register"})

STREET_KEYS: Final[dict[str, str]] = {
    "pre-flop": "street.pre_flop",
    "flop": "street.flop",
    "turn": "street.turn",
    "river": "street.river",
    "2nd street": "street.second",
    "3rd street": "street.third",
    "4th street": "street.fourth",
    "5th street": "street.fifth",
    "6th street": "street.sixth",
    "7th street": "street.seventh",
    "pre-draw": "street.pre_draw",
    "draw": "street.draw",
    "first draw": "street.first_draw",
    "second draw": "street.second_draw",
    "third draw": "street.third_draw",
}
"""The catalog key of each street, by the engine's street id (``Street.name`` in
``hub/rules/games.py`` — an identifier of the engine, looked up whole, never parsed)."""

PHASES: Final = frozenset({"dealing", "drawing", "betting", "showdown", "complete"})
"""The hand's phases (``hub.rules.hand.Phase`` values) the catalog names."""


def antenna(reader: str) -> Text:
    """The antenna a reader id names (``seat3``, ``up3``, ``flop1``, ``board``, ``burn`` …);
    an id outside the grammar is shown as it is (``antenna.other``)."""
    m = _NUMBERED.match(reader)
    if m:
        return Text(f"antenna.{m[1]}", {"n": int(m[2])})
    if reader in _NAMED:
        return Text(f"antenna.{reader}")
    return Text("antenna.other", {"id": reader})


def street(name: str) -> Text:
    """The street the engine calls ``name`` (KeyError for a street no game has)."""
    return Text(STREET_KEYS[name])


def phase(value: str) -> Text:
    """The hand phase whose value is ``value`` (KeyError for another)."""
    if value not in PHASES:
        raise KeyError(value)
    return Text(f"phase.{value}")


def joined(items: Sequence[Param], key: str = "list.and") -> Param:
    """``items`` joined by a ``list.*`` entry — ``a and b and c`` — as nested texts
    (one item is itself; an empty list is refused).

    >>> from hub.messages.phrasebook import render
    >>> render(joined(["a", "b", "c"], "list.semicolon"), "en")
    'a; b; c'
    """
    if not items:
        raise ValueError("nothing to join")
    head, *rest = items
    if not rest:
        return head
    return Text(key, {"head": head, "tail": joined(rest, key)})
