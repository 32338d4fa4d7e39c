"""The players' statistics over the history's API (``GET /api/history/stats``) over real
HTTP against a running hub whose hands store (real SQLite) holds two nights of real
hands: the figures are what ``hub.adapters.hands.stats`` counts on the same store,
filter by filter, per person and per session; every role reads them (no card in them),
the club ids only the staff; a hub without a store says so."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from hub.adapters.hands.stats import PlayerStats, SessionStats, player_stats, session_stats
from hub.adapters.hands.store import HandStore
from hub.app.hand_history import HandQuery, moment
from hub.config import HandsSettings
from tests.integration.web.test_history_api import get, history_hub, iso, signed_in
from tests.support.kept_hands import kept_night, stored_hands

FIGURES = (
    "hands",
    "vpip_hands",
    "pfr_hands",
    "three_bet_chances",
    "three_bets",
    "bets_raises",
    "calls",
    "saw_second",
    "showdowns",
    "won_at_showdown",
    "net",
    "seconds",
    "vpip",
    "pfr",
    "three_bet",
    "aggression",
    "wtsd",
    "wsd",
    "chips_per_hour",
    "hands_per_hour",
)
"""Every count and figure a row of the API carries, by the stats module's names."""


def expected(stats: list[PlayerStats] | list[SessionStats]) -> list[dict[str, Any]]:
    """What the API should answer for ``stats``: each row's name and figures (and a
    session's table and times, a person's number of sessions)."""
    out = []
    for s in stats:
        row: dict[str, Any] = {"name": s.player.name} | {k: getattr(s, k) for k in FIGURES}
        if isinstance(s, SessionStats):
            row |= {"table": s.table, "started": s.started, "ended": s.ended}
        else:
            row["sessions"] = s.sessions
        out.append(row)
    return out


def shown(rows: list[dict[str, Any]], keys: list[str]) -> list[dict[str, Any]]:
    return [{k: r[k] for k in keys} for r in rows]


async def test_the_figures_are_the_stores_filter_by_filter(tmp_path: Path) -> None:
    settings = kept_night(tmp_path, hands=10, t2=5)
    assert settings.url is not None
    kept = stored_hands(settings.url)
    t1 = [h for h in kept if h["table_id"] == "t1"]
    middle = t1[len(t1) // 2]["started_at"]
    store = HandStore.open(settings.url)
    cases: list[tuple[dict[str, str], HandQuery]] = [
        ({}, HandQuery()),
        ({"table": "t2"}, HandQuery(table="t2")),
        ({"player": "P2"}, HandQuery(player="P2")),
        ({"game": "NT"}, HandQuery(game="NT")),
        ({"game": "PO"}, HandQuery(game="PO")),
        ({"since": "2023-11-16"}, HandQuery(since=moment("2023-11-16"))),
        ({"until": iso(middle), "table": "t1"}, HandQuery(until=middle, table="t1")),
    ]
    try:
        answers = {
            i: (player_stats(store, q), session_stats(store, q)) for i, (_, q) in enumerate(cases)
        }
    finally:
        store.close()
    everyone, _ = answers[0]
    names = {s.player.name for s in everyone}
    assert {"P1", "P2", "Q2", "Q5"} <= names  # both tables' players
    assert any(s.vpip is not None and s.vpip > 0 for s in everyone)
    assert any(s.wtsd is not None for s in everyone)
    assert {s.player.name for s in answers[1][0]} == {"Q2", "Q5", "Q7"}  # t2 only
    assert [s.player.name for s in answers[2][0]] == ["P2"]
    assert answers[4] == ([], [])
    assert answers[6][0][0].hands < answers[0][0][0].hands  # cut by the time

    async with history_hub(tmp_path, settings) as http:
        for i, (params, _) in enumerate(cases):
            people, sessions = answers[i]
            r = await get(http, "/api/history/stats", **params)
            assert r.status_code == 200, r.text
            body = r.json()
            assert body["by_session"] is False and body["sessions"] == []
            want = expected(people)
            assert shown(body["players"], list(want[0]) if want else []) == want, params
            r = await get(http, "/api/history/stats", sessions=1, **params)
            body = r.json()
            assert body["by_session"] is True and body["players"] == []
            want = expected(sessions)
            assert shown(body["sessions"], list(want[0]) if want else []) == want, params
        # a date the hub cannot read is refused with a text people can read
        bad = await get(http, "/api/history/stats", until="soon")
        assert bad.status_code == 422 and bad.json()["text"]["key"] == "refusal.http.bad_moment"


async def test_every_role_reads_them_the_club_ids_only_the_staff(tmp_path: Path) -> None:
    settings = kept_night(tmp_path, hands=4)
    assert settings.url is not None
    db = sqlite3.connect(settings.url.removeprefix("sqlite:///"))
    db.execute("UPDATE players SET club_id = 'C-2' WHERE name = 'P2'")
    db.commit()
    db.close()
    async with history_hub(tmp_path, settings) as http:
        public = await get(http, "/api/history/stats", player="C-2")  # found by the club id
        assert public.status_code == 200, public.text
        [row] = public.json()["players"]
        assert row["name"] == "P2" and row["club_id"] is None
        for role in ("dealer", "producer", "admin"):
            who = await signed_in(http, role)
            staff = await get(http, "/api/history/stats", who, player="C-2", sessions=1)
            assert staff.status_code == 200, staff.text
            rows = staff.json()["sessions"]
            assert rows and {r["club_id"] for r in rows} == {"C-2"}, role
            assert sum(r["hands"] for r in rows) == row["hands"]


async def test_a_hub_without_a_store(tmp_path: Path) -> None:
    async with history_hub(tmp_path, HandsSettings(enabled=False)) as http:
        r = await get(http, "/api/history/stats")
        assert r.status_code == 404, r.text
        assert r.json()["text"]["key"] == "refusal.http.no_hand_store"
