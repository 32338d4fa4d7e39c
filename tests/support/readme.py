"""The README's text and its TOML examples, for the tests that keep the README true."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def toml_block_after(label: str) -> dict[str, object]:
    """The README's TOML example that follows ``label``, parsed."""
    m = re.search(re.escape(label) + r"\s*\n\s*```toml\n(.*?)```", README, re.S)
    assert m, f"no TOML example after {label!r} in README.md"
    return tomllib.loads(m.group(1))
