"""A damaged event log through the real hub and the real commands.

``hub.bootstrap.start_hub`` refuses a damaged log and starts nothing; ``feltwire hub``
says why and exits 1 without a traceback; ``feltwire event-log check`` names the damage
(exit 1); ``feltwire event-log accept-loss`` keeps what verifies, moves the damaged files
aside and records the loss; the hub then starts where the verified prefix left the
table — the stacks after the hands it holds, not the buy-ins.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import hub.adapters.eventlog as eventlog
from feltwire.deck import simulated_deck
from feltwire.protocol import reader_tags_topic
from hub.adapters.eventlog.store import EventLog
from hub.app.errors import EventLogError
from hub.bootstrap import HubRuntime, start_hub
from hub.cli.hub import main as hub_main
from hub.config import HubConfig, HubMqttSettings, WebSettings
from hub.rules.procedure import Act, ConsoleAction, MuckHand
from tests.support.eventlog_damage import N, killed_writer, overwrite, seal_of, wal_of
from tests.support.ports import free_port
from tests.support.web_hub import two_seated

ROOT = Path(__file__).resolve().parents[3]
DECK = simulated_deck()


def feltwire(*args: str) -> subprocess.CompletedProcess[str]:
    """The real ``feltwire`` command (this worktree's code)."""
    return subprocess.run(
        [sys.executable, "-m", "feltwire", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )


def write_config(path: Path, state_dir: Path, *, tables: list[str] | None = None) -> Path:
    web, broker = free_port(), free_port()
    text = f'state_dir = "{state_dir}"\nlive_equity = false\n'
    if tables is None:
        text += 'table = "t1"\n'
    text += f"[mqtt]\nembedded_port = {broker}\n[web]\nport = {web}\n"
    text += "[rules]\ntick_seconds = 0\nplayers = ["
    text += '{ seat = 1, name = "Ann", buy_in = 1000 }, { seat = 2, name = "Bo", buy_in = 1000 }]\n'
    for table in tables or []:
        text += f'[[tables]]\ntable = "{table}"\n'
    path.write_text(text)
    return path


def damaged_log(state_dir: Path) -> Path:
    """A log of ``N`` inputs whose WAL lost everything after input 12."""
    path = state_dir / "events.sqlite"
    sizes = killed_writer(path)
    overwrite(wal_of(path), sizes[11] + 600, random.randbytes(64))
    return path


# --------------------------------------------------------------------- the commands


def test_check_names_the_damage_and_accept_loss_keeps_the_verified_prefix(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"
    path = damaged_log(state)
    config = write_config(tmp_path / "hub.toml", state)
    wal_bytes = wal_of(path).read_bytes()

    checked = feltwire("event-log", "check", "--config", str(config))
    assert checked.returncode == 1, checked
    assert f"table t1: {path}" in checked.stdout
    assert "is damaged" in checked.stdout and f"inputs 13..{N} ({N - 12} inputs)" in checked.stdout
    assert "Traceback" not in checked.stdout + checked.stderr

    accepted = feltwire("event-log", "accept-loss", "--config", str(config), "--table", "t1")
    assert accepted.returncode == 0, accepted
    assert f"dropped inputs 13..{N} ({N - 12} inputs)" in accepted.stdout
    assert "kept inputs 1..12" in accepted.stdout
    aside = [p for p in state.iterdir() if ".damaged-" in p.name]
    names = sorted(p.name[p.name.index(".damaged-") + 25 :] for p in aside)
    assert names == ["", "-wal", ".seal"], aside  # the database, its WAL and its seal
    (damaged_wal,) = [p for p in aside if p.name.endswith("-wal")]
    assert damaged_wal.read_bytes() == wal_bytes  # as found, for forensics
    assert all(os.stat(p).st_mode & 0o777 == 0o600 for p in aside)

    log = EventLog(path, "t1")
    assert log.last_seq == 12 and [r.payload["i"] for r in log.records()] == list(range(1, 13))
    assert len(log.accepted_losses) == 1
    assert f"dropped inputs 13..{N}" in log.accepted_losses[0].description
    log.close()

    again = feltwire("event-log", "check", "--config", str(config))
    assert again.returncode == 0, again
    assert "OK: 12 inputs" in again.stdout and "accepted loss:" in again.stdout
    nothing = feltwire("event-log", "accept-loss", "--config", str(config))
    assert nothing.returncode == 0 and "nothing to accept" in nothing.stdout


def test_check_and_accept_loss_per_table_of_a_club_hub(tmp_path: Path) -> None:
    state = tmp_path / "state"
    config = write_config(tmp_path / "hub.toml", state, tables=["t1", "t2"])
    sound = EventLog(state / "t1" / "events.sqlite", "t1")
    sound.append(eventlog.InputKind.TICK, {}, 1.0)
    sound.close()
    path = state / "t2" / "events.sqlite"
    path.parent.mkdir(parents=True)
    db_writer_log = EventLog(path, "t2")
    db_writer_log.append(eventlog.InputKind.TICK, {}, 1.0)
    db_writer_log.close()
    seal_of(path).unlink()

    checked = feltwire("event-log", "check", "--config", str(config))
    assert checked.returncode == 1
    assert "table t1" in checked.stdout and "OK: 1 inputs" in checked.stdout
    assert "events.sqlite.seal is missing" in checked.stdout
    wrong = feltwire("event-log", "accept-loss", "--config", str(config), "--table", "t9")
    assert wrong.returncode == 2 and "no table 't9'" in wrong.stderr
    fixed = feltwire("event-log", "accept-loss", "--config", str(config), "--table", "t2")
    assert fixed.returncode == 0 and "kept inputs 1..1" in fixed.stdout
    assert feltwire("event-log", "check", "--config", str(config)).returncode == 0


def test_feltwire_hub_refuses_a_damaged_log_with_a_message_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    path = damaged_log(state)
    config = write_config(tmp_path / "hub.toml", state)
    assert hub_main(["--config", str(config)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"feltwire hub: event log {path} (table t1) is damaged")
    assert f"lost: inputs 13..{N}" in out and "accept-loss" in out
    ran = feltwire("hub", "--config", str(config))  # the real command, too
    assert ran.returncode == 1 and "is damaged" in ran.stdout
    assert "Traceback" not in ran.stdout + ran.stderr


# ------------------------------------------------------------------- the real hub


def message(reader: str, seq: int, cards: list[str]) -> tuple[str, bytes]:
    uids = sorted(DECK.uid_for(c) for c in cards)
    body = {"v": 1, "node": "n1", "seq": seq, "ts": 0, "reader": reader, "uids": uids}
    return reader_tags_topic("t1", "n1", reader), json.dumps(body).encode()


def stacks(hub: HubRuntime) -> dict[int, int]:
    """Each seat's stack as the table shows it (blinds in the pot taken off)."""
    assert hub.rules is not None
    return {p["seat"]: p["stack"] for p in hub.rules.public_state()["players"]}


def wal_size(path: Path) -> int:
    return wal_of(path).stat().st_size


async def stop(hub: HubRuntime) -> None:
    """Stop the hub once its tasks are idle: HubRuntime.stop() can wait forever when a
    task's ``asyncio.wait_for`` finishes in the same moment it is cancelled (Python
    3.11 then drops the cancellation; seen in ``run_release`` right after a read)."""
    await asyncio.sleep(0.05)
    await hub.stop()


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def hub_config(state_dir: Path, web: int = 0, broker: int = 0) -> HubConfig:
    return HubConfig(
        table="t1",
        live_equity=False,
        mqtt=HubMqttSettings(embedded_port=broker),
        web=WebSettings(port=web),
        rules=two_seated(),
        state_dir=state_dir,
    )


async def test_the_hub_refuses_a_damaged_log_and_after_accept_loss_resumes_the_prefix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = tmp_path / "live"
    hub = await start_hub(hub_config(live))
    try:
        rules, service = hub.rules, hub.service
        assert rules is not None and rules.desk.setup is not None
        held: dict[int, list[str]] = {1: [], 2: []}
        cards = iter(["As", "Kd", "7c", "Ah"])
        seq = 0
        for _ in range(2):  # hand 1: two cards each, then the small blind folds
            for seat in rules.desk.setup.seats:
                seq += 1
                held[seat].append(next(cards))
                service.handle_message(*message(f"seat{seat}", seq, held[seat]))
        acting = rules.public_state()["acting"]
        assert rules.console(ConsoleAction(acting, Act.FOLD, 0.0)) is not None
        winner = rules.desk.monitor.winner_to_show if rules.desk.monitor else None  # R-SHOW-3
        assert winner is not None and rules.console(MuckHand(winner, 0.0)) is not None
        after_hand_1 = stacks(hub)
        assert after_hand_1 != {1: 1000, 2: 1000} and not rules.in_hand
        seq_1, wal_1 = hub.log.last_seq if hub.log else 0, wal_size(live / "events.sqlite")
        for seat in (1, 2):  # the table is cleared: hand 2 starts, the blinds go in
            seq += 1
            service.handle_message(*message(f"seat{seat}", seq, []))
        assert rules.in_hand and stacks(hub) != after_hand_1
        # a crash image: what a power cut or kill -9 would leave (every commit is on disk)
        crashed = tmp_path / "state"
        crashed.mkdir(mode=0o700)
        for name in ("events.sqlite", "events.sqlite-wal", "events.sqlite.seal"):
            if (live / name).exists():
                shutil.copy2(live / name, crashed / name)
    finally:
        await stop(hub)
    # the WAL damaged in the first frame written after hand 1
    overwrite(crashed / "events.sqlite-wal", wal_1 + 100, random.randbytes(64))

    web, broker = free_port(), free_port()
    with pytest.raises(EventLogError) as caught:
        await start_hub(hub_config(crashed, web, broker))
    assert isinstance(caught.value, eventlog.EventLogDamaged)
    assert caught.value.report.inputs == seq_1 and "accept-loss" in str(caught.value)
    assert not listening(web) and not listening(broker)  # nothing started

    config = write_config(tmp_path / "hub.toml", crashed)
    from hub.cli.event_log import main as event_log_main

    assert event_log_main(["accept-loss", "--config", str(config)]) == 0
    assert f"kept inputs 1..{seq_1}" in capsys.readouterr().out

    resumed = await start_hub(hub_config(crashed))
    try:
        assert resumed.service.replayed == seq_1
        assert stacks(resumed) == after_hand_1  # the prefix's table, not the buy-ins
        state: dict[str, Any] = resumed.rules.public_state() if resumed.rules else {}
        assert state["hand"] == 1 and not state["in_hand"]
        assert resumed.log is not None and len(resumed.log.accepted_losses) == 1
        told = [a for a in state["alerts"] if a["code"] == "event_log_loss_accepted"]
        assert told and "lost inputs" in told[0]["message"]  # the dealer is told
    finally:
        await stop(resumed)


@pytest.mark.parametrize("crash_at", [1, 2, 3, 4, 5, 6])
def test_an_accept_loss_cut_short_is_refused_by_the_hub_and_finished_by_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, crash_at: int
) -> None:
    path = damaged_log(tmp_path / "state")
    real_replace = os.replace
    calls = 0

    def crashing_replace(src: Any, dst: Any) -> None:  # the machine dies at one rename
        nonlocal calls
        calls += 1
        if calls == crash_at:
            raise OSError("power cut")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", crashing_replace)
    with pytest.raises(OSError, match="power cut"):
        eventlog.accept_loss(path, "t1")
    monkeypatch.setattr(os, "replace", real_replace)
    with pytest.raises(eventlog.EventLogDamaged):  # in between, never a table
        EventLog(path, "t1")
    loss = eventlog.accept_loss(path, "t1")
    assert loss is not None and f"dropped inputs 13..{N}" in loss.description
    log = EventLog(path, "t1")
    assert log.last_seq == 12 and len(log.accepted_losses) == 1
    log.close()
    aside = sorted(p.name for p in path.parent.iterdir() if ".damaged-" in p.name)
    assert len(aside) == 3 and not [p for p in path.parent.iterdir() if ".rebuilt-" in p.name]


def test_check_says_a_log_is_in_use_while_a_hub_holds_it(tmp_path: Path) -> None:
    state = tmp_path / "state"
    config = write_config(tmp_path / "hub.toml", state)
    log = EventLog(state / "events.sqlite", "t1")
    log.append(eventlog.InputKind.TICK, {}, 1.0)
    try:
        checked = feltwire("event-log", "check", "--config", str(config))
    finally:
        log.close()
    assert checked.returncode == 1 and "is locked: a running hub" in checked.stdout
    assert "Traceback" not in checked.stdout + checked.stderr
