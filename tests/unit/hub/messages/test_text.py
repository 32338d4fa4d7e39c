"""feltwire.text: a text is a frozen, hashable value that goes to JSON and back."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from feltwire.text import Player, Seat, Text


def test_a_text_is_frozen_and_hashable() -> None:
    t = Text("alert.missing_burn.message", {"street": Text("street.flop")})
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.key = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        t.params["street"] = Text("street.turn")  # type: ignore[index]
    same = Text("alert.missing_burn.message", {"street": Text("street.flop")})
    assert t == same and hash(t) == hash(same) and len({t, same}) == 1
    assert t != Text("alert.missing_burn.message", {"street": Text("street.turn")})


def test_parameter_order_does_not_matter() -> None:
    a = Text("k.x", {"a": 1, "b": "two"})
    b = Text("k.x", {"b": "two", "a": 1})
    assert a == b and hash(a) == hash(b) and a.as_json() == b.as_json()


@pytest.mark.parametrize(
    "params",
    [
        {"seat": Seat(10), "n": 3},
        {"who": Player(0), "name": "Ann"},
        {"inner": Text("x.y", {"deep": Text("z", {"seat": Seat(1)})})},
        {},
    ],
)
def test_json_round_trip(params: dict[str, Any]) -> None:
    t = Text("some.key", params)
    data = json.loads(json.dumps(t.as_json()))
    assert Text.from_json(data) == t


def test_seats_and_players_as_json() -> None:
    t = Text("k", {"seat": Seat(3), "p": Player(1)})
    assert t.as_json() == {"key": "k", "params": {"p": {"player": 1}, "seat": {"seat": 3}}}


@pytest.mark.parametrize("value", [1.5, True, None, [1], {"a": 1}])
def test_a_parameter_is_an_int_str_text_seat_or_player(value: object) -> None:
    with pytest.raises(TypeError):
        Text("k", {"x": value})  # type: ignore[dict-item]


@pytest.mark.parametrize("key", ["", "Alert.x", "alert..x", "alert x", ".x", 3])
def test_a_key_is_dotted_lower_case_words(key: object) -> None:
    with pytest.raises(ValueError):
        Text(key)  # type: ignore[arg-type]


def test_a_parameter_name_is_a_lower_case_identifier() -> None:
    with pytest.raises(ValueError):
        Text("k", {"Seat": 1})
    with pytest.raises(ValueError):
        Text("k", {"2x": 1})


@pytest.mark.parametrize("n", [0, 11, -1, True])
def test_a_seat_is_one_to_ten(n: int) -> None:
    with pytest.raises(ValueError):
        Seat(n)


def test_a_player_is_numbered_from_zero() -> None:
    assert Player(0).index == 0
    with pytest.raises(ValueError):
        Player(-1)


@pytest.mark.parametrize(
    "data",
    [
        {"params": {}},
        {"key": "k", "params": {}, "extra": 1},
        {"key": "k", "params": []},
        {"key": "k", "params": {"x": True}},
        {"key": "k", "params": {"x": 1.5}},
        {"key": "k", "params": {"x": {"seat": 11}}},
    ],
)
def test_from_json_refuses_what_as_json_never_makes(data: dict[str, Any]) -> None:
    with pytest.raises((ValueError, TypeError)):
        Text.from_json(data)


def test_with_players_names_every_player_nested_or_not() -> None:
    seats = (2, 5, 7)
    t = Text(
        "refusal.ruled",
        {"rule": "R-BET-10", "reason": Text("a.b", {"seat": Player(1), "actor": Player(2)})},
    )
    named = t.with_players(lambda p: Seat(seats[p.index]))
    assert named == Text(
        "refusal.ruled",
        {"rule": "R-BET-10", "reason": Text("a.b", {"seat": Seat(5), "actor": Seat(7)})},
    )
    assert t.params["reason"] != named.params["reason"]  # the original is unchanged
