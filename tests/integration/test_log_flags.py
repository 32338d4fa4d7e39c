"""The processes' log options and the node's and bridge's counters (issue 15), tried as an
operator does: real ``python -m feltwire hub|node`` processes, a real Mosquitto, the lines
on stderr read back one by one."""

from __future__ import annotations

import io
import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from feltwire.logs import setup_logging
from tests.support.hub_configs import embedded_hub_toml
from tests.support.mosquitto import MosquittoProcess
from tests.support.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

NODE_TOML = """
node_id = "n1"
table = "t1"
backend = "simulated"
readers = ["seat1", "seat2", "board", "burn", "muck"]
state_dir = "{state}"
[mqtt]
url = "{broker}"
[simulator]
seats = [1, 2]
step_seconds = 0.05
[counters]
metrics_port = {port}
log_seconds = 0.5
"""


@contextmanager
def process(args: list[str], stderr: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``python -m feltwire ARGS``, its stderr into a file; stopped with SIGTERM after."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "feltwire", *args],
        stdout=subprocess.DEVNULL,
        stderr=stderr.open("wb"),
        env=ENV,
    )
    try:
        yield proc
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def get(url: str, timeout: float = 15.0) -> httpx.Response:
    """GET ``url`` once it answers (the process is starting)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return httpx.get(url, timeout=2)
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def json_lines(path: Path) -> list[dict[str, Any]]:
    """Every line of ``path`` as a JSON object (fails on a line that is not one)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines, "nothing was logged"
    out = []
    for line in lines:
        record = json.loads(line)
        assert isinstance(record, dict), line
        out.append(record)
    return out


def test_hub_logs_json_at_debug_with_its_access_log(tmp_path: Path) -> None:
    """``feltwire hub --log-json --log-level debug --access-log``: every line on stderr
    is one JSON object with time, level, logger and message; debug records are there;
    the request the test makes is in the access log."""
    port = free_port()
    config = tmp_path / "hub.toml"
    config.write_text(embedded_hub_toml(tmp_path / "state", port))
    stderr = tmp_path / "stderr.txt"
    args = ["hub", "--config", str(config), "--log-json", "--log-level", "debug", "--access-log"]
    with process(args, stderr):
        assert get(f"http://127.0.0.1:{port}/healthz").status_code == 200
        time.sleep(0.3)
    records = json_lines(stderr)
    for record in records:
        assert {"time", "level", "logger", "message"} <= record.keys(), record
        assert "\n" not in record["message"]
    assert "DEBUG" in {r["level"] for r in records}
    access = [r for r in records if r["logger"] == "uvicorn.access"]
    assert any("/healthz" in r["message"] for r in access), access


def test_hub_logs_text_lines_at_info_without_an_access_log(tmp_path: Path) -> None:
    """The defaults: text lines, info and above, no access log."""
    port = free_port()
    config = tmp_path / "hub.toml"
    config.write_text(embedded_hub_toml(tmp_path / "state", port))
    stderr = tmp_path / "stderr.txt"
    with process(["hub", "--config", str(config)], stderr):
        assert get(f"http://127.0.0.1:{port}/healthz").status_code == 200
        time.sleep(0.3)
    lines = stderr.read_text(encoding="utf-8").splitlines()
    assert any(" INFO hub.bootstrap: hub for table t1" in line for line in lines), lines
    assert not [line for line in lines if " DEBUG " in line or "/healthz" in line], lines


def test_a_traceback_is_one_line_in_either_format() -> None:
    for as_json in (True, False):
        out = io.StringIO()
        handler = setup_logging("info", json=as_json, stream=out)
        try:
            try:
                raise ValueError("a reader\nfailed")
            except ValueError:
                logging.getLogger("feltwire.test").exception("sweep failed")
        finally:
            logging.getLogger().removeHandler(handler)
            logging.getLogger().setLevel(logging.WARNING)
        lines = out.getvalue().splitlines()
        assert len(lines) == 1, lines
        if as_json:
            record = json.loads(lines[0])
            assert record["message"] == "sweep failed" and record["level"] == "ERROR"
            assert "Traceback" in record["exc_info"] and "ValueError" in record["exc_info"]
        else:
            assert "sweep failed" in lines[0] and "Traceback" in lines[0]


@pytest.mark.timeout(60)
def test_a_node_serves_its_counters_and_logs_them(
    tmp_path: Path, mosquitto: MosquittoProcess
) -> None:
    """A simulated node with ``[counters] metrics_port``: its /metrics parses and its
    sweeps and reads published grow; it logs its counters every ``log_seconds``, and as
    JSON with ``--log-json``."""
    port = free_port()
    config = tmp_path / "node.toml"
    config.write_text(NODE_TOML.format(state=tmp_path / "state", broker=mosquitto.url, port=port))
    stderr = tmp_path / "stderr.txt"

    def scrape() -> dict[str, float]:
        text = get(f"http://127.0.0.1:{port}/metrics").text
        return {
            s.name + (f"[{s.labels['event']}]" if "event" in s.labels else ""): s.value
            for family in text_string_to_metric_families(text)
            for s in family.samples
        }

    with process(["node", "--config", str(config), "--log-json"], stderr):
        first = scrape()
        deadline = time.monotonic() + 20
        while True:
            later = scrape()
            if (
                later["feltwire_node_events_total[published]"]
                > first.get("feltwire_node_events_total[published]", 0)
                and later.get("feltwire_node_connected") == 1
            ):
                break
            assert time.monotonic() < deadline, later
            time.sleep(0.2)
        assert later["feltwire_node_events_total[sweeps]"] > 0
        assert later["feltwire_node_events_total[read_errors]"] == 0
        time.sleep(1.2)  # the counters' log line comes every 0.5 s
    records = json_lines(stderr)
    logged = [r for r in records if r["message"].startswith("node counters")]
    assert len(logged) >= 2, records
    assert logged[-1]["message"].startswith("node counters (stopped)")
    assert logged[-1]["counters"]["published"] >= later["feltwire_node_events_total[published]"]
