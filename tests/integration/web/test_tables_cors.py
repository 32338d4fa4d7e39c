"""``/tables`` is the one route a page of another origin may read (issue 19: a page whose
hub died asks the room's other hubs where its table went): it carries
``Access-Control-Allow-Origin: *``; the pages, the feeds' snapshots, the APIs and the
overlay carry no CORS header, and a preflight gets none either."""

from __future__ import annotations

import httpx

from hub.config import WebSettings
from hub.web.auth import Role
from tests.support.room import room

ELSEWHERE = {"Origin": "http://elsewhere.example"}


async def test_only_tables_is_readable_from_another_origin() -> None:
    async with (
        room(WebSettings(port=0)) as r,
        httpx.AsyncClient(base_url=r.hub.web_url, headers=ELSEWHERE) as http,
    ):
        for path in ("/tables", "/api/tables"):
            answer = await http.get(path)
            assert answer.status_code == 200
            assert answer.headers["access-control-allow-origin"] == "*"
            assert answer.headers["cache-control"] == "no-store"
            assert "link" not in answer.headers  # a hub alone names no other hub
            assert answer.json() == [{"table": "t1", "game": "NT", "here": True}]
        producer = r.hub.token(Role.PRODUCER)
        for path in (
            "/",
            "/api/public",
            "/api/stats",
            "/healthz",
            f"/overlay?token={producer}",
            f"/api/overlay/delay?token={producer}",
            f"/api/console/state?token={r.dealer}",
        ):
            answer = await http.get(path)
            assert answer.status_code == 200, path
            assert not [h for h in answer.headers if h.startswith("access-control-")], path
        for path in ("/tables", "/api/public", "/api/console/action"):
            preflight = await http.options(path, headers={"Access-Control-Request-Method": "POST"})
            assert "access-control-allow-origin" not in preflight.headers, path
