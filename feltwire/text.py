"""Texts as values: what a person is told, as a catalog key and its parameters.

Every layer that has something to tell a person — an alert, a refused input, a pot
award — says it as a :class:`Text`: the key of an entry in the message catalog
(``hub/messages/catalog``) and the parameters its sentence needs. Whoever shows it picks
the language and renders it (``hub.messages.render`` on the server, the same few lines of
JavaScript in the pages); nobody parses English to find out what happened.

A parameter is an ``int`` (an amount, a count: rendered in the reader's locale), a
``str`` (a name or an identifier, shown as it is), a nested :class:`Text` (a street, an
antenna, a part of a sentence), a :class:`Seat` (a table seat 1–10, rendered ``seat 5`` /
``místo 5``) or a :class:`Player` (a player of one hand as the engine numbers them,
mapped to a :class:`Seat` by whoever knows the seating — see :meth:`Text.with_players`).
Never a hole card.

>>> t = Text("alert.missing_burn.message", {"street": Text("street.flop")})
>>> t.as_json()
{'key': 'alert.missing_burn.message', 'params': {'street': {'key': 'street.flop', 'params': {}}}}
>>> Text.from_json(t.as_json()) == t, hash(t) == hash(Text.from_json(t.as_json()))
(True, True)
>>> err = Text("refusal.out_of_turn.acted", {"seat": Player(1), "actor": Player(2)})
>>> err.with_players(lambda p: Seat((2, 5, 7)[p.index])).params["actor"]
Seat(n=7)

Pure: no I/O, and nothing from ``hub`` (the catalog lives there; this is the value type).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

MAX_SEAT = 10
"""The highest table seat number (seats are 1–10)."""

_KEY = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)*$")
_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class Seat:
    """A table seat (1–10) as a parameter: the catalog's ``seat`` entry names it.

    >>> Seat(5).as_json()
    {'seat': 5}
    """

    n: int

    def __post_init__(self) -> None:
        if isinstance(self.n, bool) or not isinstance(self.n, int) or not 1 <= self.n <= MAX_SEAT:
            raise ValueError(f"a table seat is 1-{MAX_SEAT}, not {self.n!r}")

    def as_json(self) -> dict[str, int]:
        """The seat as JSON data: ``{"seat": n}``."""
        return {"seat": self.n}


@dataclass(frozen=True, slots=True)
class Player:
    """A player of one hand as the engine numbers them (0-based, clockwise from the
    first seat left of the button) — what the rules core knows when it raises. The
    catalog's ``player`` entry renders it in the hand-history numbering (``p1`` for
    index 0); a table maps it to a :class:`Seat` first with :meth:`Text.with_players`.

    >>> Player(0).as_json()
    {'player': 0}
    """

    index: int

    def __post_init__(self) -> None:
        if isinstance(self.index, bool) or not isinstance(self.index, int) or self.index < 0:
            raise ValueError(f"a hand's player is numbered from 0, not {self.index!r}")

    def as_json(self) -> dict[str, int]:
        """The player as JSON data: ``{"player": index}``."""
        return {"player": self.index}


Param: TypeAlias = "int | str | Text | Seat | Player"
"""What a text's parameter may be (never a float, a bool, None or a hole card)."""

JsonParam: TypeAlias = "int | str | dict[str, Any]"
"""A parameter as JSON data (a nested text, seat or player is an object)."""


class Params(Mapping[str, Param]):
    """A text's parameters: a read-only, hashable mapping of names to :data:`Param`."""

    __slots__ = ("_hash", "_items")

    def __init__(self, items: Mapping[str, Param] | None = None) -> None:
        data = dict(items or {})
        for name, value in data.items():
            _check_param(name, value)
        self._items: dict[str, Param] = dict(sorted(data.items()))
        self._hash = hash(tuple(self._items.items()))

    def __getitem__(self, name: str) -> Param:
        return self._items[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Params):
            return self._items == other._items
        return isinstance(other, Mapping) and self._items == dict(other)

    def __repr__(self) -> str:
        return repr(self._items)


_NAMES_SEEN: set[str] = set()
"""Parameter names already matched against :data:`_NAME` (texts are built on every
change a console sees, from a few hundred names: the pattern is matched once each)."""
_KEYS_SEEN: set[str] = set()
"""Text keys already matched against :data:`_KEY` (as :data:`_NAMES_SEEN`)."""


def _valid(pattern: re.Pattern[str], seen: set[str], s: object) -> bool:
    if s.__class__ is str and s in seen:  # exactly a str: a subclass may hash otherwise
        return True
    if isinstance(s, str) and pattern.match(s):
        if s.__class__ is str and len(seen) < 10_000:
            seen.add(s)
        return True
    return False


def _check_param(name: object, value: object) -> None:
    if not _valid(_NAME, _NAMES_SEEN, name):
        raise ValueError(f"a parameter name is a lower-case identifier, not {name!r}")
    if isinstance(value, bool) or not isinstance(value, int | str | Text | Seat | Player):
        raise TypeError(
            f"parameter {name!r}: an int, str, Text, Seat or Player, not {type(value).__name__}"
        )


@dataclass(frozen=True, slots=True)
class Text:
    """A catalog key and the parameters its sentence needs: frozen, hashable, JSON-able.

    >>> Text("alert.unknown_tag.idle.many.message", {"count": 3}).params["count"]
    3
    """

    key: str
    params: Mapping[str, Param] = field(default_factory=Params)

    def __post_init__(self) -> None:
        if not _valid(_KEY, _KEYS_SEEN, self.key):
            raise ValueError(f"a text key is dotted lower-case words, not {self.key!r}")
        if not isinstance(self.params, Params):
            object.__setattr__(self, "params", Params(self.params))

    def as_json(self) -> dict[str, Any]:
        """The text as JSON data: ``{"key": …, "params": {…}}``, nested values as objects."""
        return {"key": self.key, "params": {k: _param_json(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Text:
        """The text :meth:`as_json` made (ValueError/TypeError for anything else)."""
        if not isinstance(data, Mapping) or set(data) - {"key", "params"} or "key" not in data:
            raise ValueError(f"a text is {{'key', 'params'}}, not {data!r}")
        params = data.get("params", {})
        if not isinstance(params, Mapping):
            raise ValueError(f"a text's params are an object, not {params!r}")
        return cls(str(data["key"]), {str(k): _param_from_json(v) for k, v in params.items()})

    def with_players(self, name: Callable[[Player], Param]) -> Text:
        """This text with every :class:`Player` (nested ones too) replaced by ``name(p)`` —
        a table names them by seat, a hand-history file leaves them as they are."""
        out: dict[str, Param] = {}
        for k, v in self.params.items():
            if isinstance(v, Player):
                out[k] = name(v)
            elif isinstance(v, Text):
                out[k] = v.with_players(name)
            else:
                out[k] = v
        return Text(self.key, out)


def _param_json(value: Param) -> JsonParam:
    if isinstance(value, Text | Seat | Player):
        return value.as_json()
    return value


def _param_from_json(value: object) -> Param:
    if isinstance(value, bool):
        raise TypeError(f"a parameter is never a bool: {value!r}")
    if isinstance(value, int | str):
        return value
    if isinstance(value, Mapping):
        if set(value) == {"seat"}:
            return Seat(value["seat"])
        if set(value) == {"player"}:
            return Player(value["player"])
        return Text.from_json(value)
    raise TypeError(f"not a text parameter: {value!r}")
