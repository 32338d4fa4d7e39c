"""``scripts/install-pi`` as far as a machine that is not a Pi allows: the venv part for
real (the Pi-only steps and apt off) into a temporary prefix, then the installed
``feltwire``; the apt and Pi steps as the script would run them (``--dry-run``).

The real run installs the locked, hash-checked wheels of constraints/ from the package
index (the pip cache makes a second run quick).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "install-pi"


def install_pi(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def test_install_pi_without_the_pi_steps_gives_a_working_feltwire(tmp_path: Path) -> None:
    prefix = tmp_path / "opt-feltwire"
    args = ["--no-pi", "--no-apt", "--prefix", str(prefix), "--python", sys.executable]
    done = install_pi(*args, "--role", "hub", "--role", "node")
    assert done.returncode == 0, done.stdout + done.stderr
    feltwire = prefix / ".venv" / "bin" / "feltwire"
    help_ = subprocess.run([str(feltwire), "--help"], capture_output=True, text=True, check=False)
    assert help_.returncode == 0 and "usage: feltwire COMMAND" in help_.stdout, help_.stderr

    # a hub on a Mosquitto: no amqtt installed, and its config checks out
    python = prefix / ".venv" / "bin" / "python"
    assert subprocess.run([str(python), "-c", "import amqtt"], check=False).returncode == 1
    hub_toml = tmp_path / "hub.toml"
    hub_toml.write_text('[mqtt]\nurl = "mqtt://127.0.0.1:1883"\n')
    check = subprocess.run(
        [str(feltwire), "hub", "--config", str(hub_toml), "--check-config"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr

    # again: nothing to do but reinstall feltwire itself
    again = install_pi(*args, "--role", "hub", "--role", "node")
    assert again.returncode == 0, again.stdout + again.stderr


def test_on_a_pi_it_enables_spi_and_takes_lgpio_and_spidev_from_debian(tmp_path: Path) -> None:
    done = install_pi("--pi", "--dry-run", "--prefix", str(tmp_path), "--role", "node")
    assert done.returncode == 0, done.stderr
    steps = done.stdout
    assert "apt-get install -y -qq python3-venv sqlite3 python3-lgpio python3-spidev" in steps
    assert "+ raspi-config nonint do_spi 0" in steps
    assert f"-m venv --system-site-packages {tmp_path}/.venv" in steps
    assert "--require-hashes --only-binary :all: -r" in steps
    assert f"{ROOT}/constraints/node.txt" in steps


def test_off_a_pi_the_pi_steps_are_left_out_and_a_hub_gets_mosquitto(tmp_path: Path) -> None:
    done = install_pi("--no-pi", "--dry-run", "--prefix", str(tmp_path), "--role", "hub")
    assert done.returncode == 0, done.stderr
    steps = done.stdout
    assert "apt-get install -y -qq python3-venv sqlite3 mosquitto mosquitto-clients" in steps
    assert "raspi-config" not in steps and "lgpio" not in steps
    assert "--system-site-packages" not in steps
    assert f"{ROOT}/constraints/hub.txt" in steps

    broker = install_pi(
        "--no-pi", "--dry-run", "--prefix", str(tmp_path), "--role", "hub", "--broker"
    )
    assert "mosquitto" not in broker.stdout
    assert f"{ROOT}/constraints/hub-broker.txt" in broker.stdout


def test_it_says_what_is_missing() -> None:
    done = install_pi("--dry-run")
    assert done.returncode == 2
    assert "--role hub, --role node and/or --role bridge" in done.stderr
