"""The systemd units in ``systemd/`` as systemd itself reads them.

``systemd-analyze verify`` runs on each unit file unchanged, in a throwaway root
(``--root``) that holds the machine's own system units (for ``network-online.target``,
``sysinit.target`` …) and an executable at the exact ExecStart path
``/opt/feltwire/.venv/bin/feltwire`` — verify refuses a unit whose command does not exist —
and must print nothing at all: an unknown key or a bad value is only a warning to it.
``systemd-analyze security --offline=true`` rates each unit; the issue asks for at most
4.5. ``systemd-sysusers`` applies the sysusers.d file to an empty root. Skipped only
where the systemd tools are absent (``scripts/test`` installs them, so CI runs this).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
UNITS = ["feltwire-hub.service", "feltwire-node.service", "feltwire-bridge.service"]
EXEC = "/opt/feltwire/.venv/bin/feltwire"
MAX_EXPOSURE = 4.5

analyze = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(analyze is None, reason="systemd-analyze is not installed")


def system_units() -> Path:
    for d in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")):
        if (d / "sysinit.target").exists():
            return d
    pytest.skip("no system units on this machine (sysinit.target) for verify to resolve")


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A root with the system's units, the feltwire units and a stand-in for the CLI."""
    root = tmp_path_factory.mktemp("root")
    shutil.copytree(system_units(), root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    for unit in UNITS:
        shutil.copy(SYSTEMD / unit, root / "etc/systemd/system" / unit)
    cli = root / EXEC.lstrip("/")
    cli.parent.mkdir(parents=True)
    cli.write_text("#!/bin/sh\n")
    cli.chmod(0o755)
    return root


def settings(unit: str) -> dict[str, list[str]]:
    """Each key of the unit's [Service] section with its values, in order."""
    out: dict[str, list[str]] = {}
    section = ""
    for line in (SYSTEMD / unit).read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            out.setdefault(key, []).append(value)
    return out


@needs_analyze
@pytest.mark.parametrize("unit", UNITS)
def test_unit_passes_systemd_analyze_verify(root: Path, unit: str) -> None:
    assert analyze is not None
    result = subprocess.run(
        [analyze, "verify", f"--root={root}", "--man=no", unit],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout + result.stderr == "", result.stderr


@needs_analyze
def test_verify_refuses_a_missing_command(root: Path, tmp_path: Path) -> None:
    """The check above means something: without the command at ExecStart's path (or with
    a misspelt key) verify fails or warns."""
    assert analyze is not None
    bare = tmp_path / "bare"
    shutil.copytree(root, bare, symlinks=True)
    (bare / EXEC.lstrip("/")).unlink()
    result = subprocess.run(
        [analyze, "verify", f"--root={bare}", "--man=no", UNITS[0]],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0 and "is not executable" in result.stderr
    misspelt = bare / "etc/systemd/system/feltwire-typo.service"
    misspelt.write_text("[Service]\nExecStart=/bin/sh\nWatchdogSecs=30\n")
    (bare / "bin").mkdir()
    shutil.copy("/bin/sh", bare / "bin/sh")
    result = subprocess.run(
        [analyze, "verify", f"--root={bare}", "--man=no", misspelt.name],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Unknown key 'WatchdogSecs'" in result.stderr


@needs_analyze
@pytest.mark.parametrize("unit", UNITS)
def test_unit_rates_at_most_4_5_in_systemd_analyze_security(unit: str) -> None:
    assert analyze is not None
    result = subprocess.run(
        [analyze, "security", "--offline=true", "--no-pager", str(SYSTEMD / unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d)", result.stdout)
    assert found, result.stdout + result.stderr
    assert float(found.group(1)) <= MAX_EXPOSURE, result.stdout


@pytest.mark.parametrize("unit", UNITS)
def test_unit_runs_under_notify_watchdog_and_owner_only_files(unit: str) -> None:
    s = settings(unit)
    assert s["Type"] == ["notify"] and s["NotifyAccess"] == ["main"]
    assert s["WatchdogSec"] == ["30"]
    assert s["User"] == ["feltwire"]
    assert s["StateDirectory"] == ["feltwire"] and s["StateDirectoryMode"] == ["0700"]
    assert s["UMask"] == ["0077"]
    assert s["WorkingDirectory"][0].startswith(("%S/", "%t/"))  # writable: the state/runtime dir
    # optional secrets: a bare name is looked up in /etc/credstore/, and skipped when absent
    assert all(re.fullmatch(r"feltwire-(hub|node|bridge)-[a-z-]+", c) for c in s["LoadCredential"])
    assert s["MemoryDenyWriteExecute"] == ["yes"]  # tests/integration/test_sdnotify.py runs it
    assert s["CapabilityBoundingSet"] == [""]
    assert s["RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6"]


def test_only_the_node_and_the_bridge_reach_devices() -> None:
    hub, node, bridge = (settings(u) for u in UNITS)
    assert hub["PrivateDevices"] == ["yes"] and "DeviceAllow" not in hub
    assert node["DeviceAllow"] == ["char-spi rw", "char-gpiochip rw"]
    assert node["SupplementaryGroups"] == ["spi gpio"]
    assert node["WorkingDirectory"] == ["%t/feltwire-node"]  # lgpio's pipe: writable
    assert bridge["DeviceAllow"] == ["char-ttyUSB rw", "char-ttyACM rw"]
    assert bridge["SupplementaryGroups"] == ["dialout"]
    for s in (node, bridge):
        assert "PrivateDevices" not in s and s["DevicePolicy"] == ["closed"]


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None, reason="no systemd-sysusers")
def test_sysusers_file_makes_the_user_and_its_groups(tmp_path: Path) -> None:
    (tmp_path / "etc").mkdir()
    result = subprocess.run(
        ["systemd-sysusers", f"--root={tmp_path}", str(SYSTEMD / "feltwire.sysusers.conf")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    passwd = {line.split(":")[0]: line.split(":") for line in (tmp_path / "etc/passwd").open()}
    groups = {line.split(":")[0] for line in (tmp_path / "etc/group").open()}
    user = passwd["feltwire"]
    assert user[5] == "/var/lib/feltwire" and user[6].strip() == "/usr/sbin/nologin"
    assert int(user[2]) < 1000  # a system user
    assert {"feltwire", "spi", "gpio", "dialout"} <= groups
