"""``feltwire history import-log`` rebuilds the hands store from the event logs — the same
hands the hub wrote as they ended — may run again (nothing doubled), reports counts with
``--json`` and progress on a terminal, and an interruption leaves a store that is whole
(every hand in it complete) and finished by the next run. On SQLite and PostgreSQL; the
logs SQLite files, or (``event_log_url``) rows in PostgreSQL."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from hub.adapters.eventlog.pg import PgEventLog
from hub.adapters.hands import schema
from hub.adapters.hands.store import HandStore, sqlite_url
from hub.app.records import InputKind
from hub.cli import history
from tests.integration.hands.test_store import HANDS, PLAYERS, night, play, rows, table
from tests.support.clocks import FakeClock
from tests.support.postgres import PostgresServer


def config(tmp_path: Path, state: Path, url: str, *, hidden_cards_days: int = 0) -> Path:
    """A hub.toml of the table :func:`night` played, its hands kept at ``url`` (every
    card, unless ``hidden_cards_days``: the night was played in 2023, the tests' clock)."""
    players = ", ".join(
        f'{{ seat = {p.seat}, name = "{p.name}", buy_in = {p.buy_in} }}' for p in PLAYERS
    )
    path = tmp_path / "hub.toml"
    path.write_text(
        f'table = "t1"\nlive_equity = false\nstate_dir = "{state}"\n\n'
        f'[rules]\nrebuy = true\nplayers = [{players}]\n\n[hands]\nurl = "{url}"\n'
        f"hidden_cards_days = {hidden_cards_days}\n"
    )
    return path


def content(url: str) -> list[dict[str, Any]]:
    """Every stored hand with its seats, actions and cards (no row ids)."""
    store = HandStore.open(url)
    try:
        out = []
        for h in sorted(rows(store, schema.hands), key=lambda h: h["number"]):
            parts = {}
            for t in (schema.hand_seats, schema.actions, schema.cards, schema.awards):
                parts[t.name] = sorted(
                    [{k: v for k, v in r.items() if k not in ("hand_id", "player_id")}
                     for r in rows(store, t, hand_id=h["id"])],
                    key=repr,
                )  # fmt: skip
            out.append({k: v for k, v in h.items() if k != "id"} | parts)
        return out
    finally:
        store.close()


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, Any]]]:
    code = history.main(args)
    return code, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_import_log_rebuilds_what_the_hub_wrote(
    tmp_path: Path, store_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    live = sqlite_url(tmp_path / "live" / "hands.sqlite")
    state = night(tmp_path, live)
    cfg = config(tmp_path, state, store_url)
    code, out = run(["import-log", "--config", str(cfg), "--json"], capsys)
    assert code == 0
    (row,) = out
    hands = len(content(live))
    assert row["table"] == "t1" and row["written"] == hands and row["already"] == 0
    assert row["inputs"] > hands and row["failed"] == 0
    assert content(store_url) == content(live)
    code, again = run(["import-log", "--config", str(cfg), "--json"], capsys)
    assert code == 0 and again[0]["written"] == 0 and again[0]["already"] == hands
    assert content(store_url) == content(live)


def test_an_interrupted_import_leaves_a_whole_store_and_the_next_run_finishes_it(
    tmp_path: Path, store_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    live = sqlite_url(tmp_path / "live" / "hands.sqlite")
    state = night(tmp_path, live)
    cfg = config(tmp_path, state, store_url)
    real = history._Progress.__call__

    def interrupted(self: Any, seq: int) -> None:
        if seq > self.total // 2:
            raise KeyboardInterrupt  # Ctrl-C half-way
        real(self, seq)

    monkeypatch.setattr(history._Progress, "__call__", interrupted)
    assert history.main(["import-log", "--config", str(cfg), "--json"]) == 130
    assert "run it again to finish" in capsys.readouterr().err
    partial, whole = content(store_url), content(live)
    assert 0 < len(partial) < len(whole)
    assert partial == whole[: len(partial)]  # the hands written are whole, in order
    monkeypatch.setattr(history._Progress, "__call__", real)
    code, out = run(["import-log", "--config", str(cfg), "--json"], capsys)
    assert code == 0 and out[0]["written"] == len(whole) - len(partial)
    assert content(store_url) == whole


@pytest.mark.parametrize("store_url", ["sqlite"], indirect=True)
def test_a_terminal_sees_the_progress(tmp_path: Path, store_url: str, monkeypatch: Any) -> None:
    state = night(tmp_path, sqlite_url(tmp_path / "live" / "hands.sqlite"), hands=3)
    cfg = config(tmp_path, state, store_url)

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr("sys.stdout", screen)
    assert history.main(["import-log", "--config", str(cfg)]) == 0
    text = screen.getvalue()
    assert "\rt1: [" in text and " inputs, " in text
    assert text.rstrip().splitlines()[-1].startswith("table t1: ")
    assert "hands written, 0 already stored, 0 failed" in text


def test_a_log_in_use_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hub.adapters.eventlog.store import EventLog

    state = night(tmp_path, sqlite_url(tmp_path / "live" / "hands.sqlite"), hands=2)
    cfg = config(tmp_path, state, sqlite_url(tmp_path / "new.sqlite"))
    held = EventLog(state / "events.sqlite", "t1")  # a running hub holds it
    try:
        code, out = run(["import-log", "--config", str(cfg), "--json"], capsys)
    finally:
        held.close()
    assert code == 1 and "locked" in out[0]["error"]


def test_import_log_replays_a_postgresql_log_beside_a_running_hub(
    tmp_path: Path, store_url: str, postgres: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """``event_log_url``: the tables' logs are in PostgreSQL; import-log replays them as it
    does SQLite files — read-only, so a hub appending to the log meanwhile is undisturbed."""
    log_url = postgres.new_database()
    live = sqlite_url(tmp_path / "live" / "hands.sqlite")
    clock = FakeClock(1_700_000_000.0)
    log, kept = PgEventLog(log_url, "t1"), HandStore.open(live)
    app = table(log, clock, kept)  # the night of night(), its log on PostgreSQL
    play(app, clock, HANDS, 7)
    app.close()
    log.close()
    kept.close()
    plain = config(tmp_path, tmp_path / "state", store_url)
    cfg = tmp_path / "pg.toml"
    cfg.write_text(f'event_log_url = "{log_url}"\n' + plain.read_text())

    running = PgEventLog(log_url, "t1")  # a hub serving the table meanwhile
    inputs = running.last_seq
    try:
        code, out = run(["import-log", "--config", str(cfg), "--json"], capsys)
        assert code == 0, out
        (row,) = out
        hands = len(content(live))
        assert row == {
            "table": "t1",
            "log": log_url,
            "inputs": inputs,
            "written": hands,
            "already": 0,
            "failed": 0,
        }
        assert content(store_url) == content(live)
        assert running.append(InputKind.TICK, {}, clock() + 1).seq == inputs + 1  # undisturbed
    finally:
        running.close()
    code, again = run(["import-log", "--config", str(cfg), "--json"], capsys)
    assert code == 0 and again[0]["written"] == 0 and again[0]["already"] == hands


@pytest.mark.parametrize("store_url", ["sqlite"], indirect=True)
def test_a_table_without_rows_in_postgresql_has_no_log(
    tmp_path: Path, store_url: str, postgres: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "pg.toml"
    plain = config(tmp_path, tmp_path / "state", store_url)
    cfg.write_text(f'event_log_url = "{postgres.new_database()}"\n' + plain.read_text())
    code, (row,) = run(["import-log", "--config", str(cfg), "--json"], capsys)
    assert code == 1 and row["error"] == "no event log"
