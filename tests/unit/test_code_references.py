"""Every dotted name of ours quoted in backticks in the docs or the docstrings
(```hub.adapters.eventlog```, ``:func:`hub.bootstrap.start_hub```) names a module or an
attribute that exists: a module that moves takes its references with it."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("hub", "feltwire", "table_node", "firmware_bridge", "simulator")
REFERENCE = re.compile(r"`((?:" + "|".join(PACKAGES) + r")(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`")
NOT_CODE = {"hub.toml", "hub.local"}
"""File and host names that look like dotted names."""


def _sources() -> list[Path]:
    files = [ROOT / "README.md"]
    for folder in (*PACKAGES, "docs", "tests"):
        files += (p for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".md"))
    return files


def _resolves(name: str) -> bool:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if isinstance(found, ModuleType) and not hasattr(found, attribute):
                try:  # a submodule its package does not import itself
                    found = importlib.import_module(f"{found.__name__}.{attribute}")
                    continue
                except ImportError:
                    return False
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def test_every_quoted_module_and_name_exists() -> None:
    stale: dict[str, list[str]] = {}
    for path in _sources():
        for match in REFERENCE.finditer(path.read_text(encoding="utf-8", errors="ignore")):
            name = match.group(1)
            if name not in NOT_CODE and not _resolves(name):
                stale.setdefault(name, []).append(str(path.relative_to(ROOT)))
    assert stale == {}
