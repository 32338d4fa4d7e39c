"""The runnable examples in every module's docstrings stay true: each module of the five
packages whose source has an example (``>>>``) is one test here, found by walking the
packages, so a module that gains examples is checked without being listed anywhere."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from tests.support.doctests import assert_examples_pass

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("feltwire", "hub", "table_node", "firmware_bridge", "simulator")


def _with_examples() -> list[str]:
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if ">>>" in path.read_text(encoding="utf-8"):
                parts = path.relative_to(ROOT).with_suffix("").parts
                names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


@pytest.mark.parametrize("name", _with_examples())
def test_docstring_examples(name: str) -> None:
    assert_examples_pass(name, flags=doctest.ELLIPSIS)
