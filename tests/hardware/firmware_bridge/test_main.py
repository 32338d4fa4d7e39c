"""``feltwire bridge``'s entry point: config checking, and a real run stopped by SIGTERM."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from firmware_bridge.main import main
from tests.support.bridge import board_on_a_pty, retained
from tests.support.mosquitto import MosquittoProcess


def test_check_config_accepts_a_good_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "bridge.toml"
    cfg.write_text(
        'bridge_id = "b1"\nport = "/dev/ttyACM0"\n[antennas]\n0 = "seat1"\n1 = "board"\n'
    )
    assert main(["--config", str(cfg), "--check-config"]) == 0
    assert "valid" in capsys.readouterr().out


def test_check_config_names_the_bad_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "bridge.toml"
    cfg.write_text('port = "/dev/ttyACM0"\nbaud = 12\n[antennas]\n0 = "seat99"\n')
    assert main(["--config", str(cfg), "--check-config"]) == 2
    out = capsys.readouterr().out
    assert "baud" in out and "seat99" in out


def test_bridge_process_runs_and_stops_on_sigterm(
    mosquitto: MosquittoProcess, tmp_path: Path
) -> None:
    with board_on_a_pty(tmp_path, mosquitto.url) as cfg:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from firmware_bridge.main import main; sys.exit(main(sys.argv[1:]))",
                "--config",
                str(cfg),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        output = bytearray()  # read as it comes: a full pipe would stop the bridge
        reader = threading.Thread(target=lambda: _drain(proc, output), daemon=True)
        reader.start()
        try:
            topic = "feltwire/v1/t1/node/b1/availability"
            deadline = time.monotonic() + 20  # a loaded 2-core CI box starts Python slowly
            tags = "feltwire/v1/t1/node/b1/reader/seat1/tags"
            while retained(mosquitto.port, topic) != b"online" or not retained(
                mosquitto.port, tags
            ):
                assert time.monotonic() < deadline, (
                    f"the bridge never published the board: {bytes(output)!r}"
                )
                assert proc.poll() is None, bytes(output)
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)
            reader.join(timeout=5)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    out = bytes(output)
    assert proc.returncode == 0, out
    assert b"counters" in out, out
    assert retained(mosquitto.port, topic) == b"offline", out
    assert (tmp_path / "state" / "seq").exists(), out


def _drain(proc: subprocess.Popen[bytes], into: bytearray) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        into += line


def test_hub_light_commands_are_forwarded_to_the_board() -> None:
    from feltwire.protocol import LightPattern
    from firmware_bridge.main import forward_light

    class RecordingBridge:
        def __init__(self) -> None:
            self.lights: list[tuple[int, LightPattern]] = []

        def set_light(self, light: int, pattern: LightPattern) -> None:
            self.lights.append((light, pattern))

    bridge = RecordingBridge()
    ok = forward_light(
        bridge,  # type: ignore[arg-type]
        "feltwire/v1/t1/seat/4/light/set",
        b'{"v": 1, "pattern": "acting"}',
    )
    assert ok and bridge.lights == [(4, LightPattern.ACTING)]
    assert not forward_light(bridge, "feltwire/v1/t1/seat/4/light/set", b"{bad")  # type: ignore[arg-type]
    assert not forward_light(bridge, "feltwire/v1/t1/alerts", b'{"v": 1, "pattern": "off"}')  # type: ignore[arg-type]
    for coerced in (
        b'{"v": true, "pattern": "off"}',
        b'{"v": 1, "pattern": "acting", "pattern": "off"}',
    ):
        assert not forward_light(bridge, "feltwire/v1/t1/seat/4/light/set", coerced)  # type: ignore[arg-type]
    assert bridge.lights == [(4, LightPattern.ACTING)]
