"""The console's sit-down takes the player's club id (``POST /api/console/seat``,
``club_id``): the table seats the person with it, the event log keeps it (a restarted hub
has it again) and only a sit-down may carry one."""

from __future__ import annotations

from pathlib import Path

import httpx

from hub.web.auth import Role
from tests.support.web_hub import running_hub


async def test_a_sit_down_with_a_club_id_seats_that_person(tmp_path: Path) -> None:
    async with running_hub(tmp_path / "state") as hub:
        headers = {"Authorization": f"Bearer {hub.token(Role.DEALER)}"}
        async with httpx.AsyncClient(base_url=hub.web_url, headers=headers) as http:
            sit = {"op": "sit", "seat": 4, "name": "Cy", "amount": 500, "club_id": "C-9"}
            r = await http.post("/api/console/seat", json=sit)
            assert r.status_code == 200 and r.json()["accepted"], r.text
            for body in (
                {"op": "top_up", "seat": 4, "amount": 100, "club_id": "C-9"},
                {"op": "sit", "seat": 5, "name": "Di", "amount": 500, "club_id": ""},
            ):
                r = await http.post("/api/console/seat", json=body)
                assert r.status_code == 422, r.text  # only a sit-down names a person
        assert hub.rules is not None
        seated = hub.rules.desk.table.players
        assert (seated[4].name, seated[4].club_id) == ("Cy", "C-9")
        assert seated[1].club_id == ""  # none given
    async with running_hub(tmp_path / "state") as again:  # the log's replay seats them
        assert again.rules is not None
        assert again.rules.desk.table.players[4].club_id == "C-9"
