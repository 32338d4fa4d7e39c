"""The lock files in ``constraints/`` still satisfy pyproject.toml: every package an extra
asks for is pinned there, at a version its range allows, and every pin carries hashes (so
``pip install --require-hashes -r constraints/….txt`` works). ``./scripts/lock`` makes
them; docs/install-pi.md uses them.

(No network: this reads the files. That the locked set installs in a fresh venv is what
tests/integration/test_install_pi.py shows.)
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
LOCKS = {
    "hub": ["hub"],
    "hub-broker": ["hub", "broker"],
    "node": ["node"],
    "bridge": ["bridge"],
}
"""Each lock file and the extras it locks (as ./scripts/lock makes them)."""
TARGET = {"python_version": "3.11", "python_full_version": "3.11.2", "sys_platform": "linux"}
"""Raspberry Pi OS Bookworm's Python; each machine is checked too (x86_64 CI, aarch64 Pi)."""
MACHINES = ["x86_64", "aarch64"]
_PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^\s;\\]+)")


def pins(lock: Path) -> dict[str, Version]:
    """Package name → pinned version, from a hashed requirements file."""
    text = lock.read_text(encoding="utf-8")
    found: dict[str, Version] = {}
    for entry in re.split(r"\n(?=[A-Za-z0-9])", text):
        match = _PIN.match(entry)
        if match is None:
            continue
        assert "--hash=sha256:" in entry, f"{lock.name}: {match[1]} has no hash"
        found[canonicalize_name(match[1])] = Version(match[2])
    return found


def required(extras: list[str], machine: str) -> list[Requirement]:
    """What installing feltwire with ``extras`` asks for on ``machine`` (self-references
    such as ``feltwire[hub]`` followed)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    env = {**TARGET, "platform_machine": machine}
    todo = [Requirement(r) for r in project["dependencies"]]
    seen: set[str] = set()
    stack = list(extras)
    while stack:
        extra = stack.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for line in project["optional-dependencies"][extra]:
            req = Requirement(line)
            if canonicalize_name(req.name) == "feltwire":
                stack.extend(req.extras)
            else:
                todo.append(req)
    return [r for r in todo if r.marker is None or r.marker.evaluate({**env, "extra": ""})]


@pytest.mark.parametrize("machine", MACHINES)
@pytest.mark.parametrize("name", list(LOCKS))
def test_each_lock_pins_every_dependency_within_pyprojects_range(name: str, machine: str) -> None:
    locked = pins(ROOT / "constraints" / f"{name}.txt")
    for req in required(LOCKS[name], machine):
        key = canonicalize_name(req.name)
        assert key in locked, f"constraints/{name}.txt lacks {req.name}: run ./scripts/lock"
        assert req.specifier.contains(locked[key], prereleases=True), (
            f"constraints/{name}.txt pins {req.name}=={locked[key]}, outside {req}: "
            "run ./scripts/lock"
        )
    for build in ("setuptools", "wheel"):  # feltwire itself: --no-build-isolation
        assert build in locked, f"constraints/{name}.txt lacks the build backend {build}"


def test_a_hub_on_mosquitto_locks_no_embedded_broker() -> None:
    assert "amqtt" not in pins(ROOT / "constraints" / "hub.txt")
    assert "amqtt" in pins(ROOT / "constraints" / "hub-broker.txt")


def test_every_lock_is_made_by_the_lock_script() -> None:
    script = (ROOT / "scripts" / "lock").read_text(encoding="utf-8")
    made = set(re.findall(r"^lock ([a-z-]+) ", script, flags=re.MULTILINE))
    assert made == set(LOCKS) == {p.stem for p in (ROOT / "constraints").glob("*.txt")}
