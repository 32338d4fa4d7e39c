"""The hand history's API (``/api/history/*``, :mod:`hub.web.history`) over real HTTP
against a running hub whose hands store (real SQLite) holds a night of real hands played
through the rules: the search and its filters, a hand street by street as the store
holds it, the downloads in the three formats; the public role never gets a card the
table did not see — in the list, in a hand, in a file — and a hub without a store, or
with one it cannot read, says so."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from hub.config import HandsSettings
from tests.support.kept_hands import (
    file_hands,
    hidden_from_table,
    json_cards,
    kept_night,
    stored_hands,
)
from tests.support.web_hub import SignedIn, running_hub, sign_in


@asynccontextmanager
async def history_hub(
    tmp_path: Path, hands: HandsSettings | None = None
) -> AsyncIterator[httpx.AsyncClient]:
    """A running hub reading ``hands`` (default: a fresh night's store) and a client."""
    state = tmp_path / "hub"
    state.mkdir(parents=True)
    async with (
        running_hub(state, hands=hands or kept_night(tmp_path)) as hub,
        httpx.AsyncClient(base_url=hub.web_url, timeout=30) as http,
    ):
        yield http


def iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat()


async def signed_in(http: httpx.AsyncClient, role: str) -> SignedIn:
    """A session of ``role``; the client keeps no cookie of it (a request without the
    session's headers is the public's)."""
    who = await sign_in(http, role)
    http.cookies.clear()
    return who


async def get(
    http: httpx.AsyncClient, path: str, who: SignedIn | None = None, **params: Any
) -> httpx.Response:
    """``GET path?params`` as ``who`` (None: the public, no credential)."""
    return await http.get(path, params=params, headers=who.headers(csrf=False) if who else {})


async def test_staff_see_every_card_the_public_only_what_the_table_saw(tmp_path: Path) -> None:
    settings = kept_night(tmp_path, hands=10)
    assert settings.url is not None
    kept = stored_hands(settings.url)
    assert len(kept) >= 6
    hidden = {h["number"]: hidden_from_table(h) for h in kept}
    assert sum(len(h) for h in hidden.values()) > 0  # folded hands at least
    async with history_hub(tmp_path, settings) as http:
        dealer = await signed_in(http, "dealer")
        # the list: every hand, oldest first; no hidden card for anyone
        for who in (None, dealer):
            r = await get(http, "/api/history/hands", who)
            assert r.status_code == 200, r.text
            body = r.json()
            assert body["perspective"] == ("all" if who else "shown")
            assert body["total"] == len(kept)
            assert [h["number"] for h in body["hands"]] == [h["number"] for h in kept]
            for listed, h in zip(body["hands"], kept, strict=True):
                assert not json_cards(listed) & hidden[h["number"]]
                assert "".join(listed["board"]) == h["board"]
        seen_hidden = 0
        for h in kept:
            public = await get(http, f"/api/history/hands/{h['id']}")
            staff = await get(http, f"/api/history/hands/{h['id']}", dealer)
            assert public.status_code == staff.status_code == 200, public.text
            # the public hand: not one hidden card anywhere in it
            assert not json_cards(public.json()) & hidden[h["number"]], h["number"]
            for code in hidden[h["number"]]:
                assert f'"{code}"' not in public.text
            # the staff's: every card the store holds, street by street
            cards = [c for s in staff.json()["streets"] for c in s["cards"]]
            assert sorted(c["card"] for c in cards if c["card"]) == sorted(
                c["card"] for c in h["cards"] if c["card"]
            )
            seen_hidden += len(json_cards(staff.json()) & hidden[h["number"]])
            # the public sees the same places, face down where it may not look
            public_cards = [c for s in public.json()["streets"] for c in s["cards"]]
            assert len(public_cards) == len(cards)
            for mine, theirs in zip(public_cards, cards, strict=True):
                if theirs["visibility"] in ("mucked", "dealer"):
                    assert mine["card"] is None and mine["visibility"] is None
                else:
                    assert mine == theirs
        assert seen_hidden == sum(len(c) for c in hidden.values())
        # the public may not ask for every card
        refused = await get(http, f"/api/history/hands/{kept[0]['id']}", perspective="all")
        assert refused.status_code == 403
        assert refused.json()["text"]["key"] == "refusal.http.history_all_cards"
        # the downloads: each hand of each file hides what the table did not see
        for fmt in ("phh", "pokerstars", "ohh"):
            public = await get(http, "/api/history/export", format=fmt)
            staff = await get(http, "/api/history/export", dealer, format=fmt)
            assert public.status_code == staff.status_code == 200, public.text
            assert "attachment" in public.headers["content-disposition"]
            assert public.headers["x-feltwire-hands"] == str(len(kept))
            public_files, staff_files = file_hands(fmt, public.text), file_hands(fmt, staff.text)
            assert len(public_files) == len(staff_files) == len(kept)
            for h, theirs, mine in zip(kept, public_files, staff_files, strict=True):
                assert not theirs & hidden[h["number"]], (fmt, h["number"])
                hole_hidden = {
                    c["card"]
                    for c in h["cards"]
                    if c["kind"] == "hole" and c["visibility"] in ("mucked", "dealer")
                }
                assert hole_hidden <= mine, (fmt, h["number"])  # the staff's file has them
            shown = await get(http, "/api/history/export", dealer, format=fmt, perspective="shown")
            assert shown.text == public.text


async def test_a_hand_street_by_street(tmp_path: Path) -> None:
    settings = kept_night(tmp_path, hands=6)
    assert settings.url is not None
    kept = stored_hands(settings.url)
    async with history_hub(tmp_path, settings) as http:
        admin = await signed_in(http, "admin")
        for h in kept:
            view = (await get(http, f"/api/history/hands/{h['id']}", admin)).json()
            streets = view["streets"]
            assert [s["street"] for s in streets] == list(range(len(streets)))
            assert streets[0]["name"]["key"] == "street.pre_flop"
            pots = [s["pot"] for s in streets]
            assert pots == sorted(pots) and pots[-1] == view["summary"]["pot"] == h["pot_total"]
            assert sum(p["amount"] for p in view["pots"]) == h["pot_total"]
            blinds = [a for a in streets[0]["actions"] if a["kind"] == "blind"]
            assert sorted(a["amount"] for a in blinds) == [5, 10]
            board = [c["card"] for s in streets for c in s["cards"] if c["kind"] == "board"]
            assert "".join(board) == h["board"]
            flop = (
                [c for c in streets[1]["cards"] if c["kind"] == "board"] if len(streets) > 1 else []
            )
            assert len(flop) in (0, 3)
            won = sum(a["amount"] for a in view["awards"])
            assert won == h["pot_total"]
            assert {a["seat"] for a in view["awards"] if a["amount"]} == set(
                view["summary"]["winners"]
            )
            nets = sum(p["net"] for p in view["summary"]["players"])
            assert nets == -h["rake"]
            for award in view["awards"]:
                showed = any(
                    a["kind"] == "show" and a["seat"] == award["seat"]
                    for s in streets
                    for a in s["actions"]
                )
                if award["hand_name"] is not None:
                    assert showed and award["hand_name"]["key"].startswith("hand_name.")
        # the night had alerts: a hand with one lists it with its catalog texts
        alerted = [
            (await get(http, f"/api/history/hands/{h['id']}", admin)).json()["alerts"] for h in kept
        ]
        for alerts in alerted:
            for a in alerts:
                assert a["text"]["key"].startswith("alert.")


async def test_the_filters(tmp_path: Path) -> None:
    settings = kept_night(tmp_path, hands=8, t2=4)
    assert settings.url is not None
    kept = stored_hands(settings.url)
    t1 = [h for h in kept if h["table_id"] == "t1"]
    t2 = [h for h in kept if h["table_id"] == "t2"]
    assert t1 and t2
    async with history_hub(tmp_path, settings) as http:

        async def numbers(**params: Any) -> list[tuple[str, int]]:
            found = (await get(http, "/api/history/hands", **params)).json()
            assert found["total"] == len(found["hands"]), found
            return [(h["table"], h["number"]) for h in found["hands"]]

        def of(hands: list[dict[str, Any]]) -> list[tuple[str, int]]:
            return [(h["table_id"], h["number"]) for h in hands]

        assert await numbers() == of(kept)
        assert await numbers(player="P2") == of(t1)  # P2 sat every hand at t1
        assert await numbers(player="Q5") == of(t2)
        assert await numbers(player="P9") == []
        assert await numbers(table="t2") == of(t2)
        assert await numbers(table="t2", player="P2") == []
        assert await numbers(game="NT") == of(kept)
        assert await numbers(game="PO") == []
        assert await numbers(since="2023-11-16") == of(t2)  # a date: its midnight, UTC
        assert await numbers(until="2023-11-16") == of(t1)
        middle = t1[len(t1) // 2]["started_at"]
        later = await numbers(since=iso(middle), table="t1")
        earlier = await numbers(until=iso(middle), table="t1")
        assert earlier + later == of(t1) and earlier and later
        page = (await get(http, "/api/history/hands", limit=3, offset=2)).json()
        assert [(h["table"], h["number"]) for h in page["hands"]] == of(kept)[2:5]
        assert page["total"] == len(kept)
        # a download of a selection holds the selection
        file = await get(http, "/api/history/export", format="pokerstars", table="t2")
        assert file.headers["x-feltwire-hands"] == str(len(t2))
        assert re.findall(r"Hand #(\d+)", file.text) == [str(h["number"]) for h in t2]
        assert 'filename="hands-t2.txt"' in file.headers["content-disposition"]
        # refusals people can read
        bad = await get(http, "/api/history/hands", since="yesterday")
        assert bad.status_code == 422 and bad.json()["text"]["key"] == "refusal.http.bad_moment"
        none = await get(http, "/api/history/hands/999999")
        assert none.status_code == 404
        assert none.json()["text"]["key"] == "refusal.http.no_kept_hand"
        odd = await get(http, "/api/history/export", format="csv")
        assert odd.status_code == 422


async def test_a_hub_without_a_store_and_a_store_it_cannot_read(tmp_path: Path) -> None:
    async with history_hub(tmp_path / "a", HandsSettings(enabled=False)) as http:
        for path, params in (
            ("/api/history/hands", {}),
            ("/api/history/hands/1", {}),
            ("/api/history/export", {"format": "ohh"}),
        ):
            r = await get(http, path, **params)
            assert r.status_code == 404, r.text
            assert r.json()["text"]["key"] == "refusal.http.no_hand_store"
        assert (await http.get("/history")).status_code == 200  # the page says it
    blocked = tmp_path / "a-file-not-a-directory"
    blocked.write_text("")
    unopened = HandsSettings(url=f"sqlite:///{blocked / 'hands.sqlite'}")
    async with history_hub(tmp_path / "c", unopened) as http:  # the hub starts without it
        r = await get(http, "/api/history/hands")
        assert r.status_code == 503, r.text
        assert r.json()["text"]["key"] == "refusal.http.hand_store_unopened"
    settings = kept_night(tmp_path, hands=3)
    assert settings.url is not None
    async with history_hub(tmp_path, settings) as http:
        assert (await get(http, "/api/history/hands")).status_code == 200
        db = sqlite3.connect(settings.url.removeprefix("sqlite:///"))
        db.execute("ALTER TABLE hand_seats RENAME TO hand_seats_gone")
        db.commit()
        db.close()
        for path, params in (
            ("/api/history/hands", {}),
            ("/api/history/hands/1", {}),
            ("/api/history/export", {"format": "phh"}),
        ):
            r = await get(http, path, **params)
            assert r.status_code == 503, r.text
            assert r.json()["text"]["key"] == "refusal.http.hand_store_failed"


@pytest.mark.parametrize("role", ["producer", "admin"])
async def test_every_staff_role_reads_every_card_and_is_audited(tmp_path: Path, role: str) -> None:
    settings = kept_night(tmp_path, hands=3)
    assert settings.url is not None
    kept = stored_hands(settings.url)
    async with history_hub(tmp_path, settings) as http:
        who = await signed_in(http, role)
        r = await get(http, f"/api/history/hands/{kept[0]['id']}", who)
        assert r.json()["perspective"] == "all"
        admin = await signed_in(http, "admin")
        trail = (await get(http, "/api/admin/audit", admin)).json()
        entries = trail["entries"] if isinstance(trail, dict) else trail
        assert any(e["feed"] == "history" and e["role"] == role for e in entries), entries


async def test_every_card_is_refused_while_the_audit_trail_cannot_be_written(
    tmp_path: Path,
) -> None:
    """Fail closed, as the overlay: no read with every card goes out unaudited."""
    settings = kept_night(tmp_path, hands=3)
    assert settings.url is not None
    kept = stored_hands(settings.url)
    state = tmp_path / "hub"
    state.mkdir()
    async with (
        running_hub(state, hands=settings) as hub,
        httpx.AsyncClient(base_url=hub.web_url, timeout=30) as http,
    ):
        dealer = await signed_in(http, "dealer")
        hub.auth.audit.close()  # the trail's database went away
        for path, params in (
            (f"/api/history/hands/{kept[0]['id']}", {}),
            ("/api/history/export", {"format": "ohh"}),
        ):
            r = await get(http, path, dealer, **params)
            assert r.status_code == 503, r.text
            assert r.json()["text"]["key"] == "refusal.http.audit_unavailable"
            assert "cards" not in r.text
        # what the table saw needs no audit
        assert (await get(http, f"/api/history/hands/{kept[0]['id']}")).status_code == 200
        shown = await get(http, f"/api/history/hands/{kept[0]['id']}", dealer, perspective="shown")
        assert shown.status_code == 200
