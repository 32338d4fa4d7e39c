"""Players' statistics (:mod:`hub.adapters.hands.stats`, ``feltwire history stats``) on
SQLite and PostgreSQL, against figures worked out by hand.

The night: Ann (club id C-17, seat 1), Bo (seat 4) and Cy (seat 7) at table t1, hold'em
5/10 then one hand of stud (ante 5, bring-in 5, 10/20), 1000 chips each every hand,
every hand lasting 60 s. PHH seats: p1 … p3 in hand order (hold'em: p1 the small blind,
p2 the big blind, p3 the button, who acts first before the flop).

  H1 t=0     Ann SB, Bo BB, Cy BTN — a limped pot, the big blind checks:
             Cy calls, Ann completes, Bo checks; flop: Ann checks, Bo bets 20, Cy folds,
             Ann calls; turn: Ann bets 40, Bo folds. Ann takes 70 without a showdown.
             Nets: Ann +40, Bo -30, Cy -10.
  H2 t=120   Bo SB, Cy BB, Ann BTN — a raise and a 3-bet, a showdown:
             Ann raises to 30, Bo 3-bets to 90, Cy folds, Ann calls; flop: Bo bets 100,
             Ann raises to 300, Bo calls; turn, river checked; Ann's aces beat Bo's kings.
             Nets: Ann +400, Bo -390, Cy -10.
  H3 t=240   Cy SB, Ann BB, Bo BTN — folds to a raise, a pot won without a showdown:
             Bo raises to 30, Cy folds, Ann calls; flop: Ann checks, Bo bets 40, Ann
             folds. Nets: Ann -30, Bo +35, Cy -5.
  H4 t=360   Ann SB, Bo BB, Cy BTN — the big blind checks again, a showdown mucked:
             Cy calls, Ann completes, Bo checks; flop: Ann checks, Bo bets 20, Cy calls,
             Ann folds; turn: Bo checks, Cy bets 40, Bo calls; river checked; Cy shows
             aces, Bo mucks. Nets: Ann -10, Bo -70, Cy +80.
  H5 t=480   voided (a misdeal after Ann raised): never counts.
  H6 t=4021  stud, 3601 s after H4 ended (over the 60 min gap: a new session):
             Ann (2c up) brings in 5, Bo completes to 10, Cy calls, Ann folds; fourth
             street: Bo bets 10, Cy calls; fifth: Bo bets 20, Cy folds.
             Nets: Ann -10, Bo +35, Cy -25.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hub.adapters.hands.reader import HandQuery
from hub.adapters.hands.stats import PlayerStats, player_stats, session_stats
from hub.adapters.hands.store import HandStore
from hub.app.hand_record import HandRecord
from hub.cli.history import main
from hub.rules.games import Stakes
from tests.integration.hands.test_export import config_for
from tests.support.stored_hands import stored_hand

T0 = 1_764_000_000.0  # 2025-11-24 16:00 UTC
NL = Stakes.blind_game(3, 5, 10)
STUD = Stakes.stud_game(3, 5, 5, 10, 20)
CLUB = {"Ann": "C-17"}
SB_BB_BTN = {1: "Ann", 4: "Bo", 7: "Cy"}  # H1, H4
BO_CY_ANN = {4: "Bo", 7: "Cy", 1: "Ann"}  # H2, H5
CY_ANN_BO = {7: "Cy", 1: "Ann", 4: "Bo"}  # H3

H1 = ["d dh p1 AhKd", "d dh p2 7s7d", "d dh p3 9c8c", "p3 cc", "p1 cc", "p2 cc",
      "d db Qs4d2h", "p1 cc", "p2 cbr 20", "p3 f", "p1 cc", "d db Jc", "p1 cbr 40",
      "p2 f"]  # fmt: skip
H2 = ["d dh p1 KsKh", "d dh p2 7c2h", "d dh p3 AsAd", "p3 cbr 30", "p1 cbr 90", "p2 f",
      "p3 cc", "d db Ah8c3d", "p1 cbr 100", "p3 cbr 300", "p1 cc", "d db 4s", "p1 cc",
      "p3 cc", "d db 9h", "p1 cc", "p3 cc", "p3 sm AsAd", "p1 sm KsKh"]  # fmt: skip
H3 = ["d dh p1 6d5d", "d dh p2 QcJc", "d dh p3 AcTd", "p3 cbr 30", "p1 f", "p2 cc",
      "d db Kh7s2s", "p2 cc", "p3 cbr 40", "p2 f"]  # fmt: skip
H4 = ["d dh p1 8h8s", "d dh p2 KcQd", "d dh p3 AdJs", "p3 cc", "p1 cc", "p2 cc",
      "d db Ac9d4c", "p1 cc", "p2 cbr 20", "p3 cc", "p1 f", "d db 2d", "p2 cc",
      "p3 cbr 40", "p2 cc", "d db 3h", "p2 cc", "p3 cc", "p3 sm AdJs", "p2 sm"]  # fmt: skip
H5 = ["d dh p1 2c3c", "d dh p2 4d5d", "d dh p3 6h7h", "p3 cbr 30"]
H6 = ["d dh p1 AsKs2c", "d dh p2 7c8dQh", "d dh p3 QcQdJh", "p1 pb", "p2 cbr 10", "p3 cc",
      "p1 f", "d dh p2 9h", "d dh p3 3s", "p2 cbr 10", "p3 cc", "d dh p2 Th", "d dh p3 4s",
      "p2 cbr 20", "p3 f"]  # fmt: skip


def night(h1: list[str] = H1) -> list[HandRecord]:
    """The six hands (``h1``: hand 1's actions, to change one)."""

    def hand(n: int, game: str, players: dict[int, str], acts: list[str], at: float,
             **kw: object) -> HandRecord:  # fmt: skip
        stakes = STUD if game == "F7S" else NL
        return stored_hand(n, game, players, acts, stakes=stakes, started_at=T0 + at,
                           club_ids=CLUB, **kw)  # type: ignore[arg-type]  # fmt: skip

    return [
        hand(1, "NT", SB_BB_BTN, h1, 0),
        hand(2, "NT", BO_CY_ANN, H2, 120),
        hand(3, "NT", CY_ANN_BO, H3, 240),
        hand(4, "NT", SB_BB_BTN, H4, 360),
        hand(5, "NT", BO_CY_ANN, H5, 480, voided=True),
        hand(6, "F7S", SB_BB_BTN, H6, 420 + 3601),
    ]


def keep(url: str, hands: list[HandRecord]) -> None:
    store = HandStore.open(url)
    try:
        for h in hands:
            assert store.write(h)
    finally:
        store.close()


def by_name(found: list[PlayerStats]) -> dict[str, PlayerStats]:
    return {s.player.name: s for s in found}


def test_the_figures_of_a_night_as_worked_out_by_hand(store_url: str) -> None:
    keep(store_url, night())
    store = HandStore.open(store_url)
    try:
        stats = by_name(player_stats(store))
    finally:
        store.close()
    assert list(stats) == ["Ann", "Bo", "Cy"]
    ann, bo, cy = stats["Ann"], stats["Bo"], stats["Cy"]
    assert (ann.player.club_id, bo.player.club_id) == ("C-17", None)
    # hands: H1–H4 and H6 each; the voided H5 not
    assert (ann.hands, bo.hands, cy.hands) == (5, 5, 5)
    # VPIP — Ann: H1 (completes), H2 (raises), H3 (calls in the BB), H4 (completes) → 4/5;
    # not H6 (the bring-in is forced). Bo: H2, H3, H6 (completes) → 3/5; his checks in
    # the BB in H1 and H4 are not voluntary. Cy: H1, H4 (limps), H6 (calls) → 3/5.
    assert (ann.vpip_hands, bo.vpip_hands, cy.vpip_hands) == (4, 3, 3)
    assert (ann.vpip, bo.vpip, cy.vpip) == (80.0, 60.0, 60.0)
    # PFR — Ann: H2 → 1/5 = 20 %; Bo: H2 (3-bet), H3, H6 (the completion) → 3/5; Cy: none
    assert (ann.pfr, bo.pfr, cy.pfr) == (20.0, 60.0, 0.0)
    # 3-bet — chances: acting with exactly one raise in the first round.
    # Ann: H3 (calls Bo's raise), H6 (folds the bring-in to the completion) → 0/2.
    #   (H2: she raised first, then called facing two raises — no chance.)
    # Bo: H2 (re-raises Ann) → 1/1 = 100 %. Cy: H3 (folds), H6 (calls) → 0/2;
    #   H2 he faced two raises.
    assert (ann.three_bet_chances, ann.three_bets, ann.three_bet) == (2, 0, 0.0)
    assert (bo.three_bet_chances, bo.three_bets, bo.three_bet) == (1, 1, 100.0)
    assert (cy.three_bet_chances, cy.three_bets, cy.three_bet) == (2, 0, 0.0)
    # AF after the first round — Ann: bets/raises H1 turn bet, H2 flop raise = 2; calls
    # H1 flop = 1 → 2.0. Bo: H1, H2, H3, H4 flop bets, H6 fourth and fifth street bets = 6;
    # calls H2 flop, H4 turn = 2 → 3.0. Cy: H4 turn bet = 1; calls H4 flop, H6 fourth = 2
    # → 0.5.
    assert (ann.bets_raises, ann.calls, ann.aggression) == (2, 1, 2.0)
    assert (bo.bets_raises, bo.calls, bo.aggression) == (6, 2, 3.0)
    assert (cy.bets_raises, cy.calls, cy.aggression) == (1, 2, 0.5)
    # WTSD — saw the second street: Ann H1–H4 (4; folded H6 on third street), Bo all 5,
    # Cy H1, H4, H6 (3). Showdowns: H2 (Ann, Bo), H4 (Bo, Cy; Bo mucked).
    # Ann 1/4 = 25 %, Bo 2/5 = 40 %, Cy 1/3 = 33.3 %.
    assert (ann.saw_second, bo.saw_second, cy.saw_second) == (4, 5, 3)
    assert (ann.showdowns, bo.showdowns, cy.showdowns) == (1, 2, 1)
    assert (ann.wtsd, bo.wtsd) == (25.0, 40.0) and cy.wtsd == pytest.approx(100 / 3)
    # W$SD — Ann won H2 (1/1), Bo lost both (0/2), Cy won H4 (1/1). H1, H3, H6 were won
    # without a showdown: no W$SD.
    assert (ann.wsd, bo.wsd, cy.wsd) == (100.0, 0.0, 100.0)
    # net — Ann 40 + 400 - 30 - 10 - 10 = 390; Bo -30 - 390 + 35 - 70 + 35 = -420;
    # Cy -10 - 10 - 5 + 80 - 25 = 30
    assert (ann.net, bo.net, cy.net) == (390, -420, 30)
    # time — sessions: H1–H4 (t=0 to 420: 420 s), H6 (60 s) → 480 s each, 2 sessions.
    # Ann 390 chips × 3600 / 480 = 2925 an hour; 5 hands × 3600 / 480 = 37.5 an hour.
    assert all((s.sessions, s.seconds) == (2, 480.0) for s in stats.values())
    assert (ann.chips_per_hour, bo.chips_per_hour, cy.chips_per_hour) == (2925.0, -3150.0, 225.0)
    assert ann.hands_per_hour == 37.5


def test_sessions_are_split_by_a_long_gap(store_url: str) -> None:
    keep(store_url, night())
    store = HandStore.open(store_url)
    try:
        sessions = session_stats(store, player="C-17")  # Ann by her club id
        longer = session_stats(store.engine, player="Ann", gap=3601.0)
    finally:
        store.close()
    # H6 started 3601 s after H4 ended: over 3600 s, a second session; not over 3601
    first, second = sessions
    assert (first.table, first.started, first.ended) == ("t1", T0, T0 + 420)
    assert (second.started, second.ended) == (T0 + 4021, T0 + 4081)
    # session 1 (H1–H4): VPIP 4/4; PFR 1/4 = 25 %; one 3-bet chance (H3); net 40 + 400 - 30
    # - 10 = 400 in 420 s → 400 × 3600 / 420 ≈ 3428.6 an hour, 4 hands ≈ 34.3 an hour
    assert (first.hands, first.vpip, first.pfr, first.three_bet_chances) == (4, 100.0, 25.0, 1)
    assert first.net == 400 and first.chips_per_hour == pytest.approx(400 * 3600 / 420)
    assert first.hands_per_hour == pytest.approx(4 * 3600 / 420)
    # session 2 (H6): the bring-in folded to the completion: VPIP 0/1, a 3-bet chance;
    # -10 in 60 s → -600 an hour
    assert (second.hands, second.vpip, second.three_bet_chances) == (1, 0.0, 1)
    assert (second.net, second.chips_per_hour, second.hands_per_hour) == (-10, -600.0, 60.0)
    assert len(longer) == 1 and (longer[0].hands, longer[0].net) == (5, 390)
    assert longer[0].seconds == 4081.0  # t=0 to H6's end


def test_the_filters(store_url: str) -> None:
    keep(store_url, night())
    store = HandStore.open(store_url)
    try:
        stud = by_name(player_stats(store, game="F7S"))
        early = by_name(player_stats(store, HandQuery(until=T0 + 200)))  # H1, H2
        other = player_stats(store, table="t2")
    finally:
        store.close()
    # H6 alone — Bo: VPIP, PFR (the completion); bets on fourth and fifth street, no call
    assert (stud["Bo"].hands, stud["Bo"].pfr, stud["Bo"].aggression) == (1, 100.0, None)
    assert (stud["Cy"].three_bet_chances, stud["Cy"].calls) == (1, 1)
    assert (early["Ann"].hands, early["Ann"].net, early["Ann"].sessions) == (2, 440, 1)
    assert other == []


def test_the_figures_follow_the_actions(store_url: str) -> None:
    """Hand 1 with one action changed: the big blind raises to 30 instead of checking
    (Cy and Ann fold) — the hand-worked figures move as they must."""
    changed = [*H1[:5], "p2 cbr 30", "p3 f", "p1 f"]
    keep(store_url, night(changed))
    store = HandStore.open(store_url)
    try:
        stats = by_name(player_stats(store))
    finally:
        store.close()
    ann, bo, cy = stats["Ann"], stats["Bo"], stats["Cy"]
    # Bo: VPIP and PFR 4/5 (H1 joins H2, H3, H6); his H1 flop bet is gone: AF 5/2
    assert (bo.vpip, bo.pfr, bo.aggression) == (80.0, 80.0, 2.5)
    # Ann and Cy folded to his raise: a third 3-bet chance each; H1 no longer reaches
    # the flop for them (Ann saw 3 second streets, Cy 2); Ann's H1 bet and call are gone:
    # her one raise after the first round (H2) has no call to divide
    assert (ann.three_bet_chances, cy.three_bet_chances) == (3, 3)
    assert (ann.saw_second, cy.saw_second, ann.aggression) == (3, 2, None)
    # Bo takes the 30 preflop: +20 instead of -30
    assert (ann.net, bo.net, cy.net) == (390 - 40 - 10, -420 + 50, 30)


def test_a_draw_hand_and_an_all_in_run_out(store_url: str) -> None:
    """Five-card draw: the first betting round is the one before the draw, the draw
    itself no action of any figure. Hold'em all in before the flop: the board run out
    is the second street seen."""
    draw = ["d dh p1 2c3c4c5d7h", "d dh p2 AsAhKdQc9s", "d dh p3 JsJdJh8c8d", "p3 cbr 30",
            "p1 f", "p2 cc", "p2 sd 9s", "d dh p2 Ad", "p3 sd", "p2 cc", "p3 cbr 50",
            "p2 f"]  # fmt: skip
    all_in = ["d dh p1 AsAh", "d dh p2 KsKh", "d dh p3 7c2d", "p3 f", "p1 cbr 1000", "p2 cc",
              "d db 9c8d3h", "d db 4s", "d db Jd", "p1 sm AsAh", "p2 sm KsKh"]  # fmt: skip
    keep(store_url, [
        stored_hand(1, "N5D", SB_BB_BTN, draw, stakes=NL, started_at=T0, table="t2"),
        stored_hand(1, "NT", SB_BB_BTN, all_in, stakes=NL, started_at=T0, table="t3"),
    ])  # fmt: skip
    store = HandStore.open(store_url)
    try:
        drawn = by_name(player_stats(store, table="t2"))
        run_out = by_name(player_stats(store, table="t3"))
    finally:
        store.close()
    # draw — Cy raises before the draw (VPIP, PFR), Ann folds her blind to it and Bo
    # calls (each a 3-bet chance); after the draw Bo checks, Cy bets, Bo folds
    cy, bo, ann = drawn["Cy"], drawn["Bo"], drawn["Ann"]
    assert (cy.vpip, cy.pfr, cy.bets_raises, cy.calls, cy.aggression) == (100.0, 100.0, 1, 0, None)
    assert (bo.vpip, bo.three_bet_chances, ann.three_bet_chances, ann.vpip) == (100.0, 1, 1, 0.0)
    assert (bo.saw_second, bo.showdowns, bo.wtsd, ann.saw_second, ann.wtsd) == (1, 0, 0.0, 0, None)
    assert (ann.net, bo.net, cy.net) == (-5, -30, 35)
    # all in — Ann raises all in, Bo calls (a 3-bet chance not taken), Cy folded first
    ann, bo = run_out["Ann"], run_out["Bo"]
    assert (ann.saw_second, ann.showdowns, ann.wsd, bo.wtsd, bo.wsd) == (1, 1, 100.0, 100.0, 0.0)
    assert (bo.three_bet_chances, run_out["Cy"].three_bet_chances) == (1, 0)
    assert (ann.net, bo.net, ann.aggression) == (1000, -1000, None)  # Cy put nothing in


def test_the_command(tmp_path: Path, store_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    keep(store_url, night())
    cfg = str(config_for(tmp_path, store_url))
    assert main(["stats", "--config", cfg, "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["player"]["name"] for r in rows] == ["Ann", "Bo", "Cy"]
    assert rows[0]["player"]["club_id"] == "C-17"
    assert {k: rows[0][k] for k in ("hands", "vpip", "pfr", "three_bet", "wtsd", "net")} == {
        "hands": 5, "vpip": 80.0, "pfr": 20.0, "three_bet": 0.0, "wtsd": 25.0, "net": 390
    }  # fmt: skip
    assert rows[1]["aggression"] == 3.0 and rows[2]["chips_per_hour"] == 225.0

    assert main(["stats", "--config", cfg, "--sessions", "--player", "Ann", "--json"]) == 0
    sessions = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(s["table"], s["hands"], s["net"]) for s in sessions] == [
        ("t1", 4, 400),
        ("t1", 1, -10),
    ]
    since = "2025-11-24T17:00"  # T0 + 1 h: H6 alone
    assert main(["stats", "--config", cfg, "--since", since, "--game", "F7S"]) == 0
    table = capsys.readouterr().out
    assert "Bo" in table and "100.0" in table and table.count("\n") == 5  # header, rule, 3
    assert main(["stats", "--config", cfg, "--player", "nobody"]) == 0
    assert "no hands" in capsys.readouterr().out


def test_no_store_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--state-dir", str(tmp_path / "none")]) == 2
    assert "no hands store" in capsys.readouterr().err
