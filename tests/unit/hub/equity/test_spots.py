"""Hi-lo shares, outs, unknown and dead cards, stud, razz and draw spots, input errors."""

from __future__ import annotations

import json

import pytest

from hub.cli.equity import main
from hub.equity import SpotError, TooExpensiveError, equity, exact_equity
from hub.equity.outs import outs
from tests.support.equity_oracle import spot


def test_hi_lo_quartered_pot_on_the_river() -> None:
    # both hold A-2 for the same wheel low; player 1 also has the better high (a flush)
    r = exact_equity(spot("omaha8", ["Ah2hKhQc", "As2d9c9d"], board="3h4h5c8s9h"))
    p1, p2 = r.players
    assert r.low == 1.0
    assert p1.equity == pytest.approx(0.75) and p2.equity == pytest.approx(0.25)
    assert p1.high_win == 1.0 and p1.low_tie == 1.0 and p2.low_tie == 1.0
    assert p1.win == 0.0 and p1.tie == 1.0  # no scoop: the low half is shared


def test_hi_lo_scoop_when_no_low_qualifies() -> None:
    r = exact_equity(spot("omaha8", ["AhAsKhQc", "2s3d9c9d"], board="KcKdTh9hJs"))
    assert r.low == 0.0
    assert r.players[1].win == 1.0 and r.players[1].equity == 1.0


def test_hi_lo_scoop_and_split_shares_add_up() -> None:
    r = exact_equity(spot("stud8", ["As2h3d9cKh7d", "4s5h6d9sQc8h"]))
    for p in r.players:
        assert p.high_win is not None and p.low_win is not None
        assert p.win <= p.high_win + 1e-12
    assert sum(r.equities) == pytest.approx(1.0)


def test_outs_flush_draw_against_set() -> None:
    o = outs(spot("holdem", ["AsKs", "QdQc"], board="Qs7s2c"))
    assert o.leader == 1 and o.stub == 45
    assert o.cards[0] == ("3s", "4s", "5s", "6s", "8s", "9s", "Ts", "Js")
    assert o.cards[1] == ()


def test_outs_on_the_turn_include_split_cards() -> None:
    o = outs(spot("holdem", ["AhKd", "AcQc"], board="Ad9s5h2h"))
    assert o.leader == 0
    assert set(o.cards[1]) == {"Qd", "Qh", "Qs"}
    assert o.split[1] == ()
    o = outs(spot("holdem", ["Ah5d", "As6c"], board="KdQsJh2c"))
    assert o.leader == 1  # the six kicks
    assert set(o.cards[0]) == {"5c", "5h", "5s"} and o.cards[1] == ()
    assert {"Tc", "Td", "2d"} <= set(o.split[0])  # a straight or a paired deuce ties


def test_outs_need_known_hands_and_a_flop() -> None:
    with pytest.raises(SpotError):
        outs(spot("holdem", ["AsKs", "QdQc"]))
    with pytest.raises(SpotError):
        outs(spot("holdem", ["AsKs", "????"], board="Qs7s2c"))


def test_unknown_hand_is_the_average_over_every_hand_it_could_be() -> None:
    s = spot("holdem", ["AsKs", "????"], board="Kh7d2c3h")
    vs_unknown = exact_equity(s).equities[0]
    total, n = 0.0, 0
    stub = s.stub
    for i, a in enumerate(stub):
        for b in stub[i + 1 :]:
            from feltwire.cards import card_code

            h = card_code(a) + card_code(b)
            total += exact_equity(spot("holdem", ["AsKs", h], board="Kh7d2c3h")).equities[0]
            n += 1
    assert vs_unknown == pytest.approx(total / n, abs=1e-12)


def test_dead_cards_change_the_answer() -> None:
    live = exact_equity(spot("holdem", ["AsKs", "QdQc"], board="Qs7s2c"))
    dead = exact_equity(spot("holdem", ["AsKs", "QdQc"], board="Qs7s2c", dead="3s4s5s6s"))
    assert dead.equities[0] < live.equities[0] - 0.05
    assert dead.deals == 41 * 40 / 2


def test_stud_spot_known_and_unknown_down_cards() -> None:
    known = exact_equity(spot("stud7", ["AsAh2dKc5h7d", "KdQcQh3c4c8h"]))
    assert known.equities[0] == pytest.approx(0.767948717948718, abs=1e-12)
    hidden = exact_equity(spot("stud7", ["????2dKc5h7d", "KdQcQh3c4c8h"]))
    assert hidden.equities[0] < 0.5 < known.equities[0]


def test_razz_best_low_wins() -> None:
    r = exact_equity(spot("razz", ["Ac2h3d4c5hKsKd", "Ad2c3h4d6hQsQd"]))
    assert r.equities == (1.0, 0.0)
    r = exact_equity(spot("razz", ["Ac2h3d4c7hKsKd", "Ad2c3h4d7sQsQd"]))
    assert r.equities == (0.5, 0.5) and r.players[0].tie == 1.0


def test_draw5_known_hands_and_draws() -> None:
    r = exact_equity(spot("draw5", ["AsKsQsJs9s", "9c9d9h2c2d"]))
    assert r.equities == (0.0, 1.0)
    r = exact_equity(spot("draw5", ["AsKsQsJs??", "9c9d9h2c3d"]))
    assert r.deals == 43
    # 8 more spades, 2 of them make a straight flush; the ten of hearts makes a straight
    assert r.equities[0] == pytest.approx((9 + 3) / 43)


def test_bad_input_is_refused_with_a_reason() -> None:
    with pytest.raises(SpotError, match="twice"):
        spot("holdem", ["AsKs", "AsQd"])
    with pytest.raises(SpotError, match="deals 2"):
        spot("holdem", ["AsKsQs", "QdQc"])
    with pytest.raises(SpotError, match="unknown game"):
        spot("badugi", ["AsKs"])
    with pytest.raises(SpotError, match="only"):
        spot("stud7", ["??" * 7] * 8)
    with pytest.raises(TooExpensiveError):
        exact_equity(spot("holdem", ["AsKs", "????", "????"]), budget=1_000_000)


def test_command_prints_json_for_scripts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["holdem", "AsKs", "QdQc", "--board", "Qs7s2c", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["exact"] is True and doc["ms"] >= 0
    assert [p["hand"] for p in doc["players"]] == ["AsKs", "QdQc"]
    assert doc["players"][0]["equity"] == pytest.approx(0.2556, abs=1e-4)
    assert len(doc["players"][0]["outs"]) == 8
    assert doc["players"][1]["made"] == "Three of a Kind, Queens"


def test_command_samples_and_refuses_bad_cards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stud7", "AsAh2d", "KdKcQh", "--samples", "3000", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["exact"] is False and doc["deals"] == 3000 and doc["error"] > 0
    assert main(["holdem", "AsXs", "QdQc"]) == 2
    assert "not a card" in capsys.readouterr().err
    assert main(["razz", "As2d3h", "KdKcQh"]) == 0
    assert "razz" in capsys.readouterr().out
    assert equity(spot("holdem", ["AsKs", "QdQc"]), exact=True).exact
